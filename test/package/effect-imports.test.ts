/**
 * The shipped code imports effect by module (`effect/Effect`), never its barrel (`effect`): the
 * barrel loads fast-check and some 600 modules, which tripled `import 'paystate'`'s cold start.
 * The built package is checked by `package-quality.test.ts`; these are the sources it is built from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
/** What tsup builds the package from. */
const SHIPPED = ['src', 'adapters', 'bin'];

/** Every TypeScript file under `folder`. */
function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports, re-exports, loads with `import()` or `require()`. */
function specifiersOf(code: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]/gm,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
    /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1] ?? ''));
}

describe('effect imports', () => {
  it('reads every kind of import (the check below can see a barrel import)', () => {
    const code = [
      "import { Effect } from 'effect';",
      "import * as Exit from 'effect/Exit';",
      "export { Cause } from 'effect';",
      "import 'effect';",
      "const lazy = await import('effect');",
    ].join('\n');
    expect(specifiersOf(code).sort()).toEqual(['effect', 'effect', 'effect', 'effect', 'effect/Exit']);
  });

  it('the sources of the package import effect by module, never the barrel', () => {
    const files = SHIPPED.flatMap((folder) => typeScriptFiles(join(root, folder)));
    const barrel = files.filter((path) => specifiersOf(readFileSync(path, 'utf8')).includes('effect'));
    expect(barrel.map((path) => relative(root, path))).toEqual([]);
    expect(files.some((path) => specifiersOf(readFileSync(path, 'utf8')).includes('effect/Effect'))).toBe(true);
  });
});
