import { err, ok } from 'neverthrow';
import type { Payment } from '../domain/payment.js';
import { paymentError } from '../errors/payment-error.js';
import type { EngineContext } from './engine-context.js';
import { spanned } from './engine-context.js';
import { isPaymentId, loadPayment } from './load-payment.js';
import type { Outcome } from './outcome.js';
import { awaitPort, toPaymentError } from './run-port.js';
import { hostedPageLinkOf } from './page-link.js';
import { toPublicPayment, type PublicPaymentOptions } from './to-public-payment.js';

/** How a read shows payments: with the hosted page link made from `pageTokens`, when the engine has them. */
function shownWith(ctx: EngineContext): PublicPaymentOptions {
  const hostedPageLink = hostedPageLinkOf(ctx);
  return hostedPageLink === undefined ? {} : { hostedPageLink };
}

/** What `getPayment` reads: a payment of a profile (of another profile it is `not_found`). */
export interface GetPaymentQuery {
  /** The payment to read. */
  readonly paymentId: string;
  /** The profile it must belong to; the caller checks that the client holds it. */
  readonly profileId: string;
  /** When given (the `_links.self` path), the payment must also belong to this partner. */
  readonly partnerId?: string;
  /**
   * The id of the request this command serves (the HTTP API's `Request-Id`): put on every log line
   * this command writes, as `requestId`, and nowhere else (not in the record, its events or the
   * answer). Shown as it is when it is at most 200 characters and holds no card number, else as
   * `[redacted]` (`loggableId`). Default: none, and the lines are as without it.
   */
  readonly requestId?: string;
}

/** What `listPayments` reads: one page of a profile's payments, newest first. */
export interface ListPaymentsQuery {
  /** The profile whose payments to list; the caller checks that the client holds it. */
  readonly profileId: string;
  /**
   * When given, payments of the profile filed under another partner (before the profile
   * changed hands) are left out, by the repository: pages stay full, and neither the items nor
   * `next_cursor` name such a payment; an `after` naming one is refused as unknown.
   */
  readonly partnerId?: string;
  /** 1..100, default 20. */
  readonly limit?: number;
  /**
   * A payment of this list (the `next_cursor` of a page): returns the payments listed after it.
   * One that is not a payment of the profile (and of the partner, when given), whether it exists
   * elsewhere or nowhere, is `validation_failed` with path `after`, the same for both.
   */
  readonly after?: string;
  /**
   * The id of the request this command serves (the HTTP API's `Request-Id`): put on every log line
   * this command writes, as `requestId`, and nowhere else (not in the record, its events or the
   * answer). Shown as it is when it is at most 200 characters and holds no card number, else as
   * `[redacted]` (`loggableId`). Default: none, and the lines are as without it.
   */
  readonly requestId?: string;
}

/** A page of `listPayments`, as the API's list response spells it. */
export interface PaymentList {
  readonly items: readonly Payment[];
  /** Pass as `after` for the next page; absent on the last page. */
  readonly next_cursor?: string;
}

/** A payment of another profile or partner is `not_found`: its existence is never revealed. */
export async function getPayment(ctx: EngineContext, query: GetPaymentQuery): Outcome<Payment> {
  const loaded = await loadPayment(ctx, query.paymentId);
  if (loaded.isErr()) return err(loaded.error);
  const record = loaded.value;
  return record.profileId !== query.profileId || (query.partnerId !== undefined && record.partnerId !== query.partnerId)
    ? err(paymentError.notFound('Payment'))
    : ok(toPublicPayment(record, shownWith(ctx)));
}

export async function listPayments(ctx: EngineContext, query: ListPaymentsQuery): Outcome<PaymentList> {
  const limit = query.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return err(paymentError.validation([{ path: 'limit', message: 'Must be an integer from 1 to 100' }]));
  }
  const partnerId = query.partnerId;
  // Not of this list. The repository leaves such records out already; the engine checks again
  // (defence in depth): neither such a record nor a cursor naming it is shown, nor taken as `after`.
  const foreign = (record: { readonly profileId: string; readonly partnerId: string }): boolean =>
    record.profileId !== query.profileId || (partnerId !== undefined && record.partnerId !== partnerId);
  if (query.after !== undefined) {
    if (!isPaymentId(query.after)) {
      return err(
        paymentError.validation([
          { path: 'after', message: 'Must be a payment id (payment_ and 32 hex digits), as next_cursor gives it' },
        ]),
      );
    }
    // The repository answers an unknown cursor with an empty page, which reads as the end of the
    // list: a client with a wrong cursor would stop there, having missed the rest. Payments are
    // never deleted and never change profile or partner, so this check cannot go stale.
    const cursor = await loadPayment(ctx, query.after);
    if (cursor.isErr() && cursor.error.code !== 'not_found') return err(cursor.error);
    if (cursor.isErr() || foreign(cursor.value)) {
      return err(
        paymentError.validation([
          { path: 'after', message: 'Must be a payment of this list, as next_cursor gives it' },
        ]),
      );
    }
  }
  const listed = await awaitPort(
    () =>
      ctx.ports.repository.list({
        profileId: query.profileId,
        limit,
        ...(query.partnerId !== undefined ? { partnerId: query.partnerId } : {}),
        ...(query.after !== undefined ? { after: query.after } : {}),
      }),
    {
      timeoutMs: ctx.options.storageTimeoutMs,
      retries: ctx.options.retries,
      retryTimeouts: true,
      ...spanned(ctx, 'repository.list'),
    },
  );
  if (listed.isErr()) return err(toPaymentError('payment storage')(listed.error));
  const page = listed.value;
  const items = page.items.filter((record) => !foreign(record));
  const nextCursor = items.length === page.items.length ? page.nextCursor : null;
  const options = shownWith(ctx);
  return ok({
    items: items.map((record) => toPublicPayment(record, options)),
    ...(nextCursor !== null ? { next_cursor: nextCursor } : {}),
  });
}
