import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresAdapters, type PostgresAdapters } from '../../adapters/postgres/index.js';
import {
  BUNDLED_SANDBOX_CONFIG,
  createSandboxApp,
  processSandboxSecrets,
} from '../../adapters/sandbox-server/index.js';
import {
  createHostedOn,
  linkOf,
  openPageOn,
  postCardOn,
  tokenLikeStrings,
  tokensThatOpen,
} from '../support/page-links.js';
import { dumpDatabase } from './support/database-dump.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

/*
 * A dump of the database of two sandbox instances that share `page_link_secret`: the payments,
 * the outbox and the stored idempotency answers hold no string that opens a hosted page, while
 * the links the API answered open it on either instance.
 */

const db = useMigratedDatabase();
const ORIGIN = 'http://pay.sandbox.test';
const opened: PostgresAdapters[] = [];

afterAll(async () => {
  for (const adapters of opened) await adapters.close();
});

describe('hosted page links on Postgres', () => {
  it('a dump of payments, outbox and idempotency keys holds no token that opens a page', async () => {
    await resetTables(db.pool);
    const secrets = processSandboxSecrets(undefined);
    const [a, b] = await Promise.all(
      [1, 2].map(async () => {
        const adapters = await createPostgresAdapters({ pool: db.pool, migrate: false });
        opened.push(adapters);
        const { repository, idempotency, credentials } = adapters;
        return createSandboxApp({ storage: { repository, idempotency, credentials }, secrets, baseUrl: () => ORIGIN });
      }),
    );
    if (a === undefined || b === undefined) throw new Error('two instances');
    (await a.credentials.importConfig(BUNDLED_SANDBOX_CONFIG))._unsafeUnwrap();

    const open = await createHostedOn(a.handler, ORIGIN, 'dump-open');
    const toPay = await createHostedOn(a.handler, ORIGIN, 'dump-paid');
    expect([open.status, toPay.status]).toEqual([201, 201]);
    const page = await openPageOn(b.handler, linkOf(toPay.text));
    expect((await postCardOn(b.handler, linkOf(toPay.text), page)).status).toBe(303);
    expect(await createHostedOn(b.handler, ORIGIN, 'dump-open')).toEqual({ ...open, replayed: 'true' });
    expect((await b.engine.deliverEvents())._unsafeUnwrap()).toBe(3);

    const dump = await dumpDatabase(db.connectionString);
    const ids = [open, toPay].map((created) => String(JSON.parse(created.text).id));
    // What is looked at is there: both payments, their events and the stored answers.
    for (const id of ids) expect(dump.text).toContain(id);
    for (const text of ['payment.created', 'payment.succeeded', 'dump-open']) {
      expect(dump.text, `${text} (${dump.how})`).toContain(text);
    }
    expect(dump.text).not.toContain(secrets.pageLink);
    const candidates = tokenLikeStrings(dump.text);
    expect(candidates.length).toBeGreaterThan(10);
    for (const [index, id] of ids.entries()) {
      expect(await tokensThatOpen(a.handler, ORIGIN, id, candidates), `${id} (${dump.how})`).toEqual([]);
      const link = linkOf([open, toPay][index]?.text ?? '{}');
      expect(dump.text).not.toContain(new URL(link).searchParams.get('token'));
      // The link the API answered opens it, on either instance.
      for (const app of [a, b]) expect((await openPageOn(app.handler, link)).status).toBe(200);
    }
    // The stored create answers hold a placeholder where the link was.
    expect(dump.text).toContain('paystate:hosted-page-link');
  });
});
