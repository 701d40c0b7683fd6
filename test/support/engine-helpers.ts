import { expect } from 'vitest';
import type { Payment, PaymentRecord } from '../../src/index.js';
import { compliantClient } from './engine-harness.js';
import type { EngineHarness } from './engine-harness.js';
import { directRequest, hostedRequest } from './requests.js';

export const PROFILE = 'profile_0001';
export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const VISA = '4242424242424242';
export const CHALLENGE_CARD = '4000000000003220';

/** A hosted payment, created by the compliant client and unwrapped. */
export async function createHosted(h: EngineHarness, profileId = PROFILE): Promise<Payment> {
  return (await h.engine.createPayment({ client: compliantClient, profileId, body: hostedRequest() }))._unsafeUnwrap();
}

/** A direct payment with this card number, created by the compliant client and unwrapped. */
export async function createDirect(h: EngineHarness, number: string): Promise<Payment> {
  return (
    await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body: directRequest(number) })
  )._unsafeUnwrap();
}

/** The stored record of a payment. */
export async function stored(h: EngineHarness, id: string): Promise<PaymentRecord> {
  return (await h.engine.getPaymentRecord(id))._unsafeUnwrap();
}

/** Delivers the outbox, then lists the types of the events delivered for this payment, in order. */
export async function eventTypes(h: EngineHarness, paymentId: string): Promise<string[]> {
  expect((await h.engine.deliverEvents()).isOk()).toBe(true);
  return h.events
    .events()
    .filter((event) => event.paymentId === paymentId)
    .map((event) => event.type);
}
