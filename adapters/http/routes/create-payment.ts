import { err, ok } from 'neverthrow';
import { paymentUnder } from '../base-path.js';
import {
  isIdentityEncoding,
  isJsonContentType,
  unsupportedContentEncoding,
  unsupportedMediaType,
} from '../content-negotiation.js';
import { jsonAnswer } from '../http-answer.js';
import { idempotencyKeyOf, requestFingerprint, runIdempotent, type IdempotentOutcome } from '../idempotency.js';
import { parseJsonBody } from '../json-body.js';
import { problem, problemAnswer, problemFromPaymentError } from '../problem-details.js';
import { readQuery } from '../query-params.js';
import { MAX_BODY_BYTES } from '../read-body.js';
import { param, type RouteContext, type RouteHandler } from '../route-context.js';
import { checkDirectFlow, checkProfile } from '../tenancy.js';

/**
 * `POST /v1/profiles/{profile_id}/payments`: 201 with the payment and `Location`. Every check that
 * can refuse the request without the engine runs first, so a refused request calls no port
 * beyond the credential store and stores nothing.
 */
export const createPaymentRoute: RouteHandler = async (context) => {
  const { client, request, deps } = context;
  const profileId = param(context, 'profile_id');
  const access = checkProfile(client, profileId);
  if (access.isErr()) return err(access.error);
  const query = readQuery(context.url, []);
  if (query.isErr()) return err(query.error);
  if (!isJsonContentType(request.header('content-type'))) return err(unsupportedMediaType());
  if (!isIdentityEncoding(request.header('content-encoding'))) return err(unsupportedContentEncoding());
  const key = idempotencyKeyOf(request.header('idempotency-key'));
  if (key.isErr()) return err(key.error);

  const bytes = await request.readBody(MAX_BODY_BYTES);
  if (bytes.isErr()) {
    return err(
      bytes.error === 'too_large'
        ? problem('payload_too_large', 'The request body is larger than 64 KiB')
        : problem('invalid_json', 'The request body could not be read'),
    );
  }
  const body = parseJsonBody(bytes.value);
  if (body.isErr()) return err(body.error);
  const direct = checkDirectFlow(client, body.value);
  if (direct.isErr()) {
    deps.logger.warn({ clientId: client.id, profileId }, 'direct flow refused: client is not PCI DSS compliant');
    return err(direct.error);
  }

  const create = () => createPayment(context, profileId, body.value);
  if (key.value === null) return ok((await create()).answer);
  // The resource, not its spelling: /profiles/profile_w%65bshop/payments is the same one.
  const resource = `/v1/profiles/${encodeURIComponent(profileId)}/payments`;
  const fingerprint = await requestFingerprint(request.method, resource, body.value);
  return ok(
    await runIdempotent(
      {
        store: deps.idempotency,
        clock: deps.clock,
        logger: deps.logger,
        ttlMs: deps.idempotencyTtlMs,
        problemTypeBase: deps.problemTypeBase,
      },
      { clientId: client.id, key: key.value, fingerprint },
      create,
    ),
  );
};

async function createPayment(context: RouteContext, profileId: string, body: unknown): Promise<IdempotentOutcome> {
  const { deps, client, basePath } = context;
  const created = await deps.engine.createPayment({ client, profileId, body });
  if (created.isOk()) {
    const payment = paymentUnder(basePath, created.value);
    return { answer: jsonAnswer(201, payment, { location: payment._links.self.href }), keep: true };
  }
  // An engine error means nothing was stored (validation, refusal, storage unavailable): the
  // key is released so that a corrected or later retry runs. Only a defect, whose effects are
  // unknown, is kept.
  const answer = problemAnswer(problemFromPaymentError(created.error), deps.problemTypeBase);
  return { answer, keep: created.error.code === 'internal_error' };
}
