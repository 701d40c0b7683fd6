import { err, ok, type Result } from 'neverthrow';
import { paymentUnder } from '../base-path.js';
import { jsonAnswer } from '../http-answer.js';
import { inBothForms } from '../operation-reads.js';
import { operationPostRoute } from '../operation-request.js';
import type { Problem } from '../problem-details.js';
import { validationProblem } from '../query-params.js';
import { finalizeIssues } from '../../../src/schemas/validation-issues.js';

/** The cancel takes no fields: no body, an empty one or `{}`; anything else is a 400. */
function checkEmptyBody(body: unknown): Result<void, Problem> {
  if (body === undefined) return ok(undefined);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return err(validationProblem([{ path: '', message: 'Must be a JSON object without fields, or no body' }]));
  }
  const names = Object.keys(body).sort();
  if (names.length === 0) return ok(undefined);
  return err(validationProblem(finalizeIssues(names.map((name) => ({ path: [name], message: 'Unknown field' })))));
}

/**
 * `POST …/payments/{payment_id}/cancel`: 200 with the payment after it (docs/http-api.md, Captures). A
 * manual authorization has what is uncaptured voided; a payment still waiting for the cardholder
 * becomes `failed` / `canceled`; anything else is 409 `payment_not_cancelable`.
 */
const cancelPaymentRoute = operationPostRoute({
  kind: 'cancel',
  checkBody: checkEmptyBody,
  run: async ({ deps }, target, _body, cancelId, takeover) => {
    const done = await deps.engine.cancelPayment({ ...target, ...(cancelId !== null && { cancelId }) });
    if (done.isOk() || !takeover || done.error.code !== 'payment_not_cancelable') return done;
    // A payment waiting for the cardholder is canceled without an operation under `cancelId`:
    // after a takeover, the stale attempt may have canceled it; the answer is the canceled payment.
    const now = await deps.engine.getPayment(target);
    return now.isOk() && now.value.state === 'failed' && now.value.failure_reason === 'canceled' ? now : done;
  },
  answer: (context, payment) => jsonAnswer(200, paymentUnder(context.basePath, payment)),
});

/** `POST …/payments/{payment_id}/cancel`, in the profile and the partner form of the path. */
export const [cancelPayment, cancelPartnerPayment] = inBothForms('POST', ['cancel'], cancelPaymentRoute);
