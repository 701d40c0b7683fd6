import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, posix, relative } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followReadme, readmeEmbedding } from './readme-app.js';

/**
 * The package as users get it: packed once by `npm pack` from a copy of the project without
 * `dist/`, as a clean checkout is (so the `prepack` script must build it, and `build.test.ts`
 * rebuilding `dist/` meanwhile cannot disturb it), then linted by publint and arethetypeswrong,
 * and installed into a new project that imports every entry from ESM and CJS.
 */

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

interface Conditions {
  readonly import: { readonly types: string; readonly default: string };
  readonly require: { readonly types: string; readonly default: string };
  readonly default?: { readonly types: string; readonly default: string };
}
interface PackageJson {
  readonly name: string;
  readonly exports: Readonly<Record<string, string | Conditions>>;
  readonly typesVersions?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  readonly bin: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly peerDependencies: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta: Readonly<Record<string, { readonly optional?: boolean }>>;
  readonly dependencies: Readonly<Record<string, string>>;
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
const entries = Object.entries(pkg.exports).filter(
  (entry): entry is [string, Conditions] => typeof entry[1] === 'object',
);

/** An export of each entry that proves the module really loaded; and the peer dependencies it needs. */
const ENTRIES: Readonly<Record<string, { readonly name: string; readonly peers?: readonly string[] }>> = {
  '.': { name: 'createPaymentEngine' },
  './memory': { name: 'createMemoryPaymentRepository' },
  './sandbox': { name: 'createSandboxAcquirer' },
  './node': { name: 'createConsoleLogger' },
  './http': { name: 'createFetchHandler' },
  './express': { name: 'paystate', peers: ['express'] },
  './fastify': { name: 'paystateFrameworkErrors', peers: ['fastify'] },
  './sandbox-server': { name: 'startSandboxServer' },
  './postgres': { name: 'createPostgresPaymentRepository', peers: ['pg'] },
  './hosted-page': { name: 'createHostedPageHandler' },
  './webhooks': { name: 'createWebhookEventSink' },
  './otel': { name: 'createOpenTelemetry', peers: ['@opentelemetry/api'] },
};

/** Packages only some adapters need: a user of the core alone must not get them. */
const OPTIONAL_PACKAGES = ['express', 'fastify', 'pg', 'playwright-core', '@opentelemetry/api'];

/**
 * Packages a shipped example imports that paystate neither depends on nor takes as a peer, and
 * why: the framework the example shows paystate in.
 */
const EXAMPLE_ONLY_PACKAGES: Readonly<Record<string, string>> = {
  hono: 'examples/hono-app.ts mounts paystate in Hono',
  '@opentelemetry/context-async-hooks': 'examples/opentelemetry.ts registers the OpenTelemetry SDK',
  '@opentelemetry/sdk-metrics': 'examples/opentelemetry.ts registers the OpenTelemetry SDK',
  '@opentelemetry/sdk-trace-base': 'examples/opentelemetry.ts registers the OpenTelemetry SDK',
  pino: 'examples/pino-logs.ts wraps the host’s pino (paystate never imports it)',
  standardwebhooks: 'examples/standard-webhooks-receiver.ts verifies on the receiver’s side with it',
};

/**
 * The oldest neverthrow the peer range allows. The new project installs it before paystate, as
 * an app already on neverthrow does, so every test of the installed package runs against it.
 */
const NEVERTHROW_FLOOR = /^\^(\d+\.\d+\.\d+)$/.exec(pkg.peerDependencies['neverthrow'] ?? '')?.[1];

/**
 * The most the tarball may weigh, packed and unpacked, in bytes. On 2026-11-28 it was 1.17 MB and
 * 3.70 MB, then 4.88 MB unpacked with captures and refunds, the Hono layer, paystate/otel and the
 * webhook schemes; with the sources embedded in its source maps it was 1.80 MB and 5.85 MB.
 */
const MAX_PACKED_BYTES = 1_600_000;
const MAX_UNPACKED_BYTES = 5_300_000;

let work: string;
let copy: string;
let tarball: string;
let packed: string[];
let sizes: { readonly size: number; readonly unpackedSize: number };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'paystate-package-'));
  copy = join(work, 'paystate');
  const skipped = new Set(['node_modules', 'dist', '.git', '.tmp', 'coverage']);
  cpSync(root, copy, {
    recursive: true,
    filter: (source) => !skipped.has(basename(source)) && !source.endsWith('.tgz'),
  });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // `prepack` builds. npm runs it in the foreground for pack, onto stdout, ahead of the JSON:
  // in the background its output is kept back, and shown only if it fails.
  const { stdout } = await run('npm', ['pack', '--json', '--foreground-scripts=false', '--pack-destination', work], {
    cwd: copy,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [info] = JSON.parse(stdout) as {
    filename: string;
    files: { path: string }[];
    size: number;
    unpackedSize: number;
  }[];
  if (info === undefined) throw new Error('npm pack reported nothing');
  tarball = join(work, info.filename);
  packed = info.files.map((file) => file.path);
  sizes = { size: info.size, unpackedSize: info.unpackedSize };
}, 300_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** The packed files whose path matches, with their text (read from the copy that was packed). */
function packedTexts(pattern: RegExp): [path: string, text: string][] {
  return packed.filter((path) => pattern.test(path)).map((path) => [path, readFileSync(join(copy, path), 'utf8')]);
}

/** The package a bare specifier names: `pg`, `@types/pg`, `effect` for `effect/Schema`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** Every module specifier a declaration file imports or re-exports (its doc comments' examples aside). */
function importsOf(declarations: string): string[] {
  const code = declarations.replace(/\/\*\*[\s\S]*?\*\//g, '');
  const patterns = [/^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]/gm, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1] ?? ''));
}

describe('npm pack', () => {
  it('holds only what users need: the build, the docs and the examples they link, README, CHANGELOG, licence', () => {
    // Examples' folders may be Next.js dynamic segments (`examples/nextjs/app/api/[...paystate]/`).
    const allowed =
      /^(?:package\.json|README\.md|CHANGELOG\.md|LICEN[CS]E(?:\.md)?|dist\/[\w.-]+\.(?:js|cjs|d\.ts|d\.cts|js\.map|cjs\.map)|docs\/(?:[\w-]+\/)*[\w.-]+\.(?:md|png)|docs\/openapi\.json|examples\/(?:(?:[\w-]+|\[(?:\.\.\.)?[\w-]+\])\/)*[\w.-]+\.ts|examples\/sandbox-config\.json)$/;
    expect(packed.filter((path) => !allowed.test(path))).toEqual([]);
    expect(packed).toContain('README.md');
    expect(packed).toContain('examples/sandbox-config.json');
    expect(
      packed.filter((path) => path.startsWith('dist/cli.') && path !== 'dist/cli.js' && path !== 'dist/cli.js.map'),
    ).toEqual([]);
  });

  it(`weighs at most ${MAX_PACKED_BYTES / 1e6} MB packed and ${MAX_UNPACKED_BYTES / 1e6} MB unpacked`, () => {
    expect(sizes.size).toBeLessThanOrEqual(MAX_PACKED_BYTES);
    expect(sizes.unpackedSize).toBeLessThanOrEqual(MAX_UNPACKED_BYTES);
  });

  it('maps every built module to its sources by path, without embedding them', () => {
    // `node --enable-source-maps` names src/engine/outcome.ts:27 in a stack trace; the build itself
    // is not minified, so a debugger stepping through it reads it as it is.
    // The CLI's --version reads package.json, so its map names that file too.
    const SOURCE_PATH = /^\.\.\/(?:(?:src|adapters|bin)\/[\w/.-]+\.(?:ts|json)|package\.json)$/;
    const code = packed.filter((path) => /^dist\/.*\.c?js$/.test(path));
    expect(code.filter((path) => !packed.includes(`${path}.map`))).toEqual([]);
    const maps = packedTexts(/^dist\/.*\.map$/).map(
      ([path, text]) => [path, JSON.parse(text) as { sources: string[]; sourcesContent?: unknown }] as const,
    );
    expect(maps.some(([, map]) => map.sources.length > 0)).toBe(true);
    expect(maps.filter(([, map]) => map.sourcesContent !== undefined).map(([path]) => path)).toEqual([]);
    expect(
      maps.filter(([, map]) => !map.sources.every((source) => SOURCE_PATH.test(source))).map(([path]) => path),
    ).toEqual([]);
  });

  it('imports effect by module, never its barrel (which loads fast-check and some 600 modules)', () => {
    const found = packedTexts(/^dist\/.*\.c?js$/).flatMap(([path, code]) =>
      [...code.matchAll(/\b(?:from\s*|require\(\s*|import\(\s*)['"]effect['"]/g)].map(() => path),
    );
    expect(found).toEqual([]);
    expect(packedTexts(/^dist\/.*\.js$/).some(([, code]) => code.includes("from 'effect/Effect'"))).toBe(true);
  });

  it('builds dist/ before packing (prepack): a clean checkout has none', () => {
    expect(packed).toContain('dist/index.js');
  });

  it('holds every file the exports map and bin point at', () => {
    const targets = entries.flatMap(([, c]) => [
      c.import.types,
      c.import.default,
      c.require.types,
      c.require.default,
      ...(c.default === undefined ? [] : [c.default.types, c.default.default]),
    ]);
    const referenced = [...targets, ...Object.values(pkg.bin)].map((path) => path.replace(/^\.\//, ''));
    expect(referenced.filter((path) => !packed.includes(path))).toEqual([]);
  });

  it('gives every entry a default condition, for resolvers that set neither import nor require', () => {
    expect(entries.filter(([, conditions]) => conditions.default === undefined).map(([name]) => name)).toEqual([]);
  });

  it('resolves every relative link of the packed README and docs, and every example they name, inside the package', () => {
    const isPacked = (path: string) => packed.includes(path) || packed.some((other) => other.startsWith(`${path}/`));
    const broken: string[] = [];
    for (const [file, text] of packedTexts(/\.md$/)) {
      // Inline links and images, reference definitions, and HTML href/src attributes.
      const targets = [
        ...text.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g),
        ...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm),
        ...text.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/gi),
      ].map((match) => match[1] ?? '');
      for (const target of targets) {
        if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('//')) continue;
        const path = posix.normalize(posix.join(posix.dirname(file), decodeURI(target.split('#')[0] ?? '')));
        if (path.startsWith('../') || !isPacked(path.replace(/\/$/, ''))) broken.push(`${file} → ${target}`);
      }
      // A runnable example named in the text (`examples/express-app.ts`), link or not.
      for (const [path] of text.matchAll(/\bexamples\/[\w/-]+\.ts\b/g)) {
        if (!packed.includes(path)) broken.push(`${file} names ${path}`);
      }
    }
    expect([...new Set(broken)]).toEqual([]);
    expect(packed).toContain('docs/index.md');
    expect(packed).toContain('examples/express-app.ts');
  });

  it('ships examples that import only paystate, its dependencies and peers, and the framework they show', () => {
    const declared = { ...pkg.dependencies, ...pkg.peerDependencies };
    const found = packedTexts(/^examples\/.*\.ts$/).flatMap(([path, code]) =>
      [...code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]/gm)]
        .map((match) => match[1] ?? '')
        .filter((specifier) => {
          if (specifier.startsWith('node:')) return false;
          // Relative imports stay among the examples: none reaches into src/ or test/.
          if (specifier.startsWith('.'))
            return !posix.normalize(posix.join(posix.dirname(path), specifier)).startsWith('examples/');
          const name = packageOf(specifier);
          return name !== pkg.name && declared[name] === undefined && EXAMPLE_ONLY_PACKAGES[name] === undefined;
        })
        .map((specifier) => `${path}: ${specifier}`),
    );
    expect(found).toEqual([]);
  });

  it('keeps the node: prefix on the Node built-ins the build imports', () => {
    const bare = new Set(builtinModules.filter((name) => !name.startsWith('node:')));
    const found = packedTexts(/^dist\/.*\.c?js$/).flatMap(([path, code]) =>
      [...code.matchAll(/\b(?:from\s*|require\(\s*|import\(\s*)['"]([^'"]+)['"]/g)]
        .map((match) => match[1] ?? '')
        .filter((specifier) => bare.has(specifier.split('/')[0] ?? ''))
        .map((specifier) => `${path}: ${specifier}`),
    );
    expect(found).toEqual([]);
  });

  it('imports no default export of another package in its .d.ts files (node10 without esModuleInterop has none)', () => {
    const found = packedTexts(/\.d\.c?ts$/).flatMap(([path, declarations]) =>
      [
        ...declarations.matchAll(
          /^\s*import\s+(?:type\s+)?[\w$]+\s*(?:,\s*(?:\{[^}]*\}|\*\s*as\s+[\w$]+)\s*)?from\s+['"]([^'".][^'"]*)['"]/gm,
        ),
      ].map((match) => `${path}: ${match[0].trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('declares every package its .d.ts files import, and the @types package of each (optional peers stay optional)', () => {
    const declared = { ...pkg.dependencies, ...pkg.peerDependencies };
    const imported = new Set(
      packedTexts(/\.d\.c?ts$/)
        .flatMap(([, declarations]) => importsOf(declarations))
        .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
        .map(packageOf),
    );
    const missing: string[] = [];
    for (const name of imported) {
      if (declared[name] === undefined) missing.push(name);
      const types = `@types/${name.replace(/^@/, '').replace('/', '__')}`;
      if (pkg.devDependencies[types] === undefined) continue; // the package ships its own types
      if (declared[types] === undefined) missing.push(types);
      else if (pkg.peerDependenciesMeta[name]?.optional === true) {
        expect(pkg.peerDependenciesMeta[types]?.optional, `${types} optional like ${name}`).toBe(true);
      }
    }
    expect(missing).toEqual([]);
  });

  it('shares neverthrow, whose types are its API, with the app (a peer), and takes ranges of its other dependencies', () => {
    expect(pkg.dependencies['neverthrow']).toBeUndefined();
    expect(NEVERTHROW_FLOOR, `peerDependencies.neverthrow: ${pkg.peerDependencies['neverthrow']}`).toBeDefined();
    expect(pkg.devDependencies['neverthrow']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Object.entries(pkg.dependencies).filter(([, range]) => !/^\^\d+\.\d+\.\d+$/.test(range))).toEqual([]);
  });

  it('maps every subpath entry for TypeScript resolutions that ignore exports (typesVersions)', () => {
    const mapped = pkg.typesVersions?.['*'] ?? {};
    for (const [name, conditions] of entries) {
      if (name === '.') continue;
      expect(mapped[name.slice(2)], `typesVersions for ${name}`).toEqual([conditions.require.types]);
    }
  });

  it('keeps pg, express and fastify optional peers and playwright-core a dev dependency', () => {
    for (const name of ['pg', 'express', 'fastify']) {
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
    }
    expect(pkg.dependencies['playwright-core']).toBeUndefined();
    expect(pkg.peerDependencies['playwright-core']).toBeUndefined();
  });
});

describe('linters of the packed package', () => {
  it('publint (strict, suggestions included): nothing to report', async () => {
    const data = readFileSync(tarball);
    const { messages, pkg: linted } = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      level: 'suggestion',
      strict: true,
    });
    expect(messages.map((message) => `${message.type}: ${formatMessage(message, linted, { color: false })}`)).toEqual(
      [],
    );
  });

  it('arethetypeswrong: every entry resolves with types for node10, node16 (ESM and CJS) and bundlers', async () => {
    // Through a file: attw exits before a large report has drained through a pipe.
    const out = join(work, 'attw.json');
    await run('sh', ['-c', '"$0" "$1" --format json > "$2"', bin('attw'), tarball, out]).catch(() => undefined);
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      analysis: { entrypoints: Record<string, unknown> };
      problems: Record<string, unknown[]> | unknown[];
    };
    const problems = Array.isArray(report.problems) ? report.problems : Object.values(report.problems).flat();
    expect(problems).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(Object.keys(pkg.exports).sort());
  });
});

describe('installed from the tarball into a new project', () => {
  let project: string;
  const npmInstall = (args: readonly string[]) =>
    run('npm', ['install', ...args, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: project,
    });

  /** Loads each entry in a fresh node, from ESM (`import`) and CJS (`require`); resolves to what failed. */
  async function loadEach(names: readonly string[]): Promise<string[]> {
    const failures: string[] = [];
    for (const name of names) {
      const specifier = name === '.' ? pkg.name : `${pkg.name}/${name.slice(2)}`;
      const exportName = ENTRIES[name]?.name ?? '(missing from ENTRIES)';
      const check = `if (typeof m[${JSON.stringify(exportName)}] !== 'function') throw new Error('no ${exportName}');`;
      const esm = `const m = await import(${JSON.stringify(specifier)}); ${check}`;
      const cjs = `const m = require(${JSON.stringify(specifier)}); ${check}`;
      for (const [kind, args] of [
        ['ESM', ['--input-type=module', '-e', esm]],
        ['CJS', ['--input-type=commonjs', '-e', cjs]],
      ] as const) {
        await run(process.execPath, args, { cwd: project }).catch((error: { stderr?: string }) => {
          failures.push(`${kind} ${specifier}: ${(error.stderr ?? '').split('\n').slice(0, 6).join('\n')}`);
        });
      }
    }
    return failures;
  }

  beforeAll(async () => {
    project = join(work, 'consumer');
    mkdirSync(project);
    const dependencies = NEVERTHROW_FLOOR === undefined ? {} : { neverthrow: NEVERTHROW_FLOOR };
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, dependencies }),
    );
    await npmInstall([relative(project, tarball)]);
  }, 180_000);

  it("uses the app's neverthrow, the oldest the range allows, and nests no copy of its own", () => {
    const version = (path: string) =>
      (JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { version: string }).version;
    expect(NEVERTHROW_FLOOR, 'peerDependencies.neverthrow as ^x.y.z').toBeDefined();
    expect(version(join(project, 'node_modules', 'neverthrow'))).toBe(NEVERTHROW_FLOOR);
    expect(existsSync(join(project, 'node_modules', pkg.name, 'node_modules', 'neverthrow'))).toBe(false);
  });

  it('installs the core without pg, express or playwright-core', () => {
    expect(existsSync(join(project, 'node_modules', pkg.name, 'package.json'))).toBe(true);
    for (const name of OPTIONAL_PACKAGES) {
      expect(existsSync(join(project, 'node_modules', name)), `${name} installed`).toBe(false);
    }
  });

  it('documents every entry of the exports map here', () => {
    expect(Object.keys(ENTRIES).sort()).toEqual(entries.map(([name]) => name).sort());
  });

  it('imports each entry that needs no peer from ESM and CJS', async () => {
    const names = entries.map(([name]) => name).filter((name) => ENTRIES[name]?.peers === undefined);
    expect(await loadEach(names)).toEqual([]);
  });

  it("loads neither effect's barrel nor fast-check (CJS, whose require cache lists every module loaded)", async () => {
    const script = `require('${pkg.name}'); console.log(JSON.stringify(Object.keys(require.cache)))`;
    const { stdout } = await run(process.execPath, ['--input-type=commonjs', '-e', script], { cwd: project });
    const loaded = (JSON.parse(stdout) as string[]).map((path) => relative(project, path));
    expect(loaded.filter((path) => /^node_modules\/(?:fast-check|pure-rand)\//.test(path))).toEqual([]);
    expect(loaded).not.toContain(join('node_modules', 'effect', 'dist', 'cjs', 'index.js'));
    expect(loaded).toContain(join('node_modules', 'effect', 'dist', 'cjs', 'Effect.js'));
  });

  it('imports the adapter entries from ESM and CJS once their peers are installed', async () => {
    const names = entries.map(([name]) => name).filter((name) => ENTRIES[name]?.peers !== undefined);
    const peers = [...new Set(names.flatMap((name) => ENTRIES[name]?.peers ?? []))];
    await npmInstall(peers.map((peer) => `${peer}@${pkg.devDependencies[peer] ?? pkg.peerDependencies[peer]}`));
    expect(await loadEach(names)).toEqual([]);
  }, 180_000);

  it('builds the committed OpenAPI document from the packed code (CJS)', async () => {
    const script = `process.stdout.write(JSON.stringify(require('${pkg.name}/http').createOpenApiDocument(), null, 2) + '\\n')`;
    const { stdout } = await run(process.execPath, ['--input-type=commonjs', '-e', script], {
      cwd: project,
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stdout).toBe(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8'));
  });

  it('runs the bin: paystate --help, and --version', async () => {
    const { stdout } = await run(join(project, 'node_modules', '.bin', 'paystate'), ['--help'], { cwd: project });
    expect(stdout).toContain('Usage: paystate demo');
    const version = await run(join(project, 'node_modules', '.bin', 'paystate'), ['--version'], { cwd: project });
    expect(version.stdout).toBe(
      `${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}\n`,
    );
  });

  // Found by a new user: the README's snippet, in an app made by `npm init -y` (CommonJS), failed
  // to compile (TS1309, top-level await) and the README did not say what it needs.
  it('runs the README snippet in an app made as the README says: an ES module, type-checked and run by tsx', async () => {
    const { text, shell } = readmeEmbedding();
    expect(shell).toMatch(/^npm init -y && npm pkg set type=module\b/m);
    expect(shell).toMatch(/^npx tsx app\.ts\b/m);
    const app = await followReadme(join(project, 'readme-app'), ['npm pkg set type=module']);
    // As `npm init -y` makes it, the snippet does not compile: the error the README names.
    const refused = /error (TS1309: .*)/.exec(app.asMade)?.[1];
    expect(refused).toBeDefined();
    expect(text).toContain(refused?.replace(/\.$/, ''));
    expect(app.afterSetUp).toBe('');
    expect(app.output).toMatch(/^processing https:\/\/pay\.example\/pay\/payment_[0-9a-f]{32}\?token=[\w-]+\n$/);
  }, 120_000);
});
