import { describe, expect, it } from 'vitest';
import {
  createMemoryCardVault,
  createMemoryPaymentRepository,
  createSequentialIdGenerator,
  createTestClock,
} from '../../adapters/memory/index.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../../adapters/sandbox/index.js';
import type { Client, PaymentEngineConfig, PaymentEngineOptions } from '../../src/index.js';
import { clientMayActOn, createPaymentEngine } from '../../src/index.js';
import { checkProfile } from '../../adapters/http/tenancy.js';
import { compliantClient } from '../support/engine-harness.js';
import { hostedRequest } from '../support/requests.js';

// Found by a reviewing helper (the public API from plain JavaScript): bad options and missing
// ports were taken and made every command fail; a command given without its object threw
// instead of answering a Result; profileIds given as a string let any part of it pass.

function config(options: PaymentEngineOptions = {}): PaymentEngineConfig {
  const clock = createTestClock();
  return {
    repository: createMemoryPaymentRepository(),
    acquirer: createSandboxAcquirer(),
    threeDS: createSandboxThreeDSProvider({ challengeUrl: () => 'https://acs.test/', secret: 'test' }),
    cardVault: createMemoryCardVault(clock),
    clock,
    ids: createSequentialIdGenerator(1),
    options,
  };
}

/** A value as plain JavaScript may pass it, whatever the types say. */
const untyped = <T>(value: unknown): T => value as T;

describe('createPaymentEngine refuses what no command could work with', () => {
  it.each(['repository', 'acquirer', 'threeDS', 'cardVault', 'clock', 'ids'] as const)(
    'a missing %s port: TypeError naming it',
    (port) => {
      expect(() => createPaymentEngine({ ...config(), [port]: undefined })).toThrow(
        new TypeError(`createPaymentEngine needs a ${port} port (got undefined)`),
      );
    },
  );

  it.each([
    [{ timeouts: { acquirerMs: -5 } }, /timeouts\.acquirerMs/],
    [{ timeouts: { storageMs: 0 } }, /timeouts\.storageMs/],
    [{ timeouts: { threeDSMs: Number.NaN } }, /timeouts\.threeDSMs/],
    [{ timeouts: { eventSinkMs: untyped<number>('10') } }, /timeouts\.eventSinkMs/],
    [{ timeouts: { acquirerMs: 2 ** 31 } }, /timeouts\.acquirerMs/],
    [{ retries: -1 }, /retries needs a whole number/],
    [{ retries: 1.5 }, /retries needs a whole number/],
    [{ retries: untyped<number>('two') }, /retries needs a whole number of at least 0 \(got two\)/],
  ])('%o: RangeError', (options, message) => {
    expect(() => createPaymentEngine(config(options))).toThrow(RangeError);
    expect(() => createPaymentEngine(config(options))).toThrow(message);
  });

  it('a hostedPageUrl that is not a function: TypeError', () => {
    const options = { hostedPageUrl: untyped<NonNullable<PaymentEngineOptions['hostedPageUrl']>>('https://pay.test/') };
    expect(() => createPaymentEngine(config(options))).toThrow(TypeError);
  });

  it('takes the limits it allows', () => {
    expect(() =>
      createPaymentEngine(
        config({ retries: 0, timeouts: { acquirerMs: 1, threeDSMs: 5, storageMs: 1, eventSinkMs: 60_000 } }),
      ),
    ).not.toThrow();
  });
});

describe('a command given without its object (plain JavaScript)', () => {
  const engine = createPaymentEngine(config());

  it.each([
    ['createPayment', () => engine.createPayment(untyped(undefined))],
    ['submitCard', () => engine.submitCard(untyped(undefined))],
    ['completeChallenge', () => engine.completeChallenge(untyped(undefined))],
    ['getPayment', () => engine.getPayment(untyped(undefined))],
    ['listPayments', () => engine.listPayments(untyped(undefined))],
  ])('%s answers internal_error instead of throwing', async (_, call) => {
    let pending: ReturnType<typeof call> | undefined;
    expect(() => (pending = call())).not.toThrow();
    const answer = await pending;
    expect(answer?._unsafeUnwrapErr().code).toBe('internal_error');
  });
});

describe('profileIds that are not an array', () => {
  const stringly = untyped<Client>({ ...compliantClient, profileIds: 'profile_12' });

  it('allow no profile, not any part of the string', async () => {
    expect(clientMayActOn(stringly, 'profile_1')).toBe(false);
    expect(clientMayActOn(stringly, 'profile_12')).toBe(false);
    expect(checkProfile(stringly, 'profile_1').isErr()).toBe(true);
    const engine = createPaymentEngine(config());
    const created = await engine.createPayment({ client: stringly, profileId: 'profile_1', body: hostedRequest() });
    expect(created._unsafeUnwrapErr().code).toBe('forbidden_profile');
  });

  it('an array still allows exactly its members', () => {
    const client: Client = { ...compliantClient, profileIds: ['profile_12'] };
    expect(clientMayActOn(client, 'profile_12')).toBe(true);
    expect(clientMayActOn(client, 'profile_1')).toBe(false);
  });
});
