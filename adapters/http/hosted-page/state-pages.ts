import type { PaymentRecord } from '../../../src/domain/payment-record.js';
import type { PaymentSummary } from './page-parts.js';
import type { StatusPageView } from './status-page.js';

/** What every status page of one payment shares. */
export interface StatusContext {
  readonly summary: PaymentSummary;
  readonly redirectUrl: string;
  readonly assetPrefix: string;
  readonly testMode: boolean;
  /** The page's own URL (relative, with the token): where a payment in progress is checked again. */
  readonly pageHref: string;
}

const back = (context: StatusContext) => ({
  href: context.redirectUrl,
  label: `Return to ${context.summary.merchantName}`,
});

const FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  authentication_refused: 'The payment was not confirmed with your bank, so it was not made.',
  authentication_rejected: 'Your bank did not allow this payment to be authenticated, so it was not made.',
  declined: 'Your card was declined. You have not been charged.',
  insufficient_funds: 'Your card was declined. You have not been charged.',
  expired_card: 'Your card was declined because it has expired. You have not been charged.',
  invalid_card: 'Your card was declined. You have not been charged.',
  processing_error: 'The payment could not be processed. You have not been charged.',
};

/** The page of a payment that has expired, whatever its record still says. */
export function expiredPage(context: StatusContext): StatusPageView {
  return {
    title: 'Payment expired',
    heading: 'This payment has expired',
    message: `The time to complete it has run out. Return to ${context.summary.merchantName} to start again.`,
    tone: 'neutral',
    icon: 'clock',
    summary: context.summary,
    action: back(context),
    assetPrefix: context.assetPrefix,
    testMode: context.testMode,
  };
}

/**
 * The page for a payment that no longer takes card data: finished (succeeded, failed,
 * expired), in progress (refreshes itself), or waiting for the cardholder at the issuer. Every
 * one leads back to `session.redirect_url`, or on to the issuer's page.
 */
export function statePage(record: PaymentRecord, context: StatusContext): StatusPageView {
  const common = { summary: context.summary, assetPrefix: context.assetPrefix, testMode: context.testMode };
  switch (record.state) {
    case 'succeeded':
      return {
        ...common,
        heading: 'Payment complete',
        message: `You paid ${context.summary.amount} to ${context.summary.merchantName}. You will not be charged again.`,
        tone: 'success',
        icon: 'check',
        action: back(context),
      };
    case 'failed':
      return {
        ...common,
        heading: 'Payment not completed',
        message:
          FAILURE_MESSAGES[record.failureReason ?? 'processing_error'] ?? FAILURE_MESSAGES['processing_error'] ?? '',
        tone: 'failure',
        icon: 'cross',
        action: back(context),
      };
    case 'expired':
      return expiredPage(context);
    case 'awaiting_challenge':
      return {
        ...common,
        title: 'Confirm with your bank',
        heading: 'Confirm the payment with your bank',
        message: 'Your bank asks you to confirm this payment before it is made.',
        tone: 'neutral',
        icon: 'lock',
        ...(record.nextRedirect !== null
          ? { action: { href: record.nextRedirect, label: 'Continue to your bank' } }
          : { action: back(context) }),
      };
    case 'authenticating':
    case 'authorizing':
    case 'awaiting_card_data':
      return {
        ...common,
        title: 'Processing payment',
        heading: 'Your payment is being processed',
        message: `This usually takes a few seconds. You can also return to ${context.summary.merchantName}, which will show the result.`,
        tone: 'neutral',
        icon: 'clock',
        action: back(context),
        refresh: { href: context.pageHref, seconds: 3 },
      };
  }
}
