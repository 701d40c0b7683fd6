import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startCli } from '../support/cli-process.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Runs `paystate …` to its end: exit code, stdout, stderr. */
async function paystate(args: readonly string[]) {
  const run = startCli(args);
  const code = await run.exited;
  return { args, code, stdout: run.stdout(), stderr: run.stderr() };
}

// Found by a new user: `paystate demo --prot 3000` printed Node's parseArgs message, with
// mismatched quotes, and 34 lines of usage; and there was no --version.
describe('paystate usage errors, as a user sees them', () => {
  it('a typo: one line naming the option, the one meant and where the usage is, exit status 2', async () => {
    const runs = await Promise.all(
      [
        ['demo', '--prot', '3000'],
        ['migrate', '--databse-url', 'postgres://u:hunter2@127.0.0.1:1/x'],
        ['tokens', 'list', '--clinet', 'client_x'],
        ['demo', '--port'],
        ['dmeo'],
      ].map(paystate),
    );
    expect(runs.map(({ args, code, stdout, stderr }) => ({ args, code, stdout, stderr }))).toEqual(
      runs.map(({ args }) => ({ args, code: 2, stdout: '', stderr: expect.stringMatching(/^[^\n]+\n$/) })),
    );
    expect(runs.map((run) => run.stderr.trimEnd())).toEqual([
      'paystate: unknown option --prot: did you mean --port? (paystate demo --help shows the usage)',
      'unknown option --databse-url: did you mean --database-url? (paystate migrate --help shows the usage)',
      'unknown option --clinet: did you mean --client? (paystate tokens --help shows the usage)',
      'paystate: --port needs a value: --port <value> (paystate demo --help shows the usage)',
      'paystate: unknown command dmeo: did you mean demo? (paystate --help shows the usage)',
    ]);
  });

  it('--version and -v print the version of the package, and --help names it', async () => {
    const runs = await Promise.all([['--version'], ['-v'], ['--help']].map(paystate));
    expect(runs.slice(0, 2)).toEqual([
      { args: ['--version'], code: 0, stdout: `${VERSION}\n`, stderr: '' },
      { args: ['-v'], code: 0, stdout: `${VERSION}\n`, stderr: '' },
    ]);
    expect(runs[2]?.stdout).toContain('paystate --version');
  });
});
