import { err } from 'neverthrow';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../../adapters/http/index.js';
import type { PaymentRepository } from '../../src/index.js';
import { createDocumentValidator, type DocumentValidator } from '../openapi/support/document-validator.js';
import { hostedRequest } from '../support/requests.js';
import {
  engineOver,
  makeApi,
  serve,
  SERVER_KINDS,
  TOKENS,
  type ApiHarness,
  type RunningServer,
} from './support/api-harness.js';
import { get, post, type Answer } from './support/client.js';
import { expectProblem } from './support/expect-problem.js';

// Found by a reviewer: a create whose write outcome is unknown, sent without an Idempotency-Key,
// answered the generic "retry later" 503 with Retry-After though the payment may exist, so the
// client's retry created a second payment.

const MAIN = 'profile_alpha_main';
const PAYMENTS = '/v1/profiles/{profile_id}/payments';
const lost = { code: 'unavailable', message: 'Connection terminated', retryable: true } as const;

let validator: DocumentValidator;
beforeAll(async () => {
  validator = await createDocumentValidator(createOpenApiDocument());
});

describe.each(SERVER_KINDS)('a create whose outcome is unknown (payment_may_exist), served by %s', (kind) => {
  let api: ApiHarness;
  let server: RunningServer;
  let payments: string;
  /** While set, an insert lands and then answers a lost connection, and the confirming read fails. */
  let loseAnswers = false;

  async function start() {
    api = makeApi();
    const inner = api.repository;
    let failedLoads = 0;
    const repository: PaymentRepository = {
      ...inner,
      insert: async (record, events) => {
        const written = await inner.insert(record, events);
        if (written.isErr() || !loseAnswers) return written;
        failedLoads = 1;
        return err(lost);
      },
      update: (record, events) => inner.update(record, events),
      load: (id) => {
        if (failedLoads === 0) return inner.load(id);
        failedLoads -= 1;
        return err(lost);
      },
    };
    const engine = engineOver(api, repository, {
      retries: 0,
      hostedPageUrl: ({ id, token }) => `https://pay.test/${id}?token=${token}`,
    });
    server = await serve(kind, { ...api, handlerOptions: { ...api.handlerOptions, engine } });
    payments = `${server.base}/v1/profiles/${MAIN}/payments`;
  }
  afterEach(async () => {
    loseAnswers = false;
    await server.close();
    expect(api.unhandled()).toEqual([]);
  });

  const conforms = (answer: Answer) => expect(validator.check(PAYMENTS, 'post', answer)).toEqual([]);

  it('without an Idempotency-Key: 503 that says the payment may exist and to look it up, no Retry-After', async () => {
    await start();
    loseAnswers = true;
    const answer = await post(payments, TOKENS.alphaCompliant, hostedRequest());
    expectProblem(answer, 503, 'unavailable');
    expect(answer.json.payment_may_exist).toBe(true);
    expect(answer.headers['retry-after']).toBeUndefined();
    expect(answer.json.detail).toMatch(/may have been created/);
    expect(answer.json.detail).toMatch(/Look it up in the list/);
    expect(answer.json.detail).toMatch(/Idempotency-Key/);
    conforms(answer);
    // It was created indeed: the list the answer points at shows it.
    loseAnswers = false;
    expect(api.repository.size()).toBe(1);
    const list = await get(payments, TOKENS.alphaCompliant);
    expect(list.json.items).toHaveLength(1);
  });

  it('with an Idempotency-Key: 503 with payment_may_exist and Retry-After (a retry with the key is safe)', async () => {
    await start();
    loseAnswers = true;
    const answer = await post(payments, TOKENS.alphaCompliant, hostedRequest(), { 'idempotency-key': 'k-lost' });
    expectProblem(answer, 503, 'unavailable');
    expect(answer.json.payment_may_exist).toBe(true);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.json.detail).toMatch(/may have been created.*same Idempotency-Key/);
    conforms(answer);
  });

  it('storage down with nothing stored: the plain 503 with Retry-After, without payment_may_exist', async () => {
    await start();
    api.repository.injectFailure('insert');
    const answer = await post(payments, TOKENS.alphaCompliant, hostedRequest());
    expectProblem(answer, 503, 'unavailable');
    expect(answer.json.payment_may_exist).toBeUndefined();
    expect(answer.headers['retry-after']).toBe('1');
    expect(api.repository.size()).toBe(0);
    conforms(answer);
  });
});
