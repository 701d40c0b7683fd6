import { err, type Result } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler, STORE_TIMEOUT_MS as DEFAULT_STORE_TIMEOUT_MS } from '../../adapters/http/index.js';
import type { CredentialStore, IdempotencyBegin, IdempotencyStore, IdempotencyStoreError } from '../../src/index.js';
import { hostedRequest } from '../support/requests.js';
import {
  makeApi,
  OPTION_ENTRY_POINTS,
  serve,
  SERVER_KINDS,
  TOKENS,
  type ApiHarness,
  type RunningServer,
} from './support/api-harness.js';
import { get, post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

// Found by a reviewer: a credential store or an idempotency store that stalls (a SIGSTOPped
// Postgres, a network black hole) instead of refusing connections held API requests without limit.

const MAIN = 'profile_alpha_main';
const STORE_TIMEOUT_MS = 50;
/** The longest a request may take here: far above the deadline, far below "hangs". */
const PROMPTLY_MS = 3000;
const STALE = 5 * 60 * 1000;

/** A promise that never settles: a store that stalls. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** A promise settled after `ms` with what `settle` gives (or rejected when it throws). */
const later = <T>(ms: number, settle: () => T): Promise<Awaited<T>> =>
  new Promise((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(settle() as Awaited<T>);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    }, ms),
  );

type Mode = 'answer' | 'stall' | 'late' | 'late-reject';

/** A store call that answers, stalls, answers after the deadline or rejects after it, as `mode` says. */
function stalling<T>(mode: () => Mode, answer: () => T): T | Promise<Awaited<T>> {
  switch (mode()) {
    case 'answer':
      return answer();
    case 'stall':
      return never();
    case 'late':
      return later(STORE_TIMEOUT_MS * 3, answer);
    case 'late-reject':
      return later(STORE_TIMEOUT_MS * 3, () => {
        throw new Error('the store broke after the deadline');
      });
  }
}

const waitFor = async (condition: () => boolean): Promise<void> => {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5000) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe.each(SERVER_KINDS)('store calls have a deadline (storeTimeoutMs), served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  let payments: string;
  const modes = {
    authenticate: 'answer' as Mode,
    findProfile: 'answer' as Mode,
    begin: 'answer' as Mode,
    complete: 'answer' as Mode,
    release: 'answer' as Mode,
  };
  const begins: IdempotencyBegin[] = [];

  async function start() {
    for (const name of Object.keys(modes) as (keyof typeof modes)[]) modes[name] = 'answer';
    begins.length = 0;
    api = makeApi();
    const credentials: CredentialStore = {
      authenticate: (token) =>
        stalling(
          () => modes.authenticate,
          () => api.credentials.authenticate(token),
        ),
      findProfile: (id) =>
        stalling(
          () => modes.findProfile,
          () => api.credentials.findProfile(id),
        ),
    };
    const idempotency: IdempotencyStore = {
      begin: (request) =>
        stalling(
          () => modes.begin,
          () => {
            // The in-memory store answers at once.
            const begun = api.idempotency.begin(request) as Result<IdempotencyBegin, IdempotencyStoreError>;
            if (begun.isOk()) begins.push(begun.value);
            return begun;
          },
        ),
      complete: (request) =>
        stalling(
          () => modes.complete,
          () => api.idempotency.complete(request),
        ),
      release: (request) =>
        stalling(
          () => modes.release,
          () => api.idempotency.release(request),
        ),
      purgeExpired: (now) => api.idempotency.purgeExpired(now),
    };
    server = await serve(kind, {
      ...api,
      handlerOptions: { ...api.handlerOptions, credentials, idempotency, storeTimeoutMs: STORE_TIMEOUT_MS },
    });
    payments = `${server.base}/v1/profiles/${MAIN}/payments`;
  }
  afterEach(async () => {
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  /** The answer and how long it took. */
  async function timed(send: () => Promise<Answer>): Promise<{ answer: Answer; ms: number }> {
    const started = performance.now();
    const answer = await send();
    return { answer, ms: performance.now() - started };
  }

  const expectUnavailable = ({ answer, ms }: { answer: Answer; ms: number }) => {
    expectProblem(answer, 503, 'unavailable');
    expect(answer.headers['retry-after']).toBe('1');
    expect(ms).toBeGreaterThanOrEqual(STORE_TIMEOUT_MS - 10);
    expect(ms).toBeLessThan(PROMPTLY_MS);
  };

  const send = (key?: string) =>
    post(payments, TOKENS.alphaCompliant, hostedRequest(), key === undefined ? {} : { 'idempotency-key': key });

  it('a credential store that never answers authenticate: 503 with Retry-After, and no other port is called', async () => {
    await start();
    modes.authenticate = 'stall';
    expectUnavailable(await timed(() => send('k-auth')));
    expectUnavailable(await timed(() => get(payments, TOKENS.alphaCompliant)));
    expect(api.calls.beyondCredentials()).toBe(0);
    expect(api.repository.size()).toBe(0);
    expect(api.idempotency.size()).toBe(0);
  });

  it('a credential store that never answers findProfile: GET profile is 503 with Retry-After', async () => {
    await start();
    modes.findProfile = 'stall';
    const profile = `${server.base}/v1/partners/partner_alpha/profiles/${MAIN}`;
    expectUnavailable(await timed(() => get(profile, TOKENS.alphaCompliant)));
    modes.findProfile = 'answer';
    expect((await get(profile, TOKENS.alphaCompliant)).status).toBe(200);
  });

  it('an idempotency store whose begin never answers: 503, no payment created, nothing stored', async () => {
    await start();
    modes.begin = 'stall';
    expectUnavailable(await timed(() => send('k-begin')));
    expect(api.repository.size()).toBe(0);
    expect(api.idempotency.size()).toBe(0);
    expect(api.calls.counts.get('repository.insert')).toBeUndefined();
  });

  it('a begin that answers after its deadline: 503 and no payment; the key it started is released, so a retry runs at once', async () => {
    await start();
    modes.begin = 'late';
    expectUnavailable(await timed(() => send('k-late')));
    await waitFor(() => begins.length === 1);
    expect(begins[0]).toMatchObject({ kind: 'started', takeover: false });
    await waitFor(() => api.idempotency.size() === 0);
    expect(api.repository.size()).toBe(0);
    modes.begin = 'answer';
    const retried = await send('k-late');
    expect(retried.status).toBe(201);
    expect(api.repository.size()).toBe(1);
  });

  it('a begin that rejects after its deadline: 503, logged, never an unhandled rejection', async () => {
    await start();
    modes.begin = 'late-reject';
    expectUnavailable(await timed(() => send('k-late-reject')));
    await waitFor(() => api.logs.some((line) => line.fields['afterDeadline'] === true));
    expect(api.repository.size()).toBe(0);
  });

  it('a complete that never answers after the payment was created: the 201 with that payment, never a 503', async () => {
    await start();
    modes.complete = 'stall';
    const { answer, ms } = await timed(() => send('k-complete'));
    expect(answer.status).toBe(201);
    expect(ms).toBeLessThan(PROMPTLY_MS);
    expect(api.repository.size()).toBe(1);
    // The key stays in progress; once stale, a retry takes it over and answers that payment.
    modes.complete = 'answer';
    expectProblem(await send('k-complete'), 409, 'idempotency_in_progress');
    api.clock.advance(STALE);
    const retried = await send('k-complete');
    expect(retried.status).toBe(201);
    expect(retried.json.id).toBe(answer.json.id);
    expect(api.repository.size()).toBe(1);
  });

  it('a release that never answers: the request answers its own refusal, in time', async () => {
    await start();
    modes.release = 'stall';
    api.repository.injectFailure('insert');
    expectUnavailable(await timed(() => send('k-release')));
    const invalid = await timed(() =>
      post(payments, TOKENS.alphaCompliant, hostedRequest({ amount: -1 }), { 'idempotency-key': 'k-release-2' }),
    );
    expectProblem(invalid.answer, 400, 'validation_failed');
    expect(invalid.ms).toBeLessThan(PROMPTLY_MS);
    expect(api.repository.size()).toBe(0);
  });

  it('a complete that answers late and one that rejects late change nothing and throw nothing', async () => {
    await start();
    modes.complete = 'late';
    expect((await send('k-complete-late')).status).toBe(201);
    modes.complete = 'late-reject';
    expect((await send('k-complete-late-reject')).status).toBe(201);
    await waitFor(() => api.logs.some((line) => line.fields['afterDeadline'] === true));
    expect(api.repository.size()).toBe(2);
  });
});

describe('storeTimeoutMs', () => {
  const entryPoints = OPTION_ENTRY_POINTS;

  it.each(entryPoints)(
    '%s: a whole number of milliseconds of at least 1, or a RangeError that names it',
    (_name, create) => {
      expect(DEFAULT_STORE_TIMEOUT_MS).toBe(5000);
      const { handlerOptions } = makeApi();
      for (const bad of [0, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
        expect(() => create({ ...handlerOptions, storeTimeoutMs: bad }), String(bad)).toThrow(
          new RangeError(`storeTimeoutMs needs a whole number of milliseconds of at least 1 (got ${String(bad)})`),
        );
      }
      for (const good of [1, 5000, Number.MAX_SAFE_INTEGER]) {
        expect(() => create({ ...handlerOptions, storeTimeoutMs: good })).not.toThrow();
      }
    },
  );

  it('a deadline beyond what a timer holds waits (it does not fire at once)', async () => {
    const api = makeApi();
    let answered = false;
    const credentials: CredentialStore = {
      authenticate: (token) =>
        later(STORE_TIMEOUT_MS, () => {
          answered = true;
          return api.credentials.authenticate(token);
        }),
      findProfile: (id) => api.credentials.findProfile(id),
    };
    const handler = createFetchHandler({ ...api.handlerOptions, credentials, storeTimeoutMs: Number.MAX_SAFE_INTEGER });
    const answer = await handler(
      new Request(`http://x/v1/profiles/${MAIN}/payments`, {
        headers: { authorization: `Bearer ${TOKENS.alphaCompliant}`, accept: 'application/json' },
      }),
    );
    expect(answered).toBe(true);
    expect(answer.status).toBe(200);
  });

  it('a credential store that fails at once is still 503 (unchanged)', async () => {
    const api = makeApi();
    const credentials: CredentialStore = {
      authenticate: () => err({ code: 'unavailable', message: 'down', retryable: true }),
      findProfile: () => err({ code: 'unavailable', message: 'down', retryable: true }),
    };
    const handler = createFetchHandler({ ...api.handlerOptions, credentials });
    const answer = await handler(
      new Request(`http://x/v1/profiles/${MAIN}/payments`, {
        headers: { authorization: `Bearer ${TOKENS.alphaCompliant}`, accept: 'application/json' },
      }),
    );
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
  });
});
