import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../adapters/shared/closest-name.js';
import { parseCommandLine, usageLine } from '../../adapters/shared/command-line.js';

const DEMO = {
  port: { type: 'string' },
  host: { type: 'string' },
  'public-url': { type: 'string' },
  'database-url': { type: 'string' },
  'database-url-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const refusal = (argv: readonly string[]) => parseCommandLine(argv, DEMO, false)._unsafeUnwrapErr();

describe('closestName', () => {
  it('counts a swap of two neighbouring letters as one edit', () => {
    expect(editDistance('prot', 'port')).toBe(1);
    expect(editDistance('databse-url', 'database-url')).toBe(1);
    expect(editDistance('', 'port')).toBe(4);
    expect(editDistance('port', 'port')).toBe(0);
  });

  it('names the known word a typo is nearest to, and nothing when none is near or two are as near', () => {
    expect(closestName('prot', ['port', 'host'])).toBe('port');
    expect(closestName('hots', ['port', 'host'])).toBe('host');
    expect(closestName('database-ur', ['database-url', 'database-url-file'])).toBe('database-url');
    expect(closestName('bogus', ['port', 'host'])).toBeUndefined();
    expect(closestName('pot', ['port', 'post'])).toBeUndefined();
  });
});

// Found by a new user: `paystate demo --prot 3000` printed Node's parseArgs message, with
// mismatched quotes, and 34 lines of usage.
describe('parseCommandLine refusals', () => {
  it('names an unknown option, the known one it likely misspells, and nothing after its =', () => {
    expect(refusal(['--prot', '3000'])).toBe('unknown option --prot: did you mean --port?');
    expect(refusal(['--databse-url=postgres://u:hunter2@h/d'])).toBe(
      'unknown option --databse-url: did you mean --database-url?',
    );
    expect(refusal(['--bogus'])).toBe('unknown option --bogus');
    // A short option: the one long option that starts with its letter, if there is one.
    expect(refusal(['-H', 'x'])).toBe('unknown option -H');
    expect(refusal(['-d', 'x'])).toBe('unknown option -d');
    expect(parseCommandLine(['-c', 'f'], { config: { type: 'string' } }, false)._unsafeUnwrapErr()).toBe(
      'unknown option -c: did you mean --config?',
    );
  });

  it('says an option lacks its value, or a flag was given one, in its own words', () => {
    expect(refusal(['--port'])).toBe('--port needs a value: --port <value>');
    expect(refusal(['--port', '--host', 'x'])).toBe(
      '--port needs a value (one that starts with - goes as --port=<value>)',
    );
    expect(refusal(['--help=yes'])).toBe('--help takes no value');
  });

  it('never repeats the password of a URL run into an option name', () => {
    expect(refusal(['--database-url:postgres://u:hunter2@h/d'])).not.toContain('hunter2');
  });

  it('makes one line that says where the usage is', () => {
    expect(usageLine('paystate demo', refusal(['--prot', '3000']))).toBe(
      'unknown option --prot: did you mean --port? (paystate demo --help shows the usage)',
    );
    expect(usageLine('paystate migrate', 'Give --database-url or --database-url-file, not both.')).toBe(
      'Give --database-url or --database-url-file, not both (paystate migrate --help shows the usage)',
    );
  });
});
