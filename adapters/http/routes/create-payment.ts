import { err, ok } from 'neverthrow';
import type { Payment } from '../../../src/domain/payment.js';
import { paymentUnder } from '../base-path.js';
import {
  isIdentityEncoding,
  isJsonContentType,
  unsupportedContentEncoding,
  unsupportedMediaType,
} from '../content-negotiation.js';
import { jsonAnswer, type HttpAnswer } from '../http-answer.js';
import {
  idempotencyKeyOf,
  requestFingerprint,
  runIdempotent,
  type IdempotentOutcome,
  type IdempotentStart,
} from '../idempotency.js';
import { idempotencyDeps, readBodyBytes } from '../operation-request.js';
import { parseJsonBody } from '../json-body.js';
import { sealPageLink, unsealPageLink } from '../page-link-seal.js';
import { problem, problemAnswer, problemFromPaymentError, RETRY_LATER } from '../problem-details.js';
import { type RouteContext, type RouteDefinition, type RouteHandler } from '../route-context.js';
import { checkDirectFlow, checkRoute } from '../tenancy.js';

/**
 * `POST /v1/profiles/{profile_id}/payments`: 201 with the payment and `Location`. Every check that
 * can refuse the request without the engine runs first, so a refused request calls no port
 * beyond the credential store and stores nothing.
 */
export const createPaymentRoute: RouteHandler = async (context) => {
  const { client, request, deps } = context;
  const scope = checkRoute(context, []);
  if (scope.isErr()) return err(scope.error);
  const { profileId } = scope.value;
  if (!isJsonContentType(request.header('content-type'))) return err(unsupportedMediaType());
  if (!isIdentityEncoding(request.header('content-encoding'))) return err(unsupportedContentEncoding());
  const key = idempotencyKeyOf(request.header('idempotency-key'));
  if (key.isErr()) return err(key.error);

  const bytes = await readBodyBytes(context);
  if (bytes.isErr()) return err(bytes.error);
  const body = parseJsonBody(bytes.value);
  if (body.isErr()) return err(body.error);
  const direct = checkDirectFlow(client, body.value);
  if (direct.isErr()) {
    context.logger.warn({ clientId: client.id, profileId }, 'direct flow refused: client is not PCI DSS compliant');
    return err(direct.error);
  }

  if (key.value === null) return ok((await createOnce(context, profileId, body.value, null)).answer);
  // The resource, not its spelling: /profiles/profile_w%65bshop/payments is the same one.
  const resource = `/v1/profiles/${encodeURIComponent(profileId)}/payments`;
  const fingerprint = await requestFingerprint(request.method, resource, body.value);
  return ok(
    await runIdempotent(
      {
        ...idempotencyDeps(context),
        // The stored answer holds no working hosted page link: the replay puts it back.
        replay: (stored) => unsealPageLink(deps.engine, stored),
      },
      // The payment's id is reserved with the key, so that a retry after a crash finds it.
      { clientId: client.id, key: key.value, fingerprint, reservedId: deps.engine.newPaymentId() },
      (start) => createOnce(context, profileId, body.value, start),
    ),
  );
};

/**
 * Creates the payment, under the key's reserved id if any. After a takeover, or when the id is
 * taken, the stored payment is the answer: nothing is created or authorized twice.
 */
async function createOnce(
  context: RouteContext,
  profileId: string,
  body: unknown,
  start: IdempotentStart | null,
): Promise<IdempotentOutcome> {
  const { deps, client } = context;
  const paymentId = start?.reservedId ?? null;
  const takeover = start?.takeover === true;
  if (takeover && paymentId !== null) {
    const stored = await storedPayment(context, profileId, paymentId);
    if (stored !== null) return stored;
  }
  const created = await deps.engine.createPayment({
    client,
    profileId,
    body,
    requestId: context.requestId,
    ...(paymentId !== null && { paymentId }),
  });
  if (created.isOk()) return createdOutcome(context, created.value);
  if (created.error.code === 'conflict' && paymentId !== null) {
    const stored = await storedPayment(context, profileId, paymentId);
    if (stored !== null) return stored;
  }
  // Storage that took the write and then lost its answer, and could not be read back either, may
  // hold the payment under the reserved id: the key stays in progress, so that the retry that
  // takes it over once stale finds that payment (or creates it under that id), never a second.
  // Without a key the answer (`problemFromPaymentError`) says to look the payment up before
  // retrying, since a plain retry could create a second one.
  if (created.error.code === 'unavailable' && created.error.outcome === 'unknown' && paymentId !== null) {
    return { answer: outcomeUnknownAnswer(context), settle: 'leave' };
  }
  // After a takeover, storage that is unavailable leaves the key in progress too: the request
  // that stopped might have stored the reserved id, or still store it, and a retry must find it.
  if (takeover && created.error.code === 'unavailable')
    return { answer: outcomeUnknownAnswer(context), settle: 'leave' };
  // Any other engine error means nothing was stored (validation, refusal, storage unavailable and
  // known not to hold the write): the key is released so that a corrected or later retry runs at
  // once. Only a defect, whose effects are unknown, is kept.
  const answer = problemAnswer(problemFromPaymentError(created.error), deps.problemTypeBase);
  return { answer, settle: created.error.code === 'internal_error' ? 'complete' : 'release' };
}

/**
 * The 503 of a keyed create whose payment may have been stored (the key stays in progress):
 * `payment_may_exist: true`; a retry with the same key, later, is safe.
 */
function outcomeUnknownAnswer(context: RouteContext): HttpAnswer {
  const detail =
    'Storage is unavailable and the payment may have been created; retry later with the same Idempotency-Key';
  return problemAnswer(
    problem('unavailable', detail, {
      headers: RETRY_LATER,
      paymentMayExist: true,
    }),
    context.deps.problemTypeBase,
  );
}

/**
 * The 201 a create answers, for a payment as it is now, and what the idempotency store keeps of
 * it: without the hosted page link the engine makes from its `pageTokens` (`sealPageLink`).
 */
function createdOutcome(context: RouteContext, found: Payment): IdempotentOutcome {
  const payment = paymentUnder(context.basePath, found);
  const answer = jsonAnswer(201, payment, { location: payment._links.self.href });
  // Made only for a keyed request (an HMAC and a second JSON text): most creates store nothing.
  return { answer, settle: 'complete', stored: () => sealPageLink(context.deps.engine, answer, payment) ?? answer };
}

/**
 * The answer for a payment stored under the reserved id: 201 with the payment as it is now;
 * null when there is none (of this profile). When storage cannot tell, 503 and the key stays in
 * progress, to be taken over again once stale.
 */
async function storedPayment(
  context: RouteContext,
  profileId: string,
  paymentId: string,
): Promise<IdempotentOutcome | null> {
  const { deps, client } = context;
  const found = await deps.engine.getPayment({
    paymentId,
    profileId,
    partnerId: client.partnerId,
    requestId: context.requestId,
  });
  if (found.isOk()) return createdOutcome(context, found.value);
  if (found.error.code === 'not_found') return null;
  if (found.error.code === 'unavailable') return { answer: outcomeUnknownAnswer(context), settle: 'leave' };
  const answer = problemAnswer(problemFromPaymentError(found.error), deps.problemTypeBase);
  return { answer, settle: found.error.code === 'internal_error' ? 'complete' : 'leave' };
}

/** `POST /v1/profiles/{profile_id}/payments`. */
export const createPayment: RouteDefinition = {
  method: 'POST',
  pattern: ['v1', 'profiles', ':profile_id', 'payments'],
  name: 'POST /v1/profiles/{profile_id}/payments',
  handler: createPaymentRoute,
};
