import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importSpecifiers, importViolations, readImportGraph, type ImportGraph } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * PENDING(hono): the files of the HTTP family (`adapters/http`, `express`, `hosted-page`,
 * `sandbox-server`, `node/fetch-bridge.ts`) that still import another adapter's internals or sit
 * on an import cycle, while the `hono` branch rebuilds them. This list must be EMPTY when `hono`
 * merges. It only shrinks: a listed file that no longer breaks a rule (or is gone) fails the test.
 */
const PENDING: readonly string[] = [];

/**
 * PENDING(hono): modules (or re-exports in them, marked `PENDING(hono)`) kept only because a
 * PENDING file imports them by their old path. Delete each once nothing else imports it; this list
 * must be EMPTY when `hono` merges, and a listed module that no other adapter imports fails the test.
 */
const PENDING_OLD_PATHS: readonly string[] = [];

const pending = new Set(PENDING);

/** What the rules find in a graph, as lines a failing test prints. */
function findings(graph: ImportGraph, tolerated: ReadonlySet<string> = new Set()): string[] {
  const imports = importViolations(graph)
    .filter((violation) => !tolerated.has(violation.from))
    .map(({ from, to, rule }) => `${rule}: ${from} imports ${to}`);
  const cycles = importCycles(graph)
    .filter((cycle) => !cycle.files.every((file) => tolerated.has(file)))
    .map((cycle) => `cycle of ${cycle.files.length} files: ${cycle.path.join(' -> ')}`);
  return [...imports, ...cycles];
}

describe('the import graph of src/, adapters/ and bin/', () => {
  const graph = readImportGraph(ROOT);

  it('reads the whole tree', () => {
    expect(graph.has('src/index.ts')).toBe(true);
    expect(graph.has('bin/paystate.ts')).toBe(true);
    expect(graph.get('adapters/memory/index.ts')).toContain('adapters/memory/card-vault.ts');
    expect([...graph.keys()].filter((file) => file.startsWith('adapters/')).length).toBeGreaterThan(100);
  });

  it('has no import cycle, no adapter or app importing another adapter but by its index.ts, no core importing outside src/', () => {
    expect(findings(graph, pending)).toEqual([]);
  });

  it('lists as PENDING only files that still break a rule (the list only shrinks)', () => {
    const breaking = new Set([
      ...importViolations(graph).map((violation) => violation.from),
      ...importCycles(graph).flatMap((cycle) => cycle.files),
    ]);
    expect(PENDING.filter((file) => !breaking.has(file))).toEqual([]);
  });

  it('keeps an old path in PENDING_OLD_PATHS only while a PENDING file imports it', () => {
    const importedByPending = new Set(PENDING.flatMap((file) => graph.get(file) ?? []));
    expect(PENDING_OLD_PATHS.filter((file) => !importedByPending.has(file))).toEqual([]);
  });
});

describe('the import checker', () => {
  it('reads static, type-only, re-exported, multi-line and dynamic imports', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '../b/index.js';",
      "export { c } from './c.js';",
      'import {',
      '  d,',
      "} from './d.js';",
      "const e = await import('./e.js');",
      "import 'node:fs';",
    ].join('\n');
    expect(importSpecifiers(source)).toEqual(['./a.js', '../b/index.js', './c.js', './d.js', './e.js', 'node:fs']);
  });

  it('finds an adapter importing another adapter’s internals, but not its index.ts', () => {
    const graph: ImportGraph = new Map([
      ['adapters/postgres/store.ts', ['adapters/memory/credential-store.ts', 'adapters/memory/index.ts', 'src/a.ts']],
      ['adapters/memory/index.ts', ['adapters/memory/credential-store.ts']],
      ['adapters/memory/credential-store.ts', []],
      ['src/a.ts', []],
    ]);
    expect(findings(graph)).toEqual([
      'adapter-internals: adapters/postgres/store.ts imports adapters/memory/credential-store.ts',
    ]);
  });

  it('finds src/ importing an adapter or an app, and an app importing adapter internals', () => {
    const graph: ImportGraph = new Map([
      ['src/engine.ts', ['adapters/memory/index.ts', 'bin/cli.ts', 'src/ports.ts']],
      ['src/ports.ts', []],
      ['bin/cli.ts', ['adapters/node/command-line.ts', 'adapters/node/index.ts', 'src/ports.ts']],
      ['adapters/memory/index.ts', []],
      ['adapters/node/index.ts', []],
      ['adapters/node/command-line.ts', []],
    ]);
    expect(findings(graph)).toEqual([
      'core-imports-outside: src/engine.ts imports adapters/memory/index.ts',
      'core-imports-outside: src/engine.ts imports bin/cli.ts',
      'app-internals: bin/cli.ts imports adapters/node/command-line.ts',
    ]);
  });

  it('finds an adapter importing an app, even by its index.ts', () => {
    const graph: ImportGraph = new Map([
      ['adapters/http/app.ts', ['adapters/sandbox-server/index.ts', 'bin/paystate.ts']],
      ['adapters/sandbox-server/index.ts', ['adapters/http/index.ts']],
      ['adapters/http/index.ts', []],
      ['bin/paystate.ts', ['adapters/sandbox-server/index.ts']],
    ]);
    expect(findings(graph)).toEqual([
      'adapter-imports-app: adapters/http/app.ts imports adapters/sandbox-server/index.ts',
      'adapter-imports-app: adapters/http/app.ts imports bin/paystate.ts',
    ]);
  });

  it('finds adapters/shared importing an adapter, even by its index.ts', () => {
    const graph: ImportGraph = new Map([
      ['adapters/shared/clock.ts', ['adapters/node/index.ts', 'adapters/shared/index.ts']],
      ['adapters/shared/index.ts', []],
      ['adapters/node/index.ts', []],
    ]);
    expect(findings(graph)).toEqual([
      'shared-imports-adapter: adapters/shared/clock.ts imports adapters/node/index.ts',
    ]);
  });

  it('reports each cycle once, with a loop through it, and tolerates one only when all its files are PENDING', () => {
    const graph: ImportGraph = new Map([
      ['adapters/http/a.ts', ['adapters/http/b.ts']],
      ['adapters/http/b.ts', ['adapters/http/c.ts', 'adapters/http/d.ts']],
      ['adapters/http/c.ts', ['adapters/http/a.ts']],
      ['adapters/http/d.ts', []],
      ['src/self.ts', ['src/self.ts']],
    ]);
    expect(findings(graph)).toEqual([
      'cycle of 3 files: adapters/http/a.ts -> adapters/http/b.ts -> adapters/http/c.ts -> adapters/http/a.ts',
      'cycle of 1 files: src/self.ts -> src/self.ts',
    ]);
    const all = new Set(['adapters/http/a.ts', 'adapters/http/b.ts', 'adapters/http/c.ts']);
    expect(findings(graph, all)).toEqual(['cycle of 1 files: src/self.ts -> src/self.ts']);
    expect(findings(graph, new Set(['adapters/http/a.ts']))).toHaveLength(2);
  });
});
