import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Effect by module (`effect/Effect`): its barrel loads fast-check and ~600 modules at import. */
const effectBarrel = { name: 'effect', message: "Import by module: `import * as Effect from 'effect/Effect'`." };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      'no-restricted-imports': ['error', { paths: [effectBarrel] }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [effectBarrel],
          patterns: [
            { group: ['**/adapters/**', '../adapters/*'], message: 'src/ never imports from adapters/.' },
            { group: ['node:*', 'pg', 'express'], message: 'The core does no I/O: reach the world through ports.' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Use the clock port.' },
        { object: 'Math', property: 'random', message: 'Use the id port.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the clock port.' },
      ],
    },
  },
  {
    files: ['bin/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts', 'examples/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
