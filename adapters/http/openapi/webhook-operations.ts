import type { z } from 'zod';
import { DOMAIN_EVENT_TYPES, type DomainEventType } from '../../../src/domain/domain-event.js';
import {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  webhookAnswerOutcome,
  type WebhookAnswerOutcome,
} from '../../../src/domain/webhook-delivery.js';
import {
  DEFAULT_WEBHOOK_USER_AGENT,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_EVENT_TYPE_HEADER,
  WEBHOOK_IDEMPOTENCY_KEY_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
} from '../../../src/domain/webhook-headers.js';
import { componentRef, inlineSchema, parameterRef, type SchemaRegistry } from './json-schema.js';
import type { OpenApiOperation, OpenApiParameter, OpenApiPathItem, OpenApiResponse } from './openapi-types.js';
import { webhookEventNarrowingSchema, webhookHeaderSchemas } from './webhook-schemas.js';

/**
 * The document's `webhooks`: one `POST` per event type as the webhook sink sends it, its headers
 * and the answers it understands. A new event type without a description does not compile.
 */

export const WEBHOOKS_TAG = {
  name: 'Webhooks',
  description:
    "What paystate POSTs to your endpoint when a payment changes, with the webhook event sink of `paystate/webhooks` (guide: docs/webhooks.md). Each request is signed (`Paystate-Signature`, HMAC-SHA256 of `<t>.<raw body>`): verify it over the raw body before trusting anything, then de-duplicate on the event id, since delivery is at least once. Events of one payment come in order. The headers the sink's `headers` option adds (such as `Authorization`) come on top.",
} as const;

/** What each event type's webhook says beside the schemas. */
const EVENT_DESCRIPTIONS: Readonly<
  Record<DomainEventType, { readonly summary: string; readonly description: string }>
> = {
  'payment.created': {
    summary: 'A payment was created',
    description:
      'The payment was created, `state` `processing`. In the hosted flow `next.redirect` is the hosted payment page, unless the engine makes page links from its `pageTokens` (the sandbox does): then the event leaves it out, and the create answer and `GET` of the payment carry it. In the direct flow the events that follow say how it went.',
  },
  'payment.action_required': {
    summary: 'The cardholder must complete a 3-D Secure challenge',
    description:
      "The issuer asks for a 3-D Secure challenge: `next.redirect` is the issuer's page, where the cardholder must act before the payment expires (10 minutes by default).",
  },
  'payment.succeeded': {
    summary: 'A payment succeeded',
    description: 'The authorization was approved: `state` is `succeeded`, final.',
  },
  'payment.failed': {
    summary: 'A payment failed',
    description:
      'The payment failed for good: `state` is `failed`, final, and `failure_reason` says why (3-D Secure refused or rejected, the authorization declined, …).',
  },
  'payment.expired': {
    summary: 'A payment expired',
    description:
      'The cardholder did not complete the hosted payment page or the challenge in time: `state` is `expired`, final.',
  },
  'payment.captured': {
    summary: 'A capture succeeded',
    description:
      'A capture (`operation`) of a manual payment succeeded: `amount_captured` counts it; `state` stays `succeeded`.',
  },
  'payment.capture_failed': {
    summary: 'A capture failed',
    description:
      'A capture (`operation`) failed, `failure_reason` on it says why (`capture_declined`, …): what it reserved can be captured again.',
  },
  'payment.canceled': {
    summary: 'A payment was canceled',
    description:
      'A manual authorization was voided (`amount_capturable` is 0), or a payment still waiting for the cardholder was canceled: then `state` is `failed` with `failure_reason` `canceled`.',
  },
  'payment.authorization_expired': {
    summary: 'An authorization expired',
    description:
      'The uncaptured rest of a manual authorization was released at `authorization_expires_at`: `amount_capturable` is 0.',
  },
  'refund.succeeded': {
    summary: 'A refund succeeded',
    description: 'A refund (`operation`) succeeded: `amount_refunded` counts it.',
  },
  'refund.failed': {
    summary: 'A refund failed',
    description:
      'A refund (`operation`) failed, `failure_reason` on it says why (`refund_declined`, …): its amount is refundable again.',
  },
};

/** The webhook header parameters every event type shares, as components. */
const WEBHOOK_PARAMETERS = ['WebhookSignature', 'WebhookEventId', 'WebhookIdempotencyKey', 'WebhookUserAgent'] as const;

type WebhookParameterComponent = (typeof WEBHOOK_PARAMETERS)[number];

/** `components.parameters` of the webhook request headers. */
export function webhookParameterComponents(
  registry: SchemaRegistry,
): Record<WebhookParameterComponent, OpenApiParameter> {
  const header = (name: string, description: string, schema: z.ZodType) => ({
    name,
    in: 'header' as const,
    description,
    required: true,
    schema: inlineSchema(schema, 'output', registry),
  });
  return {
    WebhookSignature: header(
      WEBHOOK_SIGNATURE_HEADER,
      '`t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: `t` is the time of signing, and each `v1` the lowercase hex HMAC-SHA256, keyed with one of the secrets (one `v1` per secret while a secret is rotated), of `t`, a dot and the raw body. Verify it over the raw body (`verifyWebhookSignature`), within a tolerance of `t` (300 s by default). Every attempt is signed anew: a repeat has a later `t`. Entries of other schemes (a later `v2=`) may be added: skip them.',
      webhookHeaderSchemas.signature,
    ),
    WebhookEventId: header(
      WEBHOOK_EVENT_ID_HEADER,
      'The event id, as in the body: the same on every delivery of the event. Not signed: once the request verified, trust the body.',
      webhookHeaderSchemas.eventId,
    ),
    WebhookIdempotencyKey: header(
      WEBHOOK_IDEMPOTENCY_KEY_HEADER,
      `The event id again, for generic idempotency middleware: exactly the value of \`${WEBHOOK_EVENT_ID_HEADER}\` and of the body's \`id\`, bare (not a quoted string), the same on every delivery of the event.`,
      webhookHeaderSchemas.eventId,
    ),
    WebhookUserAgent: header(
      'User-Agent',
      `\`${DEFAULT_WEBHOOK_USER_AGENT}\` unless the sink's \`userAgent\` says otherwise.`,
      webhookHeaderSchemas.userAgent,
    ),
  };
}

const seconds = (ms: number): string => `${ms / 1000} s`;

const OUTCOME_DESCRIPTIONS: Readonly<Record<WebhookAnswerOutcome, string>> = {
  delivered:
    "Delivered: the event is taken, and its payment's next event follows. The body of the answer is never read. Answer fast and do the work after; answer 2xx too to an event type you ignore or do not know.",
  retried: `Not taken, for now (a retryable failure): the event is sent again, at once (the engine's \`retries\`), then after a back-off (by default 1 s, doubling up to 1 h) for as long as it fails; it is never dropped. The same happens when the endpoint does not answer within the time-out (${seconds(DEFAULT_WEBHOOK_TIMEOUT_MS)} by default) or the connection fails.`,
  refused:
    "Refused (any other status: a 3xx, which is never followed, or a 4xx other than those retried): the event is offered again later, after the same back-off (up to 1 h) but without the immediate retries, and holds up its payment's later events until it is taken. Answer 401 to a request that does not verify, and a 4xx only when the request is wrong.",
};

const response = (outcome: WebhookAnswerOutcome): OpenApiResponse => ({
  description: OUTCOME_DESCRIPTIONS[outcome],
  'x-paystate-delivery': outcome,
});

/**
 * The answers of a webhook, from `webhookAnswerOutcome`: a whole hundred (`2XX`, `5XX`) where every
 * status of it has the same outcome, single statuses otherwise, and `default` for the outcome of
 * what is left (`refused`).
 */
function webhookResponses(): Record<string, OpenApiResponse> {
  const fallback: WebhookAnswerOutcome = 'refused';
  const responses: Record<string, OpenApiResponse> = {};
  for (let hundred = 1; hundred <= 5; hundred++) {
    const statuses = Array.from({ length: 100 }, (_, n) => hundred * 100 + n);
    const outcomes = new Set(statuses.map(webhookAnswerOutcome));
    const [only] = outcomes;
    if (outcomes.size === 1 && only !== undefined) {
      if (only !== fallback) responses[`${hundred}XX`] = response(only);
      continue;
    }
    for (const status of statuses) {
      const outcome = webhookAnswerOutcome(status);
      if (outcome !== fallback) responses[String(status)] = response(outcome);
    }
  }
  responses['default'] = response(fallback);
  return responses;
}

/** `paymentActionRequiredWebhook` from `payment.action_required`. */
function webhookOperationId(type: DomainEventType): string {
  const words = type.split(/[._]/);
  return `${words.map((word, n) => (n === 0 ? word : `${word.charAt(0).toUpperCase()}${word.slice(1)}`)).join('')}Webhook`;
}

function webhookOperation(type: DomainEventType, registry: SchemaRegistry): OpenApiOperation {
  const described = EVENT_DESCRIPTIONS[type];
  return {
    operationId: webhookOperationId(type),
    summary: described.summary,
    description: `${described.description}\n\n\`POST\` to the endpoint the sink's \`url\` names (or chooses for the event), with \`Connection: close\`. \`data.payment\` is the payment as the API shows it right after the change.`,
    tags: [WEBHOOKS_TAG.name],
    // Not the API's bearer token: the request is signed (`Paystate-Signature`).
    security: [],
    parameters: [
      ...WEBHOOK_PARAMETERS.map(parameterRef),
      {
        name: WEBHOOK_EVENT_TYPE_HEADER,
        in: 'header',
        description: 'The event type, as in the body: to route on before reading the body. Not signed.',
        required: true,
        schema: inlineSchema(webhookHeaderSchemas.eventType(type), 'output', registry),
      },
    ],
    requestBody: {
      description: 'The event, UTF-8 JSON. Verify the signature over these raw bytes before parsing them.',
      required: true,
      content: {
        'application/json': {
          schema: {
            allOf: [componentRef('WebhookEvent'), inlineSchema(webhookEventNarrowingSchema(type), 'output', registry)],
          },
        },
      },
    },
    responses: webhookResponses(),
  };
}

/** The document's `webhooks`: one path item per event type, keyed by the type. */
export function webhookPathItems(registry: SchemaRegistry): Record<string, OpenApiPathItem> {
  return Object.fromEntries(DOMAIN_EVENT_TYPES.map((type) => [type, { post: webhookOperation(type, registry) }]));
}
