import { err, ok, type ResultAsync } from 'neverthrow';
import type { PublicOperation } from '../../src/domain/index.js';
import type { PaymentError } from '../../src/errors/payment-error.js';
import { operationUnder } from './base-path.js';
import { jsonAnswer } from './http-answer.js';
import { operationKey, operationPath, readOptionalBody, runOperationPost } from './operation-request.js';
import type { RouteContext, RouteHandler } from './route-context.js';

/** What a create-operation route asks of the engine: the command, given the reserved id or none. */
export type OperationCommand<T extends PublicOperation> = (
  context: RouteContext,
  fields: { paymentId: string; profileId: string; partnerId: string; requestId: string; body: unknown },
  operationId: string | null,
) => ResultAsync<T, PaymentError>;

/**
 * `POST …/payments/{payment_id}/<collection>`: 201 with the operation and `Location`. With an
 * `Idempotency-Key` the operation id is reserved first, so a retry never reaches the acquirer twice.
 */
export function createOperationRoute<T extends PublicOperation>(
  kind: 'capture' | 'refund',
  command: OperationCommand<T>,
): RouteHandler {
  return async (context) => {
    const path = operationPath(context, []);
    if (path.isErr()) return err(path.error);
    const key = operationKey(context);
    if (key.isErr()) return err(key.error);
    const body = await readOptionalBody(context);
    if (body.isErr()) return err(body.error);
    const { profileId, paymentId } = path.value.target;
    const fields = { ...path.value.target, body: body.value };
    return ok(
      await runOperationPost(context, {
        key: key.value,
        resource: `/v1/profiles/${encodeURIComponent(profileId)}/payments/${encodeURIComponent(paymentId)}/${kind}s`,
        body: body.value,
        reserve: () => context.deps.engine.newOperationId(kind),
        run: (operationId) => command(context, fields, operationId),
        answer: (operation) => {
          const shown = operationUnder(context.basePath, operation);
          return jsonAnswer(201, shown, { location: shown._links.self.href });
        },
      }),
    );
  };
}
