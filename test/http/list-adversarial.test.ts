import { err } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentRecord, PaymentRepository } from '../../src/index.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { engineOver, makeApi, serve, TOKENS, type ApiHarness, type RunningServer } from './support/api-harness.js';
import { get, post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

/*
 * Attacks on `after` of GET /v1/profiles/{profile_id}/payments (src/engine/query-payments.ts),
 * over a real socket: a cursor is taken only when it is a payment of the list, whatever state that
 * payment is in; one of another profile the same client may act on is refused as an unknown one
 * is, byte for byte; and a store that cannot load the cursor is a 503 to retry, never a 400 that
 * would tell the client its cursor is wrong, nor a 500.
 */

const MAIN = 'profile_alpha_main';
const SECOND = 'profile_alpha_second';
const HOUR = 60 * 60 * 1_000;
const NOT_OF_THIS_LIST = 'Must be a payment of this list, as next_cursor gives it';

type Failure = 'none' | 'load fails' | 'load hangs' | 'list fails';

describe('the cursor of the payment list, attacked', () => {
  let api: ApiHarness;
  let server: RunningServer;
  let failure: Failure = 'none';
  /** MAIN's payments, oldest first: succeeded, failed (3DS rejected), then expired. */
  const mine: string[] = [];
  let secondProfile: string;

  const list = (query: string, token: string = TOKENS.alphaCompliant, profile = MAIN): Promise<Answer> =>
    get(`${server.base}/v1/profiles/${profile}/payments?${query}`, token);
  const ids = (answer: Answer): string[] => (answer.json.items as Array<{ id: string }>).map((item) => item.id);

  const lost = { code: 'unavailable', message: 'connection lost', retryable: true } as const;

  beforeAll(async () => {
    api = makeApi();
    const memory = api.repository;
    const repository: PaymentRepository = {
      ...memory,
      insert: (record, events) => memory.insert(record, events),
      update: (record, events) => memory.update(record, events),
      findDue: (query) => memory.findDue(query),
      load: (id) => {
        if (failure === 'load fails') return err(lost);
        if (failure === 'load hangs') return new Promise<never>(() => {});
        return memory.load(id);
      },
      list: (query) => (failure === 'list fails' ? err(lost) : memory.list(query)),
    };
    const engine = engineOver(api, repository, {
      retries: 0,
      timeouts: { storageMs: 200 },
      hostedPageUrl: ({ id, token }) => `https://pay.test/${id}?token=${token}`,
    });
    server = await serve('node:http', { ...api, handlerOptions: { ...api.handlerOptions, engine } });
    const create = async (profile: string, body: Record<string, unknown>): Promise<string> => {
      const created = await post(`${server.base}/v1/profiles/${profile}/payments`, TOKENS.alphaCompliant, body);
      expect(created.status).toBe(201);
      api.clock.advance(1);
      return created.json.id as string;
    };
    mine.push(await create(MAIN, directRequest('4242424242424242')));
    mine.push(await create(MAIN, directRequest('4000000000003287')));
    mine.push(await create(MAIN, hostedRequest()));
    secondProfile = await create(SECOND, hostedRequest());
    api.clock.advance(48 * HOUR);
    expect((await engine.sweep()).isOk()).toBe(true);
    const states = await Promise.all(
      mine.map(async (id) => ((await engine.getPaymentRecord(id))._unsafeUnwrap() as PaymentRecord).state),
    );
    expect(states).toEqual(['succeeded', 'failed', 'expired']);
  });
  afterAll(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  it('takes a failed or an expired payment of the list as a cursor', async () => {
    const afterExpired = await list(`after=${mine[2] as string}`);
    expect({ status: afterExpired.status, ids: ids(afterExpired) }).toEqual({ status: 200, ids: [mine[1], mine[0]] });
    const afterFailed = await list(`after=${mine[1] as string}&limit=1`);
    expect({ status: afterFailed.status, ids: ids(afterFailed) }).toEqual({ status: 200, ids: [mine[0]] });
    // Nothing is older than the oldest: the last page, without a cursor.
    expect(afterFailed.json.next_cursor).toBeUndefined();
  });

  it('refuses a payment of another profile the same client may act on, as it refuses one that does not exist', async () => {
    const unknown = await list(`after=payment_${'e'.repeat(32)}`);
    expectProblem(unknown, 400, 'validation_failed');
    expect(unknown.json.errors).toEqual([{ path: 'after', message: NOT_OF_THIS_LIST }]);
    // Both ways round: MAIN's cursor on SECOND's list, SECOND's on MAIN's; by a client holding both.
    for (const [profile, cursor] of [
      [MAIN, secondProfile],
      [SECOND, mine[0] as string],
    ] as const) {
      const answer = await list(`after=${cursor}&limit=5`, TOKENS.alphaCompliant, profile);
      expect({ status: answer.status, text: answer.text }).toEqual({ status: 400, text: unknown.text });
      expect(answer.text).not.toContain(cursor);
    }
  });

  it('takes a cursor given twice, or with the same id in upper case, as no cursor of the list', async () => {
    const twice = await list(`after=${mine[2] as string}&after=${mine[1] as string}`);
    expectProblem(twice, 400, 'validation_failed');
    expect(twice.json.errors.map((issue: { path: string }) => issue.path)).toEqual(['after']);
    const upper = await list(`after=${(mine[2] as string).toUpperCase()}`);
    expectProblem(upper, 400, 'validation_failed');
  });

  it.each<Failure>(['load fails', 'load hangs', 'list fails'])(
    'answers 503 unavailable, not 400 nor 500, when the store cannot answer (%s)',
    async (how) => {
      failure = how;
      try {
        // A cursor that is not of the list is only known to be so once it is loaded.
        const cursors =
          how === 'list fails' ? [mine[0] as string] : [mine[0] as string, secondProfile, `payment_${'e'.repeat(32)}`];
        for (const cursor of cursors) {
          const answer = await list(`after=${cursor}`);
          expectProblem(answer, 503, 'unavailable');
          expect(answer.text).not.toContain(cursor);
          expect(answer.text).not.toContain('connection lost');
        }
      } finally {
        failure = 'none';
      }
      const again = await list(`after=${mine[2] as string}`);
      expect({ status: again.status, ids: ids(again) }).toEqual({ status: 200, ids: [mine[1], mine[0]] });
    },
  );
});
