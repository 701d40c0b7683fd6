import { err, ok } from 'neverthrow';
import { paymentUnder } from '../base-path.js';
import { jsonAnswer } from '../http-answer.js';
import { inBothForms } from '../operation-reads.js';
import { operationPath } from '../operation-request.js';
import { problemFromPaymentError } from '../problem-details.js';
import type { RouteHandler } from '../route-context.js';

/**
 * `GET /v1/profiles/{profile_id}/payments/{payment_id}` and
 * `GET /v1/partners/{partner_id}/profiles/{profile_id}/payments/{payment_id}` (the `_links.self`
 * path). Another partner in the path, or a payment of another profile: 404.
 */
const getPaymentRoute: RouteHandler = async (context) => {
  const path = operationPath(context, []);
  if (path.isErr()) return err(path.error);
  const found = await context.deps.engine.getPayment(path.value.target);
  if (found.isErr()) return err(problemFromPaymentError(found.error));
  return ok(jsonAnswer(200, paymentUnder(context.basePath, found.value)));
};

/** `GET …/payments/{payment_id}`, in the profile and the partner form of the path. */
export const [getPayment, getPartnerPayment] = inBothForms('GET', [], getPaymentRoute);
