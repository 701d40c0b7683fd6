import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    memory: 'adapters/memory/index.ts',
    sandbox: 'adapters/sandbox/index.ts',
    node: 'adapters/node/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
});
