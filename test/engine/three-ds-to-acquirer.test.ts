import { describe, expect, it } from 'vitest';
import { createPaymentEngine } from '../../src/index.js';
import type { Acquirer, AuthorizationRequest } from '../../src/ports/acquirer.js';
import type { AuthenticationResult, ThreeDSProvider } from '../../src/ports/three-ds-provider.js';
import { challengeAnswerFor, CHALLENGE_SECRET, compliantClient, makeEngineHarness } from '../support/engine-harness.js';
import { directRequest } from '../support/requests.js';
import { PROFILE } from '../support/engine-helpers.js';
import { moneyOperationsOf } from '../support/money-operations.js';

/*
 * decisions.md section 9: the authorization carries the 3DS result (transStatus, ECI, the
 * authentication value, the DS transaction id, the protocol version); the authentication value is
 * passed through only: never stored, logged or evented. An approval's network transaction id is
 * kept on the internal record.
 */

const CAVV = /^[A-Za-z0-9+/]{27}=$/;

/** The harness's engine with its acquirer and 3DS provider recorded, and `rewrite` applied to 3DS answers. */
function recordingEngine(rewrite: (result: AuthenticationResult) => AuthenticationResult = (result) => result) {
  const h = makeEngineHarness();
  const requests: AuthorizationRequest[] = [];
  const values: string[] = [];
  const acquirer: Acquirer = {
    authorize: (request) => {
      requests.push(request);
      return h.acquirer.authorize(request);
    },
    inquire: (request) => h.acquirer.inquire(request),
    ...moneyOperationsOf(h.acquirer),
  };
  const remember = (value: unknown) => {
    const text = (value as { authenticationValue?: unknown }).authenticationValue;
    if (typeof text === 'string') values.push(text);
  };
  const threeDS: ThreeDSProvider = {
    authenticate: async (request) => {
      const answer = (await h.threeDS.authenticate(request)).map(rewrite);
      if (answer.isOk()) remember(answer.value);
      return answer;
    },
    resolveChallenge: async (request) => {
      const answer = await h.threeDS.resolveChallenge(request);
      if (answer.isOk()) remember(answer.value);
      return answer;
    },
  };
  const engine = createPaymentEngine({
    repository: h.repository,
    acquirer,
    threeDS,
    cardVault: h.cardVault,
    clock: h.clock,
    ids: h.ids,
    events: h.events,
    logger: {
      debug: (fields, message) => h.logs.push({ level: 'debug', fields, message }),
      info: (fields, message) => h.logs.push({ level: 'info', fields, message }),
      warn: (fields, message) => h.logs.push({ level: 'warn', fields, message }),
      error: (fields, message) => h.logs.push({ level: 'error', fields, message }),
    },
    options: { retries: 0 },
  });
  const create = async (number: string) =>
    (
      await engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(number) })
    )._unsafeUnwrap();
  /** Everything kept or told of the payment: the record, the public payment, its events and every log line. */
  const traces = async (id: string) => {
    await engine.deliverEvents();
    return JSON.stringify([
      (await engine.getPaymentRecord(id))._unsafeUnwrap(),
      h.events.events(),
      h.logs,
      h.acquirer.authorizations(),
    ]);
  };
  return { h, engine, requests, values, create, traces };
}

describe('what the acquirer receives of 3-D Secure', () => {
  it('frictionless: the authentication value, DS transaction id and version go to authorize, and nowhere else', async () => {
    const r = recordingEngine();
    const payment = await r.create('4000000000003055');
    expect(payment.state).toBe('succeeded');
    const [request] = r.requests;
    expect(request?.threeDS).toMatchObject({ flow: 'frictionless', transStatus: 'Y', eci: '05' });
    expect(request?.authentication).toEqual({
      authenticationValue: expect.stringMatching(CAVV),
      dsTransactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      protocolVersion: '2.2.0',
    });
    expect(r.values).toEqual([request?.authentication?.authenticationValue]);
    expect(await r.traces(payment.id)).not.toContain(r.values[0]);
  });

  it('challenge: the values of the challenge result go to authorize, the DS transaction id of the lookup', async () => {
    const r = recordingEngine();
    const payment = await r.create('4000000000003220');
    expect(payment.state).toBe('processing');
    const answer = await challengeAnswerFor(r.engine, CHALLENGE_SECRET)(payment.id, 'authorise');
    const completed = (await r.engine.completeChallenge(answer))._unsafeUnwrap();
    expect(completed.state).toBe('succeeded');
    const [request] = r.requests;
    const challenge = (await r.h.threeDS.challenge(payment.id, answer.transactionId))._unsafeUnwrap();
    expect(request?.threeDS).toMatchObject({ flow: 'challenge', transStatus: 'Y', eci: '05' });
    expect(request?.authentication).toEqual({
      authenticationValue: r.values[0],
      dsTransactionId: challenge?.dsTransactionId,
      protocolVersion: '2.2.0',
    });
    expect(r.values[0]).toMatch(CAVV);
    expect(await r.traces(payment.id)).not.toContain(r.values[0]);
  });

  it('no 3DS: no authentication data; 3DS unavailable: the DS transaction id without a value', async () => {
    const r = recordingEngine();
    await r.create('4242424242424242');
    await r.create('4000000000003311');
    expect(r.requests[0]?.authentication).toBeNull();
    expect(r.requests[1]?.authentication).toEqual({
      authenticationValue: null,
      dsTransactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      protocolVersion: '2.2.0',
    });
  });

  it('keeps the network transaction id of the approval on the internal record only', async () => {
    const r = recordingEngine();
    const payment = await r.create('4242424242424242');
    const record = (await r.engine.getPaymentRecord(payment.id))._unsafeUnwrap();
    const networkTransactionId = record.authorization?.networkTransactionId;
    expect(networkTransactionId).toMatch(/^\d{15}$/);
    await r.engine.deliverEvents();
    expect(JSON.stringify([payment, r.h.events.events()])).not.toContain(networkTransactionId);
  });

  it('a malformed authentication value is a failed authentication, logged by field without its value', async () => {
    const broken = 'not-a-cavv-4111';
    const r = recordingEngine((result) =>
      result.kind === 'authenticated' ? { ...result, authenticationValue: broken } : result,
    );
    const payment = await r.create('4000000000003055');
    expect(payment).toMatchObject({ state: 'failed', failure_reason: 'processing_error' });
    expect(r.requests).toEqual([]);
    const logged = r.h.logs.find((line) => line.fields['field'] === 'authenticationValue');
    expect(logged?.level).toBe('error');
    expect(JSON.stringify(r.h.logs)).not.toContain(broken);
  });
});
