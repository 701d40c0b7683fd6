import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli-process.js';
import { sandboxSecretsFile } from '../support/sandbox-secrets-file.js';

/**
 * How `pg` fails to load in the processes these tests start, through a module resolution hook
 * (registered after tsx's, so it runs first):
 * - `missing`: `pg` is resolved from a folder where it is not installed (Node's own error);
 * - `broken`: `pg` is a module that throws as it loads, naming a URL with a password;
 * - `dependency`: `pg` is a module that imports a package that is not installed.
 */
type PgFailure = 'missing' | 'broken' | 'dependency';

const URL_WITH_PASSWORD = 'postgres://nobody:hunter2@127.0.0.1:1/x';
let hooks: Record<PgFailure, string>;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'paystate-pg-load-'));
  await mkdir(join(dir, 'nowhere'));
  await writeFile(
    join(dir, 'pg-broken.mjs'),
    "throw new Error('pg failed to initialise: could not reach postgres://admin:hunter2@db.internal/app');\nexport default {};\n",
  );
  await writeFile(join(dir, 'pg-dependency.mjs'), "import 'pg-pool-that-is-not-installed';\nexport default {};\n");
  const entries = (['missing', 'broken', 'dependency'] as const).map(async (failure) => {
    const target =
      failure === 'missing'
        ? `return next('pg', { ...context, parentURL: ${JSON.stringify(pathToFileURL(join(dir, 'nowhere', 'x.mjs')).href)} });`
        : `return { url: ${JSON.stringify(pathToFileURL(join(dir, `pg-${failure}.mjs`)).href)}, shortCircuit: true };`;
    await writeFile(
      join(dir, `hooks-${failure}.mjs`),
      `export async function resolve(specifier, context, next) {\n  if (specifier !== 'pg') return next(specifier, context);\n  ${target}\n}\n`,
    );
    const register = join(dir, `register-${failure}.mjs`);
    await writeFile(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, `hooks-${failure}.mjs`)).href)});\n`,
    );
    return [failure, pathToFileURL(register).href] as const;
  });
  hooks = Object.fromEntries(await Promise.all(entries)) as Record<PgFailure, string>;
});

const COMMANDS = [
  [
    '--database-url',
    ['demo', '--port', '0', '--database-url', URL_WITH_PASSWORD, '--secrets-file', sandboxSecretsFile()],
  ],
  ['paystate migrate', ['migrate', '--database-url', URL_WITH_PASSWORD]],
  ['paystate tokens', ['tokens', 'list', '--client', 'client_x', '--database-url', URL_WITH_PASSWORD]],
] as const;

/** Runs every command with `pg` failing to load this way: each one's exit code and stderr. */
async function runAll(failure: PgFailure) {
  return Promise.all(
    COMMANDS.map(async ([who, args]) => {
      const run = startCli(args, { nodeArgs: ['--import', hooks[failure]] });
      return { who, code: await run.exited, stdout: run.stdout(), stderr: run.stderr() };
    }),
  );
}

describe('paystate commands that need pg', () => {
  it('say they need the `pg` package when pg itself is not installed', async () => {
    for (const { who, code, stdout, stderr } of await runAll('missing')) {
      expect({ who, code, stdout, stderr }).toEqual({
        who,
        code: 1,
        stdout: '',
        stderr: `paystate: ${who} needs the \`pg\` package: npm install pg\n`,
      });
    }
  });

  // Found in review: every failure to load pg (a broken install, a missing dependency of pg) was
  // reported as pg not being installed, which sent the operator to `npm install pg` for nothing.
  it('name the real error, without a password, when pg is there but fails to load', async () => {
    for (const { who, code, stdout, stderr } of await runAll('broken')) {
      expect({ who, code, stdout }).toEqual({ who, code: 1, stdout: '' });
      expect(stderr).toBe(
        `paystate: ${who}: could not load the Postgres adapters: pg failed to initialise: could not reach postgres://[redacted]@db.internal/app\n`,
      );
    }
    for (const { who, code, stderr } of await runAll('dependency')) {
      expect({ who, code }).toEqual({ who, code: 1 });
      expect(stderr).toMatch(
        new RegExp(
          `^paystate: ${who}: could not load the Postgres adapters: Cannot find package 'pg-pool-that-is-not-installed'`,
        ),
      );
      expect(stderr).not.toContain('npm install pg');
      expect(stderr).not.toContain('hunter2');
    }
  });
});
