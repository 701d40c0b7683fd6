import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of the sources and the rules it must keep (docs/architecture.md, "Who imports
 * whom"). Imports are read with TypeScript's own pre-processor (`ts.preProcessFile`): a regex would
 * miss multi-line imports, `export … from` and `import()`, and a full program would type-check.
 */

/** Repository-relative paths with `/`: a file and the files of this repository it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** One import that breaks a layering rule. */
export interface ImportViolation {
  readonly from: string;
  readonly to: string;
  readonly rule:
    'core-imports-outside' | 'adapter-internals' | 'app-internals' | 'shared-imports-adapter' | 'adapter-imports-app';
}

/** The folders walked, relative to the repository root. */
export const SOURCE_FOLDERS = ['src', 'adapters', 'bin'] as const;

const posix = (path: string): string => path.split(sep).join('/');

/** Every `.ts` file (no `.d.ts`) under `folder`, repository-relative. */
function sourceFiles(root: string, folder: string): string[] {
  const start = join(root, folder);
  if (!existsSync(start)) return [];
  return readdirSync(start, { recursive: true, encoding: 'utf8' })
    .map((entry) => join(start, entry))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && statSync(path).isFile())
    .map((path) => posix(relative(root, path)))
    .sort();
}

/** The module specifiers a source text imports or re-exports, static, type-only and dynamic alike. */
export function importSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/** The repository file a relative specifier names (`./a.js` is `./a.ts`), or null for a library. */
function resolveSpecifier(root: string, from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = resolve(root, dirname(from), specifier);
  const candidates = [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts')];
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile()) ?? target;
  return posix(relative(root, found));
}

/** Reads the import graph of `SOURCE_FOLDERS` under `root`. */
export function readImportGraph(root: string): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of SOURCE_FOLDERS.flatMap((folder) => sourceFiles(root, folder))) {
    const specifiers = importSpecifiers(readFileSync(join(root, file), 'utf8'));
    const targets = specifiers.flatMap((specifier) => resolveSpecifier(root, file, specifier) ?? []);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The adapter folders that are applications: they put adapters together, and no adapter imports them. */
export const APP_ADAPTERS: ReadonlySet<string> = new Set(['sandbox-server']);

/** Whether `file` belongs to an application: `bin/`, or an adapter folder of `APP_ADAPTERS`. */
const isApp = (file: string): boolean => file.startsWith('bin/') || APP_ADAPTERS.has(adapterOf(file) ?? '');

/** `adapters/<name>/…` → `<name>`; anything else → null. */
export const adapterOf = (file: string): string | null => /^adapters\/([^/]+)\//.exec(file)?.[1] ?? null;

/** Whether `file` is an adapter folder's public entry, `adapters/<name>/index.ts`. */
const isAdapterEntry = (file: string): boolean => /^adapters\/[^/]+\/index\.ts$/.test(file);

/**
 * The imports that break the layering: `src/` imports only `src/` (and libraries); an adapter or an
 * app (`bin/`, `adapters/sandbox-server`) takes another adapter only through its `index.ts`;
 * no adapter imports an app; `adapters/shared` imports no other adapter.
 */
export function importViolations(graph: ImportGraph): ImportViolation[] {
  const found: ImportViolation[] = [];
  for (const [from, targets] of graph) {
    const own = adapterOf(from);
    for (const to of targets) {
      const target = adapterOf(to);
      if (from.startsWith('src/')) {
        if (!to.startsWith('src/')) found.push({ from, to, rule: 'core-imports-outside' });
      } else if (!isApp(from) && isApp(to)) {
        found.push({ from, to, rule: 'adapter-imports-app' });
      } else if (own === 'shared') {
        if (target !== null && target !== 'shared') found.push({ from, to, rule: 'shared-imports-adapter' });
      } else if (target !== null && target !== own && !isAdapterEntry(to)) {
        found.push({ from, to, rule: own === null ? 'app-internals' : 'adapter-internals' });
      }
    }
  }
  return found;
}

/** Files that import each other in a ring: all the files of one, and one loop through them. */
export interface ImportCycle {
  /** Every file of the strongly connected component, sorted. */
  readonly files: readonly string[];
  /** A shortest loop from the first of `files` back to it. */
  readonly path: readonly string[];
}

/** The import cycles: one per strongly connected component of more than one file, or a file that imports itself. */
export function importCycles(graph: ImportGraph): ImportCycle[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const edges = (file: string) => (graph.get(file) ?? []).filter((to) => graph.has(to));

  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const to of edges(file)) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges(file).includes(file)) components.push(component);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return components.map((component) => ({
    files: [...component].sort(),
    path: cyclePath(graph, new Set(component)),
  }));
}

/** A shortest path through a component from its first file (sorted) back to it. */
function cyclePath(graph: ImportGraph, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const to of graph.get(file) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const chain: string[] = [];
        for (let at: string | undefined = file; at !== undefined && at !== start; at = cameFrom.get(at)) {
          chain.unshift(at);
        }
        return [start, ...chain, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, file);
        queue.push(to);
      }
    }
  }
  return [...component];
}
