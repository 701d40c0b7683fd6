import { afterEach, describe, expect, it } from 'vitest';
import { createOpenApiDocument, type OpenApiResponse } from '../../adapters/http/openapi/index.js';
import { createWebhookEventSink, type WebhookFetch } from '../../adapters/webhooks/index.js';
import { DOMAIN_EVENT_TYPES } from '../../src/domain/domain-event.js';
import { makeEvent, makeSucceededRecord } from '../contracts/fixtures.js';
import { compliantClient } from '../support/engine-harness.js';
import { CHALLENGE_CARD, MINUTE, PROFILE, VISA } from '../support/engine-helpers.js';
import { directRequest, hostedRequest } from '../support/requests.js';
import { publicLookup } from '../webhooks/support/lookups.js';
import { makeWebhookEngine, SECRET } from '../webhooks/support/webhook-engine.js';
import { startReceiver, type ReceivedRequest, type Receiver } from '../webhooks/support/webhook-receiver.js';
import { createDocumentValidator } from './support/document-validator.js';

/** The sandbox card the acquirer declines (`declined`, code 05). */
const DECLINED_CARD = '4000000000000002';

/** Headers of the connection, not of the webhook: node's http sets them for any request. */
const TRANSPORT_HEADERS = new Set(['host', 'content-length', 'connection']);

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const document = createOpenApiDocument();

/** Requests of every event type, as the sink sends them to a real receiver from a real engine. */
async function sentRequests(): Promise<readonly ReceivedRequest[]> {
  receiver = await startReceiver();
  const h = makeWebhookEngine({ url: `${receiver.origin}/hooks` }, { authorizationLifetimeMs: 60 * MINUTE });
  const create = async (body: Record<string, unknown>) =>
    (await h.engine.createPayment({ client: compliantClient, profileId: PROFILE, body }))._unsafeUnwrap();
  await create(hostedRequest()); // created, then expired
  await create(directRequest(VISA)); // created, succeeded
  await create(directRequest(DECLINED_CARD)); // created, failed
  const challenged = await create(directRequest(CHALLENGE_CARD)); // created, action_required, succeeded
  (await h.engine.completeChallenge(await h.challengeAnswer(challenged.id, 'authorise')))._unsafeUnwrap();
  // After authorization (decisions.md section 8): captured, refunded, canceled, lapsed.
  const manual = () => create(directRequest(VISA, { capture_method: 'manual' }));
  const captured = await manual();
  (await h.engine.capturePayment({ paymentId: captured.id, profileId: PROFILE }))._unsafeUnwrap();
  (await h.engine.refundPayment({ paymentId: captured.id, profileId: PROFILE }))._unsafeUnwrap();
  const canceled = await manual();
  (await h.engine.cancelPayment({ paymentId: canceled.id, profileId: PROFILE }))._unsafeUnwrap();
  await manual(); // its authorization lapses below
  h.clock.advance(61 * MINUTE);
  (await h.engine.sweep())._unsafeUnwrap();
  (await h.engine.deliverEvents())._unsafeUnwrap();
  return receiver.requests;
}

/** What the document says the sink does with an answer of `status`: its exact key, its hundred, or `default`. */
function documentedOutcome(responses: Record<string, OpenApiResponse>, status: number) {
  const response = responses[String(status)] ?? responses[`${Math.floor(status / 100)}XX`] ?? responses['default'];
  return response?.['x-paystate-delivery'];
}

describe('the webhooks of the OpenAPI document', () => {
  it('has one POST per event type the engine emits, signed rather than behind the bearer token', () => {
    expect(Object.keys(document.webhooks)).toEqual([...DOMAIN_EVENT_TYPES]);
    for (const [type, item] of Object.entries(document.webhooks)) {
      expect(Object.keys(item), type).toEqual(['post']);
      expect(item.post?.security, type).toEqual([]);
      expect(item.post?.tags, type).toEqual(['Webhooks']);
      expect(item.post?.requestBody?.content['application/json']?.schema).toEqual({
        allOf: [
          { $ref: '#/components/schemas/WebhookEvent' },
          {
            type: 'object',
            properties: { type: { type: 'string', const: type } },
            required: ['type'],
            additionalProperties: {},
          },
        ],
      });
    }
    expect(document.tags.map((tag) => tag.name)).toContain('Webhooks');
    // The payment in the body is the API's own Payment schema, not a copy of it.
    const event = document.components.schemas['WebhookEvent'] as { properties: { data: { properties: unknown } } };
    expect(event.properties.data.properties).toEqual({ payment: { $ref: '#/components/schemas/Payment' } });
  });

  it('describes exactly what the sink sends: every request of a real engine over a real socket conforms', async () => {
    const validator = await createDocumentValidator(document);
    const requests = await sentRequests();
    const seen = new Set<string>();
    for (const request of requests) {
      const type = String(request.headers['paystate-event-type']);
      seen.add(type);
      const problems = validator.checkWebhook(type, {
        method: request.method,
        headers: request.headers,
        text: request.body.toString('utf8'),
      });
      expect(problems, type).toEqual([]);

      // No header the sink sends is left out of the document, and none it documents is missing.
      const operation = document.webhooks[type]?.post;
      const documented = (operation?.parameters ?? []).map((parameter) => {
        const name =
          '$ref' in parameter
            ? document.components.parameters[parameter.$ref.split('/').pop() ?? '']?.name
            : parameter.name;
        return name?.toLowerCase();
      });
      const sent = Object.keys(request.headers).filter(
        (name) => !TRANSPORT_HEADERS.has(name) && name !== 'content-type',
      );
      expect(sent.sort(), type).toEqual(documented.sort());
      expect(Object.keys(operation?.requestBody?.content ?? {})).toEqual([request.headers['content-type']]);
    }
    // A declined capture or refund needs the sandbox's test cards for them (branch ops-sandbox).
    const undeclined = DOMAIN_EVENT_TYPES.filter(
      (type) => type !== 'payment.capture_failed' && type !== 'refund.failed',
    );
    expect([...seen].sort()).toEqual([...undeclined].sort());
  });

  it('is not a schema that takes anything: a changed body or header of a real request does not conform', async () => {
    const validator = await createDocumentValidator(document);
    const [request] = await sentRequests();
    if (request === undefined) throw new Error('no request was sent');
    const body = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
    const type = String(body['type']);
    const check = (headers: ReceivedRequest['headers'], changed: unknown) =>
      validator.checkWebhook(type, { method: 'POST', headers, text: JSON.stringify(changed) });
    expect(check(request.headers, body)).toEqual([]);
    expect(check(request.headers, { ...body, surprise: true })).not.toEqual([]);
    expect(check(request.headers, { ...body, type: 'payment.refunded' })).not.toEqual([]);
    expect(check(request.headers, { ...body, data: { payment: { id: 'payment_1' } } })).not.toEqual([]);
    expect(check({ ...request.headers, 'paystate-signature': 'v1=abc' }, body)).not.toEqual([]);
    expect(check({ ...request.headers, 'idempotency-key': `"${body['id'] as string}"` }, body)).not.toEqual([]);
    const { 'paystate-signature': _signature, ...unsigned } = request.headers;
    expect(check(unsigned, body)).toEqual(['header Paystate-Signature is missing']);
  });

  it('says for every status what the sink does with the event: delivered, retried, or refused', async () => {
    let status = 200;
    const fetch: WebhookFetch = async () => new Response(null, { status });
    const sink = createWebhookEventSink({
      url: 'https://hooks.shop.example/in',
      secrets: SECRET,
      fetch,
      lookup: publicLookup,
    });
    const event = makeEvent(makeSucceededRecord(), 'payment.succeeded');
    for (const [type, item] of Object.entries(document.webhooks)) {
      const responses = item.post?.responses ?? {};
      expect(Object.keys(responses).sort(), type).toEqual(['2XX', '408', '425', '429', '5XX', 'default']);
    }
    const responses = document.webhooks['payment.succeeded']?.post?.responses ?? {};
    for (status = 200; status <= 599; status++) {
      const answer = await sink.publish(event);
      const outcome = answer.isOk() ? 'delivered' : answer.error.retryable ? 'retried' : 'refused';
      expect(documentedOutcome(responses, status), String(status)).toBe(outcome);
    }
  });
});
