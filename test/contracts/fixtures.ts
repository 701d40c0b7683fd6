import { randomBytes } from 'node:crypto';
import type { DomainEvent, DomainEventType } from '../../src/domain/domain-event.js';
import type { Contact } from '../../src/domain/contact.js';
import type { Payment } from '../../src/domain/payment.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';

/** 2026-01-15T12:00:00.000Z, the instant fixtures are built around. */
export const T0 = Date.UTC(2026, 0, 15, 12);
export const MINUTE = 60_000;

/** Random per test worker, so ids stay unique even in a store shared between workers. */
const RUN = randomBytes(4).toString('hex');
let counter = 0;

/** A fresh 32-hex string. */
export function uniqueHex(): string {
  counter += 1;
  return `${RUN}${counter.toString(16).padStart(24, '0')}`;
}

/** `payment_` + 32 hex: a fresh id, or with `n` one whose order among such ids follows `n`. */
export function paymentId(n?: number): string {
  return `payment_${n === undefined ? uniqueHex() : n.toString(16).padStart(32, '0')}`;
}

/** `count` fresh payment ids in ascending order. */
export function orderedPaymentIds(count: number): string[] {
  counter += 1;
  const stem = `${RUN}${counter.toString(16).padStart(16, '0')}`;
  return Array.from({ length: count }, (_, index) => `payment_${stem}${index.toString(16).padStart(8, '0')}`);
}

/** A profile id of its own, so tests never see each other's payments. */
export function uniqueProfileId(): string {
  return `profile_${uniqueHex()}`;
}

export const billingContact: Contact = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+31201234567',
  address: {
    premise: '12A',
    thoroughfare: 'Keizersgracht',
    locality: 'Amsterdam',
    state: 'NH',
    postal_code: '1015 CJ',
    country: 'NL',
  },
};

/** Without the optional fields: absent keys must stay absent. */
export const shippingContact: Contact = {
  first_name: 'Charles',
  last_name: 'Babbage',
  email: 'charles@example.com',
  address: { thoroughfare: 'Dorset Street 1', locality: 'London', postal_code: 'W1U 6QT', country: 'GB' },
};

/**
 * A valid hosted-flow payment waiting for card data (version 1, expiring 60 minutes after
 * creation), with every nullable field null. `overrides` replace fields as given.
 */
export function makeRecord(overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  const createdAt = overrides.createdAt ?? T0;
  const id = overrides.id ?? paymentId();
  return {
    id,
    partnerId: 'partner_contract',
    profileId: 'profile_contract',
    flow: 'hosted',
    state: 'awaiting_card_data',
    version: 1,
    description: null,
    reference: null,
    method: 'creditcard',
    currency: 'EUR',
    amount: 1_000,
    billing: billingContact,
    shipping: shippingContact,
    redirectUrl: 'https://shop.example.com/return',
    browser: null,
    card: null,
    threeDS: null,
    nextRedirect: `https://pay.example.com/hosted/${id}`,
    hostedToken: 'hosted_token_0123456789abcdef',
    authorization: null,
    authorizationStatus: null,
    failureReason: null,
    createdAt,
    updatedAt: createdAt,
    expiresAt: createdAt + 60 * MINUTE,
    nextInquiryAt: null,
    inquiryAttempts: 0,
    notFoundAnswers: 0,
    writeId: null,
    captureMethod: 'automatic',
    captureReserved: 0,
    amountCaptured: 0,
    refundReserved: 0,
    amountRefunded: 0,
    captureClosedBy: null,
    authorizationExpiresAt: null,
    ...overrides,
  };
}

/** A direct-flow payment that went through 3DS and was approved: every nested object filled. */
export function makeSucceededRecord(overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return makeRecord({
    flow: 'direct',
    state: 'succeeded',
    description: 'Order 1234 — “crème brûlée” ✓',
    reference: 'ref-1234',
    amount: 999_999_999_999,
    currency: 'JPY',
    browser: {
      ip_address: '2001:db8::1',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
      accept: 'text/html,application/xhtml+xml',
      accept_encoding: 'gzip, deflate, br',
      accept_language: 'nl-NL,nl;q=0.9,en;q=0.8',
      language: 'nl-NL',
      screen_width: 1920,
      screen_height: 1080,
      java_enabled: false,
      javascript_enabled: true,
      color_depth: 24,
      timezone_offset: -60,
    },
    card: {
      scheme: 'visa',
      bin: '42424242',
      last4: '4242',
      expiration: '2030-12-01T00:00:00.000Z',
      holder_name: 'A. Lovelace',
    },
    threeDS: { transStatus: 'Y', eci: '05', liabilityShift: true, flow: 'challenge', transactionId: 'a1b2c3d4-3ds' },
    nextRedirect: null,
    hostedToken: null,
    authorization: {
      rrn: '601512345678',
      responseCode: '00',
      fees: { interchange: 0.2, assesment: 12 },
      card: { type: 'consumer', region: 'intra', issuingCountry: 'NL' },
    },
    authorizationStatus: null,
    expiresAt: null,
    nextInquiryAt: null,
    inquiryAttempts: 2,
    notFoundAnswers: 1,
    writeId: `wr_${uniqueHex()}`,
    updatedAt: T0 + 5 * MINUTE,
    version: 1,
    ...overrides,
  });
}

function publicPayment(record: PaymentRecord): Payment {
  const self = `/v1/partners/${record.partnerId}/profiles/${record.profileId}/payments/${record.id}`;
  return {
    id: record.id,
    method: 'creditcard',
    currency: record.currency,
    amount: record.amount,
    billing: record.billing,
    shipping: record.shipping,
    session: { redirect_url: record.redirectUrl },
    ...(record.nextRedirect === null ? {} : { next: { redirect: record.nextRedirect } }),
    state:
      record.state === 'succeeded' || record.state === 'failed' || record.state === 'expired'
        ? record.state
        : 'processing',
    created: new Date(record.createdAt).toISOString(),
    capture_method: record.captureMethod,
    amount_capturable: 0,
    amount_captured: record.amountCaptured,
    amount_refunded: record.amountRefunded,
    _links: {
      self: { href: self, type: 'application/json' },
      profile: { href: `/v1/partners/${record.partnerId}/profiles/${record.profileId}`, type: 'application/json' },
    },
  };
}

/** A domain event about `record`, with a fresh `evt_` id. */
export function makeEvent(record: PaymentRecord, type: DomainEventType = 'payment.created'): DomainEvent {
  return {
    id: `evt_${uniqueHex()}`,
    type,
    occurredAt: new Date(record.updatedAt).toISOString(),
    paymentId: record.id,
    partnerId: record.partnerId,
    profileId: record.profileId,
    payment: publicPayment(record),
  };
}

/** The next version of `record` with `changes` applied. */
export function nextVersion(record: PaymentRecord, changes: Partial<PaymentRecord> = {}): PaymentRecord {
  return { ...record, version: record.version + 1, updatedAt: record.updatedAt + 1, ...changes };
}
