import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as users get it: built and packed once (in a copy of the project, so that
 * `build.test.ts` rebuilding `dist/` meanwhile cannot disturb it), then linted by publint and
 * arethetypeswrong, and installed into a new project that imports every entry from ESM and CJS.
 */

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

interface Conditions {
  readonly import: { readonly types: string; readonly default: string };
  readonly require: { readonly types: string; readonly default: string };
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
  './sandbox-server': { name: 'startSandboxServer' },
  './postgres': { name: 'createPostgresPaymentRepository', peers: ['pg'] },
  './hosted-page': { name: 'createHostedPageHandler' },
};

/** Packages only some adapters need: a user of the core alone must not get them. */
const OPTIONAL_PACKAGES = ['express', 'pg', 'playwright-core'];

let work: string;
let tarball: string;
let packed: string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'paystate-package-'));
  const copy = join(work, 'paystate');
  const skipped = new Set(['node_modules', 'dist', '.git', '.tmp', 'coverage']);
  cpSync(root, copy, {
    recursive: true,
    filter: (source) => !skipped.has(basename(source)) && !source.endsWith('.tgz'),
  });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  await run(bin('tsup'), [], { cwd: copy, maxBuffer: 64 * 1024 * 1024 });
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: copy });
  const [info] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  if (info === undefined) throw new Error('npm pack reported nothing');
  tarball = join(work, info.filename);
  packed = info.files.map((file) => file.path);
}, 300_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('holds only what users need: the build, README, CHANGELOG, licence', () => {
    const allowed =
      /^(?:package\.json|README\.md|CHANGELOG\.md|LICEN[CS]E(?:\.md)?|dist\/[\w.-]+\.(?:js|cjs|d\.ts|d\.cts|js\.map|cjs\.map))$/;
    expect(packed.filter((path) => !allowed.test(path))).toEqual([]);
    expect(packed).toContain('README.md');
    expect(
      packed.filter((path) => path.startsWith('dist/cli.') && path !== 'dist/cli.js' && path !== 'dist/cli.js.map'),
    ).toEqual([]);
  });

  it('holds every file the exports map and bin point at', () => {
    const targets = entries.flatMap(([, c]) => [c.import.types, c.import.default, c.require.types, c.require.default]);
    const referenced = [...targets, ...Object.values(pkg.bin)].map((path) => path.replace(/^\.\//, ''));
    expect(referenced.filter((path) => !packed.includes(path))).toEqual([]);
  });

  it('maps every subpath entry for TypeScript resolutions that ignore exports (typesVersions)', () => {
    const mapped = pkg.typesVersions?.['*'] ?? {};
    for (const [name, conditions] of entries) {
      if (name === '.') continue;
      expect(mapped[name.slice(2)], `typesVersions for ${name}`).toEqual([conditions.require.types]);
    }
  });

  it('keeps pg and express optional peers and playwright-core a dev dependency', () => {
    for (const name of ['pg', 'express']) {
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
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    await npmInstall([relative(project, tarball)]);
  }, 180_000);

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

  it('runs the bin: paystate --help', async () => {
    const { stdout } = await run(join(project, 'node_modules', '.bin', 'paystate'), ['--help'], { cwd: project });
    expect(stdout).toContain('Usage: paystate demo');
  });
});
