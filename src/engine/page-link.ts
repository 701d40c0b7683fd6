import { err, ok } from 'neverthrow';
import type { PaymentRecord } from '../domain/payment-record.js';
import { isFinalState } from '../domain/payment-state.js';
import { paymentError } from '../errors/payment-error.js';
import { constantTimeEqual } from './constant-time-equal.js';
import type { EngineContext } from './engine-context.js';
import { loadPayment } from './load-payment.js';
import type { Outcome } from './outcome.js';

/** What `getHostedPageRecord` reads: a payment, by the token of its hosted page link. */
export interface HostedPageQuery {
  /** The payment whose page is asked for. */
  readonly paymentId: string;
  /** The token its link carries. */
  readonly token: string;
  /**
   * The id of the request this read serves (the hosted page's `Request-Id`): put on every log
   * line it writes, as `requestId`, and nowhere else. Default: none.
   */
  readonly requestId?: string;
}

/**
 * The link to `paymentId`'s hosted page made from the engine's `pageTokens`, or undefined without
 * them (a random token is then stored, and the stored link is the link).
 */
export function hostedPageLinkOf(ctx: EngineContext): ((paymentId: string) => string) | undefined {
  const tokens = ctx.ports.pageTokens;
  if (tokens === undefined) return undefined;
  const url = ctx.options.hostedPageUrl;
  return (id) => url({ id, token: tokens.tokenFor(id) });
}

/**
 * Whether `token` opens `record`'s hosted page: compared in constant time with the stored token,
 * or, when none is stored, with `pageTokens.tokenFor(id)`. Never for a direct-flow payment.
 */
export function opensHostedPage(ctx: EngineContext, record: PaymentRecord, token: string): boolean {
  // A token that is no string comes from plain JavaScript: it opens nothing.
  if (record.flow !== 'hosted' || typeof token !== 'string' || token === '') return false;
  if (record.hostedToken !== null) return constantTimeEqual(record.hostedToken, token);
  const tokens = ctx.ports.pageTokens;
  return tokens !== undefined && constantTimeEqual(tokens.tokenFor(record.id), token);
}

/** Whether `record` has been final for longer than `hostedPageLinkGraceMs`: its link no longer works. */
export function hostedPageLinkLapsed(ctx: EngineContext, record: PaymentRecord): boolean {
  return isFinalState(record.state) && ctx.ports.clock.now() - record.updatedAt > ctx.options.hostedPageLinkGraceMs;
}

/**
 * The payment whose hosted page link `query` holds: `not_found` alike for an unknown payment, a
 * wrong token, a direct-flow payment and a link that lapsed (`hostedPageLinkLapsed`).
 */
export async function loadHostedPage(ctx: EngineContext, query: HostedPageQuery): Outcome<PaymentRecord> {
  const loaded = await loadPayment(ctx, query.paymentId);
  if (loaded.isErr()) return err(loaded.error);
  const record = loaded.value;
  if (!opensHostedPage(ctx, record, query.token) || hostedPageLinkLapsed(ctx, record)) {
    return err(paymentError.notFound('Payment'));
  }
  return ok(record);
}
