import type { OperationKind } from '../../../src/domain/money-operation.js';
import { getOperationRoute, inBothForms, listOperationsRoute } from '../operation-reads.js';
import { createdOperation, operationPostRoute } from '../operation-request.js';
import type { RouteDefinition, RouteHandler } from '../route-context.js';

/**
 * `POST …/payments/{payment_id}/captures` `{ amount?, final? }`: 201 with the capture and `Location`
 * (docs/http-api.md, Captures). No body means all that is capturable, finally.
 */
const capturePaymentRoute = operationPostRoute({
  kind: 'capture',
  run: (context, target, body, captureId) =>
    context.deps.engine.capturePayment({ ...target, body, ...(captureId !== null && { captureId }) }),
  answer: createdOperation,
});

/**
 * `POST …/payments/{payment_id}/refunds` `{ amount?, reference?, description? }`: 201 with the
 * refund and `Location` (docs/http-api.md, Captures). No body means all that is refundable.
 */
const refundPaymentRoute = operationPostRoute({
  kind: 'refund',
  run: (context, target, body, refundId) =>
    context.deps.engine.refundPayment({ ...target, body, ...(refundId !== null && { refundId }) }),
  answer: createdOperation,
});

/**
 * A payment's captures or refunds: `POST …/{kind}s` (`create`), `GET …/{kind}s` and
 * `GET …/{kind}s/{{kind}_id}`, each in the profile and the partner form of the path.
 */
function operationRoutes(kind: Exclude<OperationKind, 'cancel'>, create: RouteHandler): readonly RouteDefinition[] {
  const collection = `${kind}s`;
  return [
    ...inBothForms('POST', [collection], create),
    ...inBothForms('GET', [collection], listOperationsRoute(kind)),
    ...inBothForms('GET', [collection, `:${kind}_id`], getOperationRoute(kind)),
  ];
}

/** The six routes of a payment's captures (`operationRoutes`). */
export const CAPTURE_ROUTES = operationRoutes('capture', capturePaymentRoute);

/** The six routes of a payment's refunds (`operationRoutes`). */
export const REFUND_ROUTES = operationRoutes('refund', refundPaymentRoute);
