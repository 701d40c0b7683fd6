import { setTimeout as delay } from 'node:timers/promises';
import { containsCardNumber } from '../../../src/domain/card-number.js';
import type { PaymentRecord } from '../../../src/domain/payment-record.js';
import { errorHeadline } from '../../../src/engine/describe-defect.js';
import { loggableId } from '../../../src/engine/loggable-id.js';
import { guardLogger, silentLogger, type Logger } from '../../../src/ports/logger.js';
import { normalizeBasePath } from '../base-path.js';
import type { PageContext } from '../page-context.js';
import { millisecondsOption } from '../milliseconds-option.js';
import { requestIdSource, servePageRequest } from '../request-id.js';
import { profileNameOf, STORE_TIMEOUT_MS } from '../store-deadline.js';
import { formatAmount } from './amount-format.js';
import { assetResponse } from './assets.js';
import { collectBrowserData, UNKNOWN_CLIENT_IP } from './browser-data.js';
import { errorsFromIssues, validateCardForm } from './card-form.js';
import { CARD_FIELDS, type CardField } from './card-messages.js';
import { normalizeClientIp } from './client-ip.js';
import { createCsrfGuard, CSRF_FIELD } from './csrf.js';
import { readFormBody } from './form-body.js';
import type { PaymentSummary } from './page-parts.js';
import { answerByMethod, htmlResponse, seeOther } from './page-response.js';
import type { HostedPageOptions } from './hosted-page-options.js';
import { pageTarget } from './page-target.js';
import { renderPaymentFormPage, type PaymentFormView } from './payment-form-page.js';
import { expiredPage, statePage, type StatusContext } from './state-pages.js';
import { renderStatusPage, type StatusPageView } from './status-page.js';

/**
 * Serves the hosted pages; undefined outside `basePath`. Runs under the `PageContext`'s request id,
 * else makes one (`requestId` option) and writes it on every answer.
 */
export type HostedPageHandler = (request: Request, context?: PageContext) => Promise<Response | undefined>;

/** One request the page serves: the request, its id, and a logger that puts the id on every line. */
interface PageCall {
  readonly request: Request;
  readonly requestId: string;
  readonly logger: Logger;
  /** When the page began to answer (the clock port's time), for the log line's `ms`. */
  readonly started: number;
}

const IN_FLIGHT: ReadonlySet<PaymentRecord['state']> = new Set(['authenticating', 'authorizing']);
/** A name to put back into the form: empty when it holds a card number. */
const refill = (name: string): string => (containsCardNumber(name) ? '' : name);

/**
 * The hosted payment page (docs/state-machine.md) as a fetch handler: `GET {basePath}/{id}?token=…`
 * shows the card form, `POST` submits it (then `303` to the challenge or the merchant). An unknown
 * payment and a wrong token get the same 404. Card data is never logged, stored or echoed.
 */
export function createHostedPageHandler(options: HostedPageOptions): HostedPageHandler {
  const basePath = normalizeBasePath(options.basePath ?? '/pay');
  // A logger that throws loses its line, never the answer.
  const logger = guardLogger(options.logger ?? silentLogger);
  const requestIds = requestIdSource(options.requestId, logger);
  const csrf = createCsrfGuard(options);
  const testMode = options.testCards !== undefined && options.testCards.length > 0;
  const settleTimeoutMs = options.settleTimeoutMs ?? 15_000;
  const storeTimeoutMs = millisecondsOption('storeTimeoutMs', options.storeTimeoutMs, STORE_TIMEOUT_MS);
  const now = () => options.clock.now();

  const log = (call: PageCall, paymentId: string | undefined, outcome: string) =>
    call.logger.info({ paymentId, outcome, ms: now() - call.started }, 'hosted page');

  async function summaryOf(record: PaymentRecord): Promise<PaymentSummary> {
    const merchantName = (await profileNameOf(options.credentials, record.profileId, storeTimeoutMs)) ?? 'the merchant';
    return {
      merchantName,
      amount: formatAmount(record.amount, record.currency, options.locale),
      description: record.description,
    };
  }

  /**
   * The record when `token` opens its page (`getHostedPageRecord`); undefined alike for an unknown
   * payment, a wrong token and a link that lapsed once the payment had been final for a while
   * (logged as `not_found`).
   */
  async function authorizedRecord(
    call: PageCall,
    paymentId: string,
    token: string,
  ): Promise<PaymentRecord | undefined> {
    const found = await options.engine.getHostedPageRecord({ paymentId, token, requestId: call.requestId });
    if (found.isErr()) {
      if (found.error.code !== 'not_found') throw new Error(`getHostedPageRecord failed: ${found.error.code}`);
      log(call, undefined, 'not_found');
      return undefined;
    }
    return found.value;
  }

  const isPastDeadline = (record: PaymentRecord) =>
    (record.state === 'awaiting_card_data' || record.state === 'awaiting_challenge') &&
    record.expiresAt !== null &&
    record.expiresAt <= now();

  /** A page with one message (tone `failure` unless `extra` says otherwise) and no payment details. */
  function messagePage(
    request: Request,
    status: number,
    heading: string,
    message: string,
    extra: Partial<StatusPageView> = {},
  ): Response {
    const view = { heading, message, tone: 'failure', icon: 'info', assetPrefix: 'assets/', testMode } as const;
    return htmlResponse(request, status, renderStatusPage({ ...view, ...extra }));
  }

  const notFound = (request: Request, assetPrefix = 'assets/') =>
    messagePage(
      request,
      404,
      'Payment page not found',
      'This payment link is incomplete or not valid. Open the link the shop gave you again, or go back to the shop.',
      { tone: 'neutral', assetPrefix },
    );

  async function formPage(
    request: Request,
    record: PaymentRecord,
    token: string,
    status: number,
    extra: Pick<PaymentFormView, 'values' | 'errors' | 'formError'> = {},
  ): Promise<Response> {
    const ticket = csrf.issue(request, [record.id, token]);
    const body = renderPaymentFormPage({
      ...(await summaryOf(record)),
      paymentId: record.id,
      token,
      csrf: ticket.field,
      redirectUrl: record.redirectUrl,
      assetPrefix: 'assets/',
      expiresInMs: record.expiresAt === null ? null : record.expiresAt - now(),
      ...extra,
      ...(options.testCards !== undefined && { testCards: options.testCards }),
    });
    return htmlResponse(request, status, body, ticket.setCookie);
  }

  /** The page of a payment, relative to itself: `{id}?token=…`. */
  const pageHref = (record: PaymentRecord, token: string) =>
    `${encodeURIComponent(record.id)}?token=${encodeURIComponent(token)}`;

  /** The page of a payment that no longer takes card data (`statePage`), or of one past its deadline. */
  async function statusPage(request: Request, record: PaymentRecord, token: string): Promise<Response> {
    const context: StatusContext = {
      summary: await summaryOf(record),
      redirectUrl: record.redirectUrl,
      assetPrefix: 'assets/',
      testMode,
      pageHref: pageHref(record, token),
    };
    const view = isPastDeadline(record) ? expiredPage(context) : statePage(record, context);
    return htmlResponse(request, 200, renderStatusPage(view));
  }

  /** Waits while another request's 3DS lookup or authorization runs, up to `settleTimeoutMs`. */
  async function settled(call: PageCall, record: PaymentRecord): Promise<PaymentRecord> {
    let current = record;
    // Wall time, not `options.clock`: it sleeps real time, and a test clock that stands still would never end it.
    const deadline = Date.now() + settleTimeoutMs;
    while (IN_FLIGHT.has(current.state) && current.authorizationStatus !== 'unknown' && Date.now() < deadline) {
      await delay(100);
      const again = await options.engine.getPaymentRecord(record.id, { requestId: call.requestId });
      if (again.isErr()) break;
      current = again.value;
    }
    return current;
  }

  /** After a post that found the payment no longer awaiting card data. */
  async function afterTheFact(call: PageCall, record: PaymentRecord, token: string): Promise<Response> {
    const { request } = call;
    const current = await settled(call, record);
    if (current.state === 'awaiting_challenge' && current.nextRedirect !== null && !isPastDeadline(current)) {
      return seeOther(current.nextRedirect);
    }
    if (IN_FLIGHT.has(current.state)) return seeOther(current.redirectUrl);
    return statusPage(request, current, token);
  }

  async function show(call: PageCall, paymentId: string): Promise<Response> {
    const { request } = call;
    const token = new URL(request.url).searchParams.get('token') ?? '';
    const record = await authorizedRecord(call, paymentId, token);
    if (record === undefined) return notFound(request);
    log(call, record.id, `view_${record.state}`);
    if (record.state === 'awaiting_card_data' && !isPastDeadline(record)) return formPage(request, record, token, 200);
    return statusPage(request, record, token);
  }

  async function submit(call: PageCall, paymentId: string): Promise<Response> {
    const { request } = call;
    const form = await readFormBody(request);
    if (form.isErr()) {
      log(call, loggableId(paymentId), form.error);
      const [status, heading] = form.error === 'too_large' ? [413, 'Form too large'] : [415, 'Form not understood'];
      return messagePage(request, status, heading, 'The form could not be read. Go back and try again.');
    }
    const { fields, unreadable } = form.value;
    const token = fields.get('token') ?? '';
    const record = await authorizedRecord(call, paymentId, token);
    if (record === undefined) return notFound(request);
    if (!csrf.verify(request, fields.get(CSRF_FIELD), [record.id, token])) {
      log(call, record.id, 'csrf_rejected');
      return messagePage(
        request,
        403,
        'Please try again',
        'For your security, the card form must be sent from the payment page itself, in the browser that opened it. Reload the payment page and enter your card details again.',
        { action: { href: pageHref(record, token), label: 'Reload the payment page' } },
      );
    }
    if (record.state !== 'awaiting_card_data' || isPastDeadline(record)) {
      log(call, record.id, `submit_${record.state}`);
      return afterTheFact(call, record, token);
    }

    const values = Object.fromEntries(CARD_FIELDS.map((name) => [name, fields.get(name) ?? ''])) as Record<
      CardField,
      string
    >;
    // Shown again in the form, never the card number or the CVC, nor a name holding a card number.
    const echo = {
      expiry: values.expiry.slice(0, 7),
      // Cut first, then check: cutting must not leave a card number behind to show again.
      holder_name: refill(Array.from(values.holder_name).slice(0, 45).join('')),
    };
    // A field sent in another charset than UTF-8 is wrong like any other, and not shown again.
    const card = validateCardForm(values, now(), unreadable);
    if (card.isErr()) {
      log(call, record.id, 'invalid_form');
      return formPage(request, record, token, 422, { values: echo, errors: card.error });
    }
    const ip = normalizeClientIp(options.clientIp(request));
    if (ip === undefined) call.logger.warn({ paymentId: record.id }, 'hosted page: client IP unknown, sending 0.0.0.0');
    const user = collectBrowserData(request, fields, ip ?? UNKNOWN_CLIENT_IP);

    const result = await options.engine.submitCard({
      paymentId: record.id,
      token,
      body: { creditcard: card.value, user },
      requestId: call.requestId,
    });
    if (result.isOk()) {
      const payment = result.value;
      const challenge = payment.next?.redirect;
      log(call, record.id, challenge !== undefined ? 'challenge' : `submitted_${payment.state}`);
      return seeOther(challenge ?? payment.session.redirect_url);
    }
    const { error } = result;
    log(call, record.id, `submit_${error.code}`);
    if (error.code === 'not_found') return notFound(request);
    if (error.code === 'validation_failed') {
      const mapped = errorsFromIssues(error.errors);
      const formError = mapped.form === undefined ? {} : { formError: mapped.form };
      return formPage(request, record, token, 422, { values: echo, errors: mapped.fields, ...formError });
    }
    const again = await options.engine.getPaymentRecord(record.id, { requestId: call.requestId });
    const current = again.isOk() ? again.value : record;
    if (current.state !== 'awaiting_card_data' || isPastDeadline(current)) return afterTheFact(call, current, token);
    const formError =
      'The payment could not be processed just now and your card has not been charged. Please try again.';
    return formPage(request, current, token, 503, { values: echo, formError });
  }

  /** The answer to a request under `basePath` (at `path`), without its `Request-Id`. */
  async function answer(call: PageCall, path: string): Promise<Response> {
    const { request } = call;
    const target = pageTarget(path, basePath);
    const prefix = target.assetPrefix;
    if (target.asset !== undefined) return assetResponse(target.asset, request.method) ?? notFound(request, prefix);
    const { paymentId } = target;
    if (paymentId === undefined) return notFound(request, prefix);
    return answerByMethod(
      request,
      { show: () => show(call, paymentId), submit: () => submit(call, paymentId) },
      (error) => {
        // Only the kind and a digit-masked message: nothing that could carry card data.
        const logged = { paymentId: loggableId(paymentId), error: errorHeadline(error) };
        call.logger.error(logged, 'hosted page: unexpected error');
        const text = 'The payment page is not available right now. Please try again in a moment.';
        return messagePage(request, 503, 'Something went wrong', text, { assetPrefix: prefix });
      },
    );
  }

  return async (request, context) => {
    const path = new URL(request.url).pathname;
    if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
    return servePageRequest(context, requestIds, logger, (requestId, log) =>
      answer({ request, requestId, logger: log, started: now() }, path),
    );
  };
}
