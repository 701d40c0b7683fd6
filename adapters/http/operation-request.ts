import { err, ok, type Result } from 'neverthrow';
import type { OperationKind, PublicOperation } from '../../src/domain/money-operation.js';
import type { PaymentError } from '../../src/errors/payment-error.js';
import {
  isIdentityEncoding,
  isJsonContentType,
  unsupportedContentEncoding,
  unsupportedMediaType,
} from './content-negotiation.js';
import { operationUnder } from './base-path.js';
import { jsonAnswer, type HttpAnswer } from './http-answer.js';
import {
  idempotencyKeyOf,
  requestFingerprint,
  runIdempotent,
  type IdempotencyDeps,
  type IdempotentOutcome,
} from './idempotency.js';
import { parseJsonBody } from './json-body.js';
import { problem, problemAnswer, problemFromPaymentError, RETRY_LATER, type Problem } from './problem-details.js';
import { validationProblem } from './query-params.js';
import { MAX_BODY_BYTES } from './read-body.js';
import { param, type RouteContext, type RouteHandler } from './route-context.js';
import { checkRoute } from './tenancy.js';

/** The payment a route under `…/payments/{payment_id}` acts on, once tenancy is checked. */
export interface OperationPath {
  /**
   * What the engine's command or read is given: the payment, its profile, the client's partner (on
   * both paths: a payment filed under another partner is never reached) and the request's id.
   */
  readonly target: { paymentId: string; profileId: string; partnerId: string; requestId: string };
  /** The payment's path below the mount prefix, in the form the request used (for list links). */
  readonly paymentPath: string;
  /** The query's values (`allowed` names only). */
  readonly query: Readonly<Record<string, string>>;
}

/**
 * Tenancy of a route under `…/payments/{payment_id}` (docs/http-api.md, Authentication and tenancy), then the query
 * (`allowed` names only): another partner in the path 404, a profile the client may not act on 403.
 */
export function operationPath(context: RouteContext, allowed: readonly string[]): Result<OperationPath, Problem> {
  const scope = checkRoute(context, allowed);
  if (scope.isErr()) return err(scope.error);
  const { profileId, query } = scope.value;
  const partnerId = context.params['partner_id'];
  const paymentId = param(context, 'payment_id');
  const under = partnerId === undefined ? '' : `/partners/${encodeURIComponent(partnerId)}`;
  const paymentPath = `/v1${under}/profiles/${encodeURIComponent(profileId)}/payments/${encodeURIComponent(paymentId)}`;
  const { client, requestId } = context;
  return ok({ target: { paymentId, profileId, partnerId: client.partnerId, requestId }, paymentPath, query });
}

/** The request body, at most 64 KiB (`MAX_BODY_BYTES`): 413 when larger, 400 when it could not be read. */
export async function readBodyBytes(context: RouteContext): Promise<Result<Uint8Array, Problem>> {
  const bytes = await context.request.readBody(MAX_BODY_BYTES);
  if (bytes.isOk()) return ok(bytes.value);
  return err(
    bytes.error === 'too_large'
      ? problem('payload_too_large', 'The request body is larger than 64 KiB')
      : problem('invalid_json', 'The request body could not be read'),
  );
}

/**
 * The body of a capture, cancel or refund `POST`: none (or an empty one) is `undefined`, the
 * defaults; anything else must be `application/json`, identity-encoded, at most 64 KiB, UTF-8 JSON,
 * and not `null`.
 */
async function readOptionalBody(context: RouteContext): Promise<Result<unknown, Problem>> {
  const { request } = context;
  if (!isIdentityEncoding(request.header('content-encoding'))) return err(unsupportedContentEncoding());
  const bytes = await readBodyBytes(context);
  if (bytes.isErr()) return err(bytes.error);
  if (bytes.value.byteLength === 0) return ok(undefined);
  if (!isJsonContentType(request.header('content-type'))) return err(unsupportedMediaType());
  const parsed = parseJsonBody(bytes.value);
  // `null` is a body, not the absence of one (which the engine would read as the defaults).
  if (parsed.isOk() && parsed.value === null) {
    return err(validationProblem([{ path: '', message: 'Must be a JSON object' }]));
  }
  return parsed;
}

/**
 * The 503 of an operation whose write may have been stored (storage lost its answer): with an
 * `Idempotency-Key` the key stays in progress and a retry with it is safe; without one the
 * client must look at the payment before it retries.
 */
function mayExistProblem(keyed: boolean): Problem {
  return keyed
    ? problem(
        'unavailable',
        'Storage is unavailable and the operation may have been made; retry later with the same Idempotency-Key',
        {
          headers: RETRY_LATER,
        },
      )
    : problem(
        'unavailable',
        'Storage is unavailable and the operation may have been made. Look at the payment before you retry: send an Idempotency-Key to retry safely',
      );
}

/** The payment an operation `POST` acts on (`OperationPath.target`). */
export type OperationTarget = OperationPath['target'];

/** What an operation `POST` route is: its kind, how it reads its body, runs and answers. */
export interface OperationPostSpec<T> {
  readonly kind: OperationKind;
  /** Refuses a body this operation cannot take, once read. Default: any body `readOptionalBody` accepts. */
  readonly checkBody?: (body: unknown) => Result<void, Problem>;
  /**
   * The engine command under `operationId` (null: the engine makes one); `takeover` when a stale
   * attempt under the same key may have run it already.
   */
  readonly run: (
    context: RouteContext,
    target: OperationTarget,
    body: unknown,
    operationId: string | null,
    takeover: boolean,
  ) => PromiseLike<Result<T, PaymentError>>;
  readonly answer: (context: RouteContext, value: T) => HttpAnswer;
}

/** The 201 of a new capture or refund, with its `Location`. */
export function createdOperation(context: RouteContext, operation: PublicOperation): HttpAnswer {
  const shown = operationUnder(context.basePath, operation);
  return jsonAnswer(201, shown, { location: shown._links.self.href });
}

/** The idempotency store and its settings, as `runIdempotent` takes them, from a route's deps. */
export function idempotencyDeps(context: RouteContext): IdempotencyDeps {
  const { deps } = context;
  return {
    store: deps.idempotency,
    clock: deps.clock,
    logger: context.logger,
    ttlMs: deps.idempotencyTtlMs,
    staleAfterMs: deps.idempotencyStaleAfterMs,
    timeoutMs: deps.storeTimeoutMs,
    problemTypeBase: deps.problemTypeBase,
  };
}

/**
 * `POST …/payments/{payment_id}/captures`, `/refunds` or `/cancel`, once per `Idempotency-Key`: the
 * operation id is reserved with the key, so a retry after a crash reaches the same operation
 * (docs/http-api.md, Idempotency) and never the acquirer twice.
 */
export function operationPostRoute<T>(spec: OperationPostSpec<T>): RouteHandler {
  return async (context) => {
    const path = operationPath(context, []);
    if (path.isErr()) return err(path.error);
    const key = idempotencyKeyOf(context.request.header('idempotency-key'));
    if (key.isErr()) return err(key.error);
    const body = await readOptionalBody(context);
    if (body.isErr()) return err(body.error);
    const checked = spec.checkBody?.(body.value);
    if (checked?.isErr() === true) return err(checked.error);
    const { target } = path.value;
    const { deps } = context;
    const once = async (operationId: string | null, takeover: boolean): Promise<IdempotentOutcome> => {
      const done = await spec.run(context, target, body.value, operationId, takeover);
      if (done.isOk()) return { answer: spec.answer(context, done.value), settle: 'complete' };
      const error = done.error;
      if (error.code === 'unavailable' && (error.outcome === 'unknown' || takeover)) {
        return { answer: problemAnswer(mayExistProblem(operationId !== null), deps.problemTypeBase), settle: 'leave' };
      }
      const answer = problemAnswer(problemFromPaymentError(error), deps.problemTypeBase);
      return { answer, settle: error.code === 'internal_error' ? 'complete' : 'release' };
    };
    if (key.value === null) return ok((await once(null, false)).answer);
    const { profileId, paymentId } = target;
    const tail = spec.kind === 'cancel' ? 'cancel' : `${spec.kind}s`;
    const resource = `/v1/profiles/${encodeURIComponent(profileId)}/payments/${encodeURIComponent(paymentId)}/${tail}`;
    const fingerprint = await requestFingerprint('POST', resource, body.value ?? {});
    const reservedId = deps.engine.newOperationId(spec.kind);
    return ok(
      await runIdempotent(
        idempotencyDeps(context),
        { clientId: context.client.id, key: key.value, fingerprint, reservedId },
        (start) => once(start.reservedId ?? reservedId, start.takeover),
      ),
    );
  };
}
