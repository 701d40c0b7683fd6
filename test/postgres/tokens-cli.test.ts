import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import {
  clientIdForTokenDigest,
  createPostgresCredentialStore,
  runTokensCli,
  type PostgresCredentialStore,
} from '../../adapters/postgres/index.js';
import { expectOk } from '../contracts/payment-repository.contract.js';
import { startCuttingProxy } from './support/cutting-proxy.js';
import { expectUrlHidden } from './support/hidden-url.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

const db = useMigratedDatabase();
const HOUR = 60 * 60 * 1000;
const FIRST = 'tok_cli_first_0123456789abcdef';
const CLIENT = clientIdForTokenDigest(createHash('sha256').update(FIRST).digest());

/** The id the store gave a token that works (random: `paystate tokens list` shows it). */
const idOf = async (store: PostgresCredentialStore, token: string): Promise<string> =>
  (await expectOk(store.authenticate(token)))?.tokenId ?? 'no such token';

/** The id of `FIRST` in the store `fresh()` made last. */
let firstId = '';

async function fresh() {
  await resetTables(db.pool);
  const store = createPostgresCredentialStore({ pool: db.pool });
  await expectOk(
    store.importConfig({
      partners: [{ id: 'partner_cli', profiles: [{ id: 'profile_cli', name: 'CLI Shop' }] }],
      clients: [{ token: FIRST, partner_id: 'partner_cli', profile_ids: ['profile_cli'], pci_dss_compliant: false }],
    }),
  );
  firstId = await idOf(store, FIRST);
  return store;
}

/** Runs `paystate tokens …` against the test database (by DATABASE_URL unless told). */
async function tokens(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runTokensCli(argv, {
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    env: { DATABASE_URL: db.connectionString },
  });
  return { code, out, err };
}

/** Rolls `FIRST` with `paystate tokens roll`, through the database at this URL. */
const rollFirstVia = (databaseUrl: string) =>
  tokens('roll', '--client', CLIENT, '--token-id', firstId, '--database-url', databaseUrl);

describe('paystate tokens', () => {
  it('rolls the only token of a client: prints the new one alone, the old one works for 24 h', async () => {
    const store = await fresh();
    const before = Date.now();
    const rolled = await tokens('roll', '--client', CLIENT);
    expect(rolled.code).toBe(0);
    expect(rolled.out).toHaveLength(1);
    const next = rolled.out[0]!;
    expect(next).toMatch(/^pst_[A-Za-z0-9_-]{43}$/);
    expect(rolled.err.join('\n')).toContain(`retiring ${firstId}: works until`);
    expect(rolled.err.join('\n')).not.toContain(next);
    expect((await expectOk(store.authenticate(next)))?.id).toBe(CLIENT);
    const nextId = await idOf(store, next);
    const listed = (await expectOk(store.listTokens(CLIENT)))!;
    expect(listed.map((token) => token.tokenId)).toEqual([firstId, nextId]);
    expect(listed[0]!.expiresAt).toBeGreaterThanOrEqual(before + 24 * HOUR);
    expect(listed[0]!.expiresAt).toBeLessThanOrEqual(Date.now() + 24 * HOUR);

    const list = await tokens('list', '--client', CLIENT);
    expect(list.code).toBe(0);
    expect(list.out).toEqual([
      expect.stringMatching(new RegExp(`^${firstId}  created \\S+Z  expires \\S+Z$`)),
      expect.stringMatching(new RegExp(`^${nextId}  created \\S+Z  expires never$`)),
    ]);
    expect(list.out.join('\n')).not.toContain(FIRST);
    expect(list.out.join('\n')).not.toContain(next);

    // Two tokens now: a roll must name one.
    expect((await tokens('roll', '--client', CLIENT)).code).toBe(2);
  });

  it('rolls a named token with --overlap 0 (revoked at once), adds one that expires, and revokes one', async () => {
    const store = await fresh();
    const rolled = await tokens('roll', '--client', CLIENT, '--token-id', firstId, '--overlap', '0');
    expect(rolled.code).toBe(0);
    expect(rolled.err.join('\n')).toContain(`revoked ${firstId}`);
    expect(await expectOk(store.authenticate(FIRST))).toBeNull();

    const added = await tokens('add', '--client', CLIENT, '--expires-in', '1h');
    expect(added.code).toBe(0);
    const extra = added.out[0]!;
    const extraId = await idOf(store, extra);
    const expiring = (await expectOk(store.listTokens(CLIENT)))!.find((token) => token.tokenId === extraId);
    expect(expiring?.expiresAt).toBeGreaterThan(Date.now() + HOUR - 60_000);
    expect(expiring?.expiresAt).toBeLessThanOrEqual(Date.now() + HOUR);
    // Judged by the clock: an hour on, it works for no one (and, seen expired there, is retired for
    // good: a probe of its own, so `extra` is left to revoke below).
    const probe = (await tokens('add', '--client', CLIENT, '--expires-in', '1h')).out[0]!;
    const later = createPostgresCredentialStore({ pool: db.pool, clock: createTestClock(Date.now() + HOUR) });
    expect(await expectOk(later.authenticate(probe))).toBeNull();
    expect(await expectOk(store.authenticate(probe))).toBeNull();
    expect((await expectOk(later.authenticate(rolled.out[0]!)))?.id).toBe(CLIENT);

    const revoked = await tokens('revoke', '--client', CLIENT, '--token-id', extraId);
    expect(revoked).toMatchObject({ code: 0, out: [`revoked ${extraId}`] });
    expect(await expectOk(store.authenticate(extra))).toBeNull();
    expect((await tokens('revoke', '--client', CLIENT, '--token-id', extraId)).code).toBe(1);
  });

  it('exits 1 for what the store refuses and 2 for usage errors, never printing a token or the password', async () => {
    await fresh();
    const unknown = await tokens('list', '--client', 'client_nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.err.join('\n')).toContain('unknown_client');
    const unknownToken = await tokens('roll', '--client', CLIENT, '--token-id', FIRST);
    expect(unknownToken.code).toBe(1);
    expect(unknownToken.err.join('\n')).toContain('unknown_token');
    expect(unknownToken.err.join('\n')).not.toContain(FIRST);

    for (const argv of [
      [],
      ['rotate', '--client', CLIENT],
      ['list'],
      ['list', '--client', CLIENT, FIRST],
      ['roll', '--client', CLIENT, '--overlap', '24 hours'],
      ['roll', '--client', CLIENT, '--overlap', '-1h'],
      ['add', '--client', CLIENT, '--expires-in', '0'],
      ['revoke', '--client', CLIENT],
      ['list', '--client', CLIENT, '--token', FIRST],
    ]) {
      const usage = await tokens(...argv);
      expect(usage.code, argv.join(' ')).toBe(2);
      expect([...usage.out, ...usage.err].join('\n')).not.toContain(FIRST);
    }
    const noDatabase = await runTokensCli(['list', '--client', CLIENT], {
      stdout: () => undefined,
      stderr: () => undefined,
      env: {},
    });
    expect(noDatabase).toBe(2);
    const err: string[] = [];
    const unreachable = await runTokensCli(
      ['list', '--client', CLIENT, '--database-url', 'postgres://nobody:hunter2@127.0.0.1:1/x'],
      { stdout: (line) => err.push(line), stderr: (line) => err.push(line), env: {} },
    );
    expect(unreachable).toBe(1);
    expect(err.join('\n')).toContain('unavailable');
    expect(err.join('\n')).not.toContain('hunter2');
    expect((await tokens('--help')).code).toBe(0);
  });

  // Found by a reviewing helper: an option of another subcommand was ignored (`add --overlap 1h`
  // added a token that never expires, `revoke --overlap 1h` revoked one at once), and an option
  // given twice kept its last value (`revoke --token-id a --token-id b` revoked b alone).
  it('refuses an option of another subcommand, or one given twice, instead of ignoring it', async () => {
    const store = await fresh();
    const extra = await idOf(store, (await tokens('add', '--client', CLIENT)).out[0]!);
    const before = await expectOk(store.listTokens(CLIENT));
    for (const argv of [
      ['add', '--client', CLIENT, '--overlap', '1h'],
      ['roll', '--client', CLIENT, '--token-id', firstId, '--expires-in', '1h'],
      ['revoke', '--client', CLIENT, '--token-id', firstId, '--overlap', '1h'],
      ['list', '--client', CLIENT, '--token-id', firstId],
      ['revoke', '--client', CLIENT, '--token-id', firstId, '--token-id', extra],
      ['revoke', '--client', CLIENT, '--token-id', ''],
    ]) {
      const refused = await tokens(...argv);
      expect({ argv, code: refused.code, out: refused.out }).toEqual({ argv, code: 2, out: [] });
    }
    expect(await expectOk(store.listTokens(CLIENT))).toEqual(before);
  });

  it('a roll or an add whose answer was lost but which was stored: the new token is printed all the same', async () => {
    const store = await fresh();
    const proxy = await startCuttingProxy(db.connectionString);
    try {
      // The server commits the roll, and the connection is cut before the answer comes back.
      proxy.loseAnswers('COMMIT');
      const rolled = await rollFirstVia(proxy.connectionString);
      expect(proxy.lost).toBe(1);
      expect(rolled.code).toBe(0);
      expect(rolled.out).toHaveLength(1);
      const next = rolled.out[0]!;
      expect((await expectOk(store.authenticate(next)))?.id).toBe(CLIENT);
      expect(rolled.err.join('\n')).toContain(`retiring ${firstId}: works until`);
      expect(rolled.err.join('\n')).not.toContain(next);

      proxy.loseAnswers('COMMIT');
      const added = await tokens('add', '--client', CLIENT, '--database-url', proxy.connectionString);
      expect(proxy.lost).toBe(2);
      expect(added.code).toBe(0);
      expect(added.out).toHaveLength(1);
      expect((await expectOk(store.authenticate(added.out[0]!)))?.id).toBe(CLIENT);
    } finally {
      await proxy.close();
    }
  });

  it('a roll whose answer and check were both lost: no token printed, and how to find and revoke it', async () => {
    const store = await fresh();
    const proxy = await startCuttingProxy(db.connectionString);
    try {
      // Stored, its answer lost, and the check whether it was stored loses its answer too.
      proxy.loseAnswers('COMMIT');
      proxy.loseAnswers('paystate_client_by_token');
      const rolled = await rollFirstVia(proxy.connectionString);
      expect(proxy.lost).toBe(2);
      expect(rolled.code).toBe(1);
      expect(rolled.out).toEqual([]);
      const unknown = (await expectOk(store.listTokens(CLIENT)))!.find((token) => token.tokenId !== firstId);
      expect(unknown).toBeDefined();
      const said = rolled.err.join('\n');
      expect(said).toContain('unavailable');
      // Its id is the database's: the token is named by when it was made, which `list` shows.
      const window =
        /shows a token created from (\S+Z) to (\S+Z), nobody has that token: revoke it \(--token-id <its id>\)/.exec(
          said,
        );
      expect(Date.parse(window![1]!)).toBeLessThanOrEqual(unknown!.createdAt);
      expect(Date.parse(window![2]!)).toBeGreaterThanOrEqual(unknown!.createdAt);
      expect(said).not.toContain(unknown!.tokenId);
      expect(said).not.toMatch(/pst_/);
    } finally {
      await proxy.close();
    }
  });

  it('a roll that got no connection: certainly not stored, said plainly', async () => {
    await fresh();
    const err: string[] = [];
    const out: string[] = [];
    const code = await runTokensCli(
      ['roll', '--client', CLIENT, '--token-id', firstId, '--database-url', 'postgres://u:p@127.0.0.1:1/x'],
      { stdout: (line) => out.push(line), stderr: (line) => err.push(line), env: {} },
    );
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err.join('\n')).toContain('unavailable');
    expect(err.join('\n')).not.toContain('may have been stored');
  });

  // The URL (password included) given as an argument is shown by ps to every user of the machine.
  it('reads the URL from --database-url-file, without DATABASE_URL, and never prints the file', async () => {
    await fresh();
    const file = join(await mkdtemp(join(tmpdir(), 'paystate-tokens-')), 'database-url');
    await writeFile(file, `${db.connectionString}\n`, { mode: 0o600 });
    const out: string[] = [];
    const err: string[] = [];
    const code = await runTokensCli(['list', '--client', CLIENT, '--database-url-file', file], {
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
      env: {},
    });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out).toEqual([expect.stringMatching(new RegExp(`^${firstId}  created `))]);
    expectUrlHidden(out.join('\n'), db.connectionString);
  });

  // Found by a security review: the id was the first 16 hex digits of the token's SHA-256, which
  // named the token to anyone reading the request log.
  it('names tokens by their random ids: list shows them, --token-id takes them, the SHA-256 prefix names none', async () => {
    const store = await fresh();
    expect(createHash('sha256').update(FIRST).digest('hex')).not.toContain(firstId);
    const list = await tokens('list', '--client', CLIENT);
    expect(list.out).toEqual([expect.stringMatching(new RegExp(`^${firstId}  created `))]);
    const digestPrefix = createHash('sha256').update(FIRST).digest('hex').slice(0, 16);
    const refused = await tokens('revoke', '--client', CLIENT, '--token-id', digestPrefix);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain('unknown_token');
    const rolled = await tokens('roll', '--client', CLIENT, '--token-id', firstId, '--overlap', '0');
    expect(rolled.code).toBe(0);
    expect(rolled.err.join('\n')).toContain(`revoked ${firstId}`);
    expect(rolled.err.join('\n')).toContain(`added ${await idOf(store, rolled.out[0]!)}  created `);
  });
});
