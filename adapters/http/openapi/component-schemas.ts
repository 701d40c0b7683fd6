import { z } from 'zod';
import { addressSchema } from '../../../src/schemas/address.js';
import { browserDataSchema } from '../../../src/schemas/browser-data.js';
import { contactSchema } from '../../../src/schemas/contact.js';
import { createPaymentRequestSchema, sessionSchema } from '../../../src/schemas/create-payment-request.js';
import { creditCardRequestSchema } from '../../../src/schemas/credit-card.js';
import { paymentListSchema, paymentSchema, publicCreditCardSchema } from '../../../src/schemas/payment-response.js';
import { validationIssueSchema } from '../../../src/schemas/validation-issues.js';
import { captureRequestSchema, refundRequestSchema } from '../../../src/schemas/operation-requests.js';
import {
  captureListResourceSchema,
  captureResourceSchema,
  paymentListResourceSchema,
  problemDocumentSchema,
  profileResourceSchema,
  refundListResourceSchema,
  refundResourceSchema,
} from './http-schemas.js';
import { registrySchemas, type SchemaMeta, type SchemaRegistry, type SchemaSide } from './json-schema.js';
import type { JsonSchema } from './openapi-types.js';
import { webhookEventSchema } from './webhook-schemas.js';

/** A named schema of the document: which zod schema, read as request (input) or answer (output), or both. */
interface ComponentDefinition {
  readonly id: string;
  readonly schema: z.ZodType;
  readonly sides: readonly SchemaSide[];
  readonly description: string;
}

const COMPONENTS: readonly ComponentDefinition[] = [
  {
    id: 'CreatePaymentRequest',
    schema: createPaymentRequestSchema,
    sides: ['input'],
    description:
      'Creates a payment. Without `creditcard` it is the hosted flow: the answer carries `next.redirect`, the hosted payment page. With `creditcard` and `user` it is the direct flow, for clients registered as PCI DSS compliant only: the two come together or not at all (`dependentRequired`). A card whose expiry month is before the current month is refused.',
  },
  { id: 'Contact', schema: contactSchema, sides: ['input', 'output'], description: 'A billing or shipping contact.' },
  { id: 'Address', schema: addressSchema, sides: ['input', 'output'], description: 'A postal address.' },
  {
    id: 'Session',
    schema: sessionSchema,
    sides: ['input'],
    description: 'Where the cardholder is sent back after the payment, whatever its outcome.',
  },
  {
    id: 'CreditCardRequest',
    schema: creditCardRequestSchema,
    sides: ['input'],
    description:
      'The card, direct flow only. The number must pass the Luhn check and belong to a supported scheme; the CVC has 4 digits for American Express and 3 otherwise. Never returned, logged or stored.',
  },
  {
    id: 'BrowserData',
    schema: browserDataSchema,
    sides: ['input'],
    description:
      "The cardholder's browser, for EMV 3-D Secure (direct flow only). Every field is required; `accept_encoding` and `accept_language` may be empty.",
  },
  {
    id: 'Payment',
    schema: paymentSchema,
    sides: ['output'],
    description:
      'A payment. `state` is the truth: the cardholder may return to `session.redirect_url` while the payment is still `processing`. Never contains the card number or the CVC.',
  },
  {
    id: 'PublicCreditCard',
    schema: publicCreditCardSchema,
    sides: ['output'],
    description:
      'What the API returns about the card: BIN, last four digits, scheme, expiry and holder; after an approved authorization also the retrieval reference number, fees and card details.',
  },
  {
    id: 'PaymentList',
    schema: paymentListResourceSchema,
    sides: ['output'],
    description:
      'A page of payments, newest first. `next_cursor` is present when more payments follow: pass it as `after` for the next page, or follow `_links.next`.',
  },
  {
    id: 'CaptureRequest',
    schema: captureRequestSchema,
    sides: ['input'],
    description:
      'Captures a succeeded manual payment. Every field is optional; no body is the same as `{}`: all that is capturable, finally.',
  },
  {
    id: 'RefundRequest',
    schema: refundRequestSchema,
    sides: ['input'],
    description:
      'Refunds captured money. Every field is optional; no body is the same as `{}`: all that is captured and not yet refunded.',
  },
  {
    id: 'Capture',
    schema: captureResourceSchema,
    sides: ['output'],
    description:
      'A capture: `processing` until the acquirer answers (an unknown answer is settled by inquiry, never by a second request), then `succeeded` or `failed`.',
  },
  {
    id: 'Refund',
    schema: refundResourceSchema,
    sides: ['output'],
    description:
      'A refund: `processing` until the acquirer answers (an unknown answer is settled by inquiry, never by a second request), then `succeeded` or `failed`.',
  },
  {
    id: 'CaptureList',
    schema: captureListResourceSchema,
    sides: ['output'],
    description: "A page of a payment's captures, oldest first; `next_cursor` and `_links.next` as in `PaymentList`.",
  },
  {
    id: 'RefundList',
    schema: refundListResourceSchema,
    sides: ['output'],
    description: "A page of a payment's refunds, oldest first; `next_cursor` and `_links.next` as in `PaymentList`.",
  },
  {
    id: 'Profile',
    schema: profileResourceSchema,
    sides: ['output'],
    description: "A profile (merchant account) of the client's partner.",
  },
  {
    id: 'Problem',
    schema: problemDocumentSchema,
    sides: ['output'],
    description: 'An RFC 9457 problem document: every error answer of the API (`application/problem+json`).',
  },
  {
    id: 'WebhookEvent',
    schema: webhookEventSchema,
    sides: ['output'],
    description:
      'The body of a webhook request (`webhooks`): one domain event, snake_case like the API. Never holds card data. Fields may be added to it and to the payment; none is removed or changes meaning.',
  },
  {
    id: 'ValidationIssue',
    schema: validationIssueSchema,
    sides: ['output'],
    description:
      'One invalid field: its dotted `path` in the body (`billing.address.country`), the query (`limit`) or the headers (`Idempotency-Key`), and a fixed message.',
  },
];

const requestFields = createPaymentRequestSchema.shape;
const paymentFields = paymentSchema.shape;
const cardFields = publicCreditCardSchema.shape.card.shape;
const webhookFields = webhookEventSchema.shape;

/** Descriptions of single fields (schemas used in one place only). */
const FIELD_DESCRIPTIONS: readonly (readonly [z.ZodType, string])[] = [
  [requestFields.amount, 'The amount in minor units of the currency (cents for EUR), from 1 to 999,999,999,999.'],
  [requestFields.currency, 'An active ISO 4217 currency code, upper case.'],
  [requestFields.description, 'Free text for the merchant.'],
  [requestFields.reference, "The merchant's own reference, e.g. an order number."],
  [requestFields.method, 'The payment method: always `creditcard`.'],
  [
    sessionSchema.shape.redirect_url,
    'An absolute URL: `https://` and a host, or `http://` and `localhost`, `127.x.x.x` or `[::1]` (the pattern); no user name or password, no spaces or control characters. Beyond the pattern: the WHATWG URL parser must accept it, and it must hold no card number and be at most 2048 characters also once percent-encoded.',
  ],
  [
    creditCardRequestSchema.shape.number,
    'The card number: 12 to 19 digits, no spaces, passing the Luhn check, of a supported scheme.',
  ],
  [creditCardRequestSchema.shape.cvc, '3 digits; 4 for American Express.'],
  [
    creditCardRequestSchema.shape.expiration,
    'The first day of the expiry month, midnight UTC; not before the current month.',
  ],
  [
    contactSchema.shape.email,
    "An e-mail address as the pattern states it, stricter than `format: email`: a local part of at most 64 characters, dot-separated runs of letters, digits and `_'+-`; a domain of labels of 1 to 63 letters, digits and hyphens, none starting or ending with a hyphen, the last of letters only. Holds no card number.",
  ],
  [contactSchema.shape.phone, 'International format: `+` and 8 to 15 digits.'],
  [addressSchema.shape.premise, 'House or building number.'],
  [addressSchema.shape.thoroughfare, 'Street.'],
  [addressSchema.shape.locality, 'City.'],
  [addressSchema.shape.state, 'Region.'],
  [addressSchema.shape.country, 'An officially assigned ISO 3166-1 alpha-2 code, upper case.'],
  [
    browserDataSchema.shape.ip_address,
    "The cardholder's IPv4 address (dotted-quad, no leading zeros) or IPv6 address (RFC 4291 text form, no zone id).",
  ],
  [browserDataSchema.shape.language, 'A BCP 47 language tag such as `en-US`.'],
  [browserDataSchema.shape.color_depth, 'Bits per pixel as the browser reports it; 30 is sent on as 24.'],
  [browserDataSchema.shape.timezone_offset, 'Minutes from UTC as `Date.prototype.getTimezoneOffset()` reports them.'],
  [paymentFields.id, 'The payment id.'],
  [paymentFields.amount, 'The amount in minor units of the currency.'],
  [paymentFields.currency, 'The ISO 4217 currency code.'],
  [paymentFields.description, 'As sent when the payment was created.'],
  [paymentFields.reference, 'As sent when the payment was created.'],
  [paymentFields.session, 'As sent: where the cardholder returns after the payment.'],
  [paymentFields.next, "Where to send the cardholder now: the hosted payment page or the issuer's 3-D Secure page."],
  [paymentFields.state, 'The public state; `succeeded`, `failed` and `expired` are final.'],
  [paymentFields.failure_reason, 'Why the payment failed (`state` = `failed` only).'],
  [paymentFields.created, 'When the payment was created: ISO 8601, UTC, milliseconds.'],
  [
    requestFields.capture_method,
    '`automatic` (default): the authorization is captured at once. `manual`: the money is only reserved until captured (`POST …/captures`), canceled, or the authorization expires.',
  ],
  [paymentFields.capture_method, 'As sent when the payment was created (`automatic` when it was not).'],
  [
    paymentFields.amount_capturable,
    'What can still be captured: `amount` less captures not failed; 0 once canceled, finally captured or expired, and 0 for automatic capture.',
  ],
  [paymentFields.amount_captured, 'Succeeded captures; `amount` for a succeeded automatic payment.'],
  [paymentFields.amount_refunded, 'Succeeded refunds.'],
  [
    paymentFields.authorization_expires_at,
    'A manual payment whose authorization is open: when what is uncaptured is released (ISO 8601 UTC).',
  ],
  [
    captureRequestSchema.shape.amount,
    'Minor units, 1 to 999,999,999,999; default all that can be captured (a capture) or refunded (a refund).',
  ],
  [
    captureRequestSchema.shape.final,
    'Default `true`: release what is left uncaptured. `false`: more captures may follow.',
  ],
  [refundRequestSchema.shape.reference, "The merchant's own reference of the refund, at most 255 characters."],
  [refundRequestSchema.shape.description, 'Free text, at most 255 characters.'],
  [paymentFields._links, 'The payment itself and its profile, as paths under the API root.'],
  [publicCreditCardSchema.shape.rrn, 'The retrieval reference number of the authorization.'],
  [publicCreditCardSchema.shape.fees, 'Fees in minor units (`assesment` is spelt as in the specification).'],
  [
    cardFields.bin,
    'The first 8 digits of a card number of 16 digits or more; of a shorter one, its length less 10 (12 digits: 2, 15: 5), so that 6 digits stay unknown beside `last4`. A payment stored by an earlier version may hold 6.',
  ],
  [cardFields.last4, 'The last four digits of the card number.'],
  [cardFields.type, 'Card type reported by the acquirer, e.g. `consumer` or `commercial`.'],
  [cardFields.region, '`domestic`, `intra` or `inter` (regional) as reported by the acquirer.'],
  [
    webhookFields.id,
    'The event id, `evt_` and 32 hex digits: the same on every delivery of the event. De-duplicate on it.',
  ],
  [webhookFields.type, 'What happened to the payment: the key of the webhook in `webhooks`.'],
  [webhookFields.created, 'When it happened (the state change), ISO 8601 UTC with milliseconds; not when it was sent.'],
  [webhookFields.partner_id, 'The partner the payment belongs to.'],
  [webhookFields.profile_id, 'The profile (merchant account) of the payment.'],
  [webhookFields.data, 'The payment as the API shows it (`GET` of its `_links.self`) right after the change.'],
  [paymentListSchema.shape.next_cursor, 'The `after` of the next page; absent on the last page.'],
  [
    paymentListResourceSchema.shape._links,
    'This page (`self`, with the `limit` and `after` of the request) and, when more payments follow, the next one (`next`: the same `limit`, `after` = `next_cursor`), as paths under the API root.',
  ],
  [
    problemDocumentSchema.shape.type,
    "A URI naming the problem: the handler's `problemTypeBase` (default `urn:paystate:problem:`) and the code.",
  ],
  [problemDocumentSchema.shape.title, 'A short summary of the problem type.'],
  [problemDocumentSchema.shape.status, 'The HTTP status code of the answer.'],
  [problemDocumentSchema.shape.detail, 'What went wrong with this request. Never repeats request values.'],
  [problemDocumentSchema.shape.code, 'A stable snake_case code to branch on.'],
  [problemDocumentSchema.shape.errors, '`validation_failed` only: one issue per invalid field, sorted by path.'],
  [
    problemDocumentSchema.shape.payment_may_exist,
    "`unavailable` of a create only: the payment may have been created (storage took the write and lost its answer). With an `Idempotency-Key`, retry with the same key after `Retry-After`. Without one there is no `Retry-After`: look the payment up in the profile's list before retrying, since a plain retry may create a second payment.",
  ],
];

/** The registry of named schemas and descriptions the document is generated from. */
export function createSchemaRegistry(): SchemaRegistry {
  const registry = z.registry<SchemaMeta>();
  for (const component of COMPONENTS) {
    registry.add(component.schema, { id: component.id, description: component.description });
  }
  for (const [schema, description] of FIELD_DESCRIPTIONS) registry.add(schema, { description });
  return registry;
}

/**
 * `components.schemas`: each named schema read on its side of the API. A schema used in both
 * requests and answers must come out the same on both sides.
 */
export function componentSchemas(registry: SchemaRegistry): Record<string, JsonSchema> {
  const bySide: Record<SchemaSide, Record<string, JsonSchema>> = {
    input: registrySchemas(registry, 'input'),
    output: registrySchemas(registry, 'output'),
  };
  const out: Record<string, JsonSchema> = {};
  for (const component of COMPONENTS) {
    const [first, ...others] = component.sides.map((side) => bySide[side][component.id]);
    if (first === undefined) throw new Error(`Component ${component.id} was not generated`);
    if (others.some((other) => JSON.stringify(other) !== JSON.stringify(first))) {
      throw new Error(`Component ${component.id} differs between requests and answers: give each side its own`);
    }
    out[component.id] = first;
  }
  return out;
}
