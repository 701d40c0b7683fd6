import type { PaymentRecord } from '../../../src/domain/payment-record.js';
import type { PublicState } from '../../../src/domain/payment-state.js';
import { errorHeadline } from '../../../src/engine/describe-defect.js';
import { toPublicPayment } from '../../../src/engine/to-public-payment.js';
import { guardLogger } from '../../../src/ports/logger.js';
import { formatAmount } from '../hosted-page/amount-format.js';
import { html } from '../hosted-page/html.js';
import { answerByMethod, htmlResponse } from '../hosted-page/page-response.js';
import { renderStatusPage, type StatusPageView } from '../hosted-page/status-page.js';
import type { PagesHandler } from '../page-context.js';
import { requestIdSource, servePageRequest } from '../request-id.js';
import { profileNameOf } from '../store-deadline.js';
import { RETURN_PATH, type ReturnLinks } from './return-links.js';
import type { SandboxPageDeps } from './sandbox-page-deps.js';

/** The hosted page's style sheet and script, from `/sandbox/return`. */
const ASSET_PREFIX = '../pay/assets/';

/** How the page opens, by the state the API reads. */
const OPENINGS: Readonly<Record<PublicState, Pick<StatusPageView, 'heading' | 'tone' | 'icon' | 'message'>>> = {
  succeeded: { heading: 'Payment succeeded', tone: 'success', icon: 'check', message: 'The card was charged.' },
  failed: { heading: 'Payment failed', tone: 'failure', icon: 'cross', message: 'The card was not charged.' },
  expired: { heading: 'Payment expired', tone: 'neutral', icon: 'clock', message: 'It was not completed in time.' },
  processing: { heading: 'Payment in progress', tone: 'neutral', icon: 'clock', message: 'It is not finished yet.' },
};

/** A page of the sandbox's return page: its status and what it shows. */
interface PageView {
  readonly status: number;
  readonly view: StatusPageView;
}

const common = { assetPrefix: ASSET_PREFIX, testMode: true } as const;

function message(status: number, heading: string, text: string): PageView {
  return { status, view: { ...common, heading, message: text, tone: 'neutral', icon: 'info' } };
}

/** What the page shows of a payment: its state as the API reads it, the amount, and nothing of the cardholder. */
function paymentView(record: PaymentRecord, merchantName: string, href: string): PageView {
  const payment = toPublicPayment(record);
  const opening = OPENINGS[payment.state];
  const amount = formatAmount(payment.amount, payment.currency);
  const details = html`<dl class="facts">
      <dt>Payment</dt>
      <dd>${payment.id}</dd>
      <dt>State</dt>
      <dd id="payment-state">${payment.state}</dd>
      ${
        payment.failure_reason !== undefined &&
        html`<dt>Failure reason</dt>
          <dd>${payment.failure_reason}</dd>`
      }
    </dl>
    <p class="note">The API reads it at <code>GET /v1/profiles/${record.profileId}/payments/${payment.id}</code>.</p>
    ${payment.state === 'processing' && html`<p class="check-again"><a class="link" href="${href}">Check again</a></p>`}`;
  const message = `${opening.message} This is the sandbox's return page, standing in for your shop's.`;
  const summary = { merchantName, amount, description: payment.description ?? null };
  return { status: 200, view: { ...common, ...opening, message, summary, details } };
}

/**
 * The sandbox's return page, `GET /sandbox/return?payment_id=…&proof=…`: the payment's state,
 * amount and profile, nothing of the cardholder, and only with the proof of its own pages.
 */
export function createReturnPage(app: SandboxPageDeps, links: ReturnLinks): PagesHandler {
  const logger = guardLogger(app.logger);
  const requestIds = requestIdSource(undefined, logger);

  async function view(request: Request, requestId: string): Promise<PageView> {
    const query = new URL(request.url).searchParams;
    const paymentId = query.get('payment_id');
    const proof = query.get('proof');
    if (paymentId === null && proof === null) {
      return message(
        200,
        'Back from the payment page',
        'No payment is named here: the payment page’s “Cancel” link leads here without one. The payment itself, read with the API, says how it stands.',
      );
    }
    const notFound = message(
      404,
      'Payment not found',
      'This link does not name a payment this sandbox sent you back from.',
    );
    if (paymentId === null || proof === null || !links.verify(paymentId, proof)) return notFound;
    const found = await app.engine.getPaymentRecord(paymentId, { requestId });
    if (found.isErr()) {
      if (found.error.code === 'not_found') return notFound;
      throw new Error(`getPaymentRecord failed: ${found.error.code}`);
    }
    const merchant =
      (await profileNameOf(app.credentials, found.value.profileId, app.storeTimeoutMs)) ?? 'the merchant';
    // "Check again": this page, relative to itself (it also works below a mount prefix).
    return paymentView(found.value, merchant, `return${new URL(request.url).search}`);
  }

  return async (request, context) => {
    if (new URL(request.url).pathname !== RETURN_PATH) return undefined;
    return servePageRequest(context, requestIds, logger, async (requestId, log) => {
      const render = (shown: PageView) => {
        log.info({ status: shown.status }, 'sandbox return page');
        return htmlResponse(request, shown.status, renderStatusPage(shown.view));
      };
      return answerByMethod(request, { show: async () => render(await view(request, requestId)) }, (error) => {
        log.error({ error: errorHeadline(error) }, 'sandbox return page: unexpected error');
        return render(message(503, 'Something went wrong', 'This page is not available right now. Please try again.'));
      });
    });
  };
}
