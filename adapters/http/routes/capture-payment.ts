import { err, ok } from 'neverthrow';
import { operationUnder } from '../base-path.js';
import { jsonAnswer } from '../http-answer.js';
import { inBothForms } from '../operation-reads.js';
import { operationKey, operationPath, readOptionalBody, runOperationPost } from '../operation-request.js';
import type { RouteHandler } from '../route-context.js';

/**
 * `POST …/payments/{payment_id}/captures` `{ amount?, final? }`: 201 with the capture and `Location`
 * (decisions.md section 8). No body means all that is capturable, finally. With an
 * `Idempotency-Key` the capture id is reserved first: a retry never captures twice.
 */
export const capturePaymentRoute: RouteHandler = async (context) => {
  const { client, deps } = context;
  const path = operationPath(context, []);
  if (path.isErr()) return err(path.error);
  const key = operationKey(context);
  if (key.isErr()) return err(key.error);
  const body = await readOptionalBody(context);
  if (body.isErr()) return err(body.error);
  const { profileId, paymentId } = path.value;
  return ok(
    await runOperationPost(context, {
      key: key.value,
      resource: `/v1/profiles/${encodeURIComponent(profileId)}/payments/${encodeURIComponent(paymentId)}/captures`,
      body: body.value,
      reserve: () => deps.engine.newOperationId('capture'),
      run: (captureId) =>
        deps.engine.capturePayment({
          paymentId,
          profileId,
          partnerId: client.partnerId,
          requestId: context.requestId,
          body: body.value,
          ...(captureId !== null && { captureId }),
        }),
      answer: (capture) => {
        const shown = operationUnder(context.basePath, capture);
        return jsonAnswer(201, shown, { location: shown._links.self.href });
      },
    }),
  );
};

/** `POST …/payments/{payment_id}/captures`, in the profile and the partner form of the path. */
export const [capturePayment, capturePartnerPayment] = inBothForms('POST', ['captures'], capturePaymentRoute);
