import type { PaymentRecord } from '../../../src/domain/payment-record.js';
import { errorHeadline } from '../../../src/engine/describe-defect.js';
import { loggableId } from '../../../src/engine/loggable-id.js';
import { guardLogger, type Logger } from '../../../src/ports/logger.js';
import { formatAmount } from '../hosted-page/amount-format.js';
import { SCHEME_LABELS } from '../hosted-page/card-messages.js';
import { createCsrfGuard, CSRF_FIELD } from '../hosted-page/csrf.js';
import { readFormBody } from '../hosted-page/form-body.js';
import { html, raw, type SafeHtml } from '../hosted-page/html.js';
import { answerByMethod, htmlResponse, seeOther } from '../hosted-page/page-response.js';
import { decodeSegment } from '../hosted-page/page-target.js';
import { cspHash, pageSecurityHeaders } from '../hosted-page/security-headers.js';
import type { PagesHandler } from '../page-context.js';
import { requestIdSource, servePageRequest } from '../request-id.js';
import { profileNameOf } from '../store-deadline.js';
import type { ChallengeDecision, SandboxChallenge } from '../../sandbox/index.js';
import type { SandboxPageDeps } from './sandbox-page-deps.js';

const ISSUER_PAGE = /^\/sandbox\/issuer\/challenge\/([^/]+)\/([^/]+)$/;

const STYLE = `
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; font-size: 16px; line-height: 1.5; color: #0f172a; background: #e2e8f0; }
.shell { min-height: 100vh; display: flex; flex-direction: column; align-items: center; padding: 56px 16px 40px; }
.panel { width: 100%; max-width: 420px; background: #fff; border-radius: 14px; overflow: hidden; box-shadow: 0 1px 2px rgba(15,23,42,.08), 0 12px 32px rgba(15,23,42,.12); }
.bank { display: flex; align-items: center; justify-content: space-between; gap: 12px; padding: 16px 24px; background: #0f172a; color: #f8fafc; }
.bank-name { display: flex; align-items: center; gap: 10px; font-weight: 700; letter-spacing: .01em; }
.bank-mark { width: 28px; height: 28px; border-radius: 8px; display: grid; place-items: center; background: #14b8a6; color: #042f2e; font-size: .9rem; }
.secure { font-size: .8125rem; color: #cbd5e1; }
.content { padding: 24px 24px 28px; }
h1 { margin: 0 0 6px; font-size: 1.375rem; line-height: 1.3; }
.lead { margin: 0 0 18px; color: #334155; }
dl { display: grid; grid-template-columns: auto 1fr; align-items: baseline; gap: 10px 16px; margin: 0 0 20px; padding: 16px; border-radius: 10px; background: #f1f5f9; }
dt { color: #475569; }
dd { margin: 0; font-weight: 600; text-align: right; overflow-wrap: anywhere; }
.amount { font-size: 1.25rem; font-variant-numeric: tabular-nums; }
.buttons { display: grid; gap: 10px; }
button, .button { display: flex; align-items: center; justify-content: center; width: 100%; min-height: 50px; border-radius: 10px; font: inherit; font-weight: 600; cursor: pointer; text-decoration: none; }
.authorise { border: 0; background: #0f766e; color: #fff; }
.authorise:hover { background: #115e59; }
.refuse { border: 1px solid #64748b; background: #fff; color: #0f172a; }
.refuse:hover { background: #f1f5f9; }
button:focus-visible, .button:focus-visible, a:focus-visible { outline: 3px solid #0f766e; outline-offset: 3px; }
.button { border: 0; background: #0f172a; color: #fff; }
.note { margin: 8px 0 0; font-size: .8125rem; color: #475569; }
.status { min-height: 1.25em; margin: 8px 0 0; font-size: .875rem; text-align: center; color: #334155; }
.status:empty { min-height: 0; margin: 0; }
.problem { margin: 0 0 18px; padding: 12px 14px; border-radius: 10px; border: 1px solid #b91c1c; background: #fef2f2; color: #7f1d1d; }
.sandbox { margin: 16px 0 0; font-size: .8125rem; color: #334155; text-align: center; max-width: 420px; }
[aria-busy="true"] button { cursor: progress; opacity: .85; }
@media (max-width: 480px) { .shell { padding: 16px 12px 28px; } .content { padding: 20px 18px 24px; } .bank { padding: 14px 18px; } }
`;

const SCRIPT = `(function () {
  var form = document.getElementById('challenge-form');
  if (!form) return;
  var sent = false;
  form.addEventListener('submit', function (event) {
    if (sent) { event.preventDefault(); return; }
    sent = true;
    form.setAttribute('aria-busy', 'true');
    var status = document.getElementById('challenge-status');
    if (status) status.textContent = 'Sending your answer to the shop…';
  });
})();`;

const HEADERS = pageSecurityHeaders({ style: [cspHash(STYLE)], script: [cspHash(SCRIPT)] });
/** One interpolation, so that no formatter can add a byte inside the elements whose hashes the CSP lists. */
const INLINE_HEAD = raw(`<style>${STYLE}</style><script>${SCRIPT}</script>`);

function page(request: Request, status: number, title: string, content: SafeHtml, setCookie?: string): Response {
  const body = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${title} · Sandbox Bank</title>
        ${INLINE_HEAD}
      </head>
      <body>
        <main class="shell">
          <section class="panel" aria-labelledby="page-title">
            <div class="bank">
              <span class="bank-name"><span class="bank-mark" aria-hidden="true">SB</span>Sandbox Bank</span
              ><span class="secure">3-D Secure</span>
            </div>
            <div class="content">${content}</div>
          </section>
          <p class="sandbox">
            This is the simulated issuer of the paystate sandbox. A real bank would ask for a code or a confirmation in
            its app.
          </p>
        </main>
      </body>
    </html> `.__html;
  return htmlResponse(request, status, body, setCookie, HEADERS);
}

/** A page with one message, and a button to `link` if given (by default back to the shop at `link.href`). */
function message(
  request: Request,
  status: number,
  heading: string,
  text: string,
  link?: { readonly href: string; readonly label?: string },
): Response {
  return page(
    request,
    status,
    heading,
    html`<h1 id="page-title">${heading}</h1>
      <p class="lead">${text}</p>
      ${link !== undefined && html`<a class="button" href="${link.href}">${link.label ?? 'Return to the shop'}</a>`}`,
  );
}

function notFound(request: Request): Response {
  return message(request, 404, 'Request not found', 'This authentication request does not exist.');
}

export interface IssuerPageOptions {
  /** HMAC key of the form's CSRF proof (at least 32 characters). */
  readonly csrfSecret: string;
  /**
   * Makes the id of a request when no `PageContext` gives one, as the hosted page's option of
   * that name does. Default `req_` and 32 lowercase hex digits.
   */
  readonly requestId?: () => string;
}

/** One request for the page of a challenge: the payment and transaction of its path, its id and logger. */
interface IssuerCall {
  readonly request: Request;
  readonly paymentId: string;
  readonly transactionId: string;
  readonly requestId: string;
  readonly log: Logger;
}

/**
 * The simulated issuer's challenge page, `/sandbox/issuer/challenge/{payment_id}/{transaction_id}`:
 * "Authorise" or "Refuse" goes back to the engine as a signed `cres`, then to `session.redirect_url`.
 */
export function createIssuerPageHandler(app: SandboxPageDeps, options: IssuerPageOptions): PagesHandler {
  const csrf = createCsrfGuard(options);
  const logger = guardLogger(app.logger);
  const requestIds = requestIdSource(options.requestId, logger);

  async function load(call: IssuerCall): Promise<{ record: PaymentRecord; challenge: SandboxChallenge } | undefined> {
    const { paymentId, transactionId, requestId } = call;
    const challenge = await app.threeDS.challenge(paymentId, transactionId);
    // A store that failed: the page's own 503 (`serve`), not "not found", so the cardholder retries.
    if (challenge.isErr()) throw new Error(challenge.error.message);
    if (challenge.value === null) return undefined;
    const found = await app.engine.getPaymentRecord(paymentId, { requestId });
    if (found.isErr() || found.value.threeDS?.transactionId !== transactionId) return undefined;
    return { record: found.value, challenge: challenge.value };
  }

  /**
   * Whether the cardholder may still answer: the payment waits for this challenge, in time. An
   * answer the 3DS server already recorded is offered again, and only it (authorizing is once).
   */
  const isOpen = (record: PaymentRecord) =>
    record.state === 'awaiting_challenge' && (record.expiresAt === null || record.expiresAt > app.clock.now());

  /** The decision the 3DS server recorded for this challenge, if it has one. */
  const recorded = (challenge: SandboxChallenge): ChallengeDecision | undefined =>
    challenge.status === 'authorised' ? 'authorise' : challenge.status === 'refused' ? 'refuse' : undefined;

  /**
   * The challenge page, or the page that says it has ended. With `problem`, the cardholder's
   * answer did not get through: the page asks to try again, with the button to send it again.
   */
  async function show(
    call: IssuerCall,
    problem?: { readonly status: number; readonly text: string },
  ): Promise<Response> {
    const { request, paymentId, transactionId } = call;
    const found = await load(call);
    if (found === undefined) return notFound(request);
    const { record, challenge } = found;
    if (!isOpen(record)) {
      return message(
        request,
        200,
        'This request has ended',
        'This payment no longer needs your confirmation. The shop will show you its result.',
        { href: record.redirectUrl },
      );
    }
    const merchant = (await profileNameOf(app.credentials, record.profileId, app.storeTimeoutMs)) ?? record.profileId;
    const minutes =
      record.expiresAt === null ? null : Math.max(1, Math.ceil((record.expiresAt - app.clock.now()) / 60_000));
    const ticket = csrf.issue(request, [paymentId, transactionId]);
    const answered = recorded(challenge);
    const heading = problem === undefined ? 'Confirm this payment' : 'Please try again';
    const lead =
      answered !== undefined
        ? `You chose to ${answered === 'authorise' ? 'authorise' : 'refuse'} this payment, but your answer has not reached the shop yet. Send it again to finish.`
        : challenge.reason === 'data_mismatch'
          ? 'We could not confirm it is you automatically. Please check the payment below.'
          : 'Check the payment below and confirm that it is you paying.';
    const content = html`<h1 id="page-title">${heading}</h1>
      ${problem !== undefined && html`<p class="problem" role="alert">${problem.text}</p>`}
      <p class="lead">${lead}</p>
      <dl>
        <dt>Merchant</dt>
        <dd>${merchant}</dd>
        <dt>Amount</dt>
        <dd class="amount">${formatAmount(challenge.amount, challenge.currency)}</dd>
        <dt>Card</dt>
        <dd>${SCHEME_LABELS[challenge.scheme] ?? challenge.scheme} •••• ${challenge.last4}</dd>
      </dl>
      <form id="challenge-form" method="post" action="${encodeURIComponent(transactionId)}" aria-busy="false">
        <input type="hidden" name="${CSRF_FIELD}" value="${ticket.field}" />
        <div class="buttons">
          ${answered !== 'refuse' && html`<button class="authorise" type="submit" name="decision" value="authorise">Authorise</button>`}
          ${answered !== 'authorise' && html`<button class="refuse" type="submit" name="decision" value="refuse">Refuse</button>`}
        </div>
        <p id="challenge-status" class="status" role="status" aria-live="polite"></p>
      </form>
      ${minutes !== null && html`<p class="note">This request expires in ${minutes} minute${minutes === 1 ? '' : 's'}. If you do nothing, the payment is not made.</p>`}`;
    return page(request, problem?.status ?? 200, heading, content, ticket.setCookie);
  }

  async function answer(call: IssuerCall): Promise<Response> {
    const { request, paymentId, transactionId, requestId, log } = call;
    const form = await readFormBody(request);
    const found = await load(call);
    if (found === undefined) return notFound(request);
    const { record, challenge } = found;
    if (form.isErr())
      return message(request, 400, 'Not understood', 'The answer could not be read.', { href: record.redirectUrl });
    const { fields } = form.value;
    if (!csrf.verify(request, fields.get(CSRF_FIELD), [paymentId, transactionId])) {
      log.info({ paymentId, outcome: 'csrf_rejected' }, 'sandbox issuer');
      const text = 'For your security, answer from the page your bank showed you, in the same browser.';
      return message(request, 403, 'Please try again', text, {
        href: encodeURIComponent(transactionId),
        label: 'Reload the request',
      });
    }
    const decision = fields.get('decision');
    if (decision !== 'authorise' && decision !== 'refuse') {
      return show(call);
    }
    const answered = recorded(challenge);
    // The other answer to a challenge the 3DS server has recorded an answer for (from a page
    // opened before): it would refuse it, so the page offers the recorded one again.
    if (answered !== undefined && answered !== decision && isOpen(record)) {
      return show(call);
    }
    const cres = app.challengeResponse(paymentId, transactionId, decision);
    const result = await app.engine.completeChallenge({ paymentId, transactionId, cres, requestId });
    log.info(
      { paymentId, decision, outcome: result.isOk() ? result.value.state : result.error.code },
      'sandbox issuer',
    );
    // The answer did not get through (storage or the 3DS server did not answer): while the
    // payment still waits for it, the cardholder may send it again rather than be sent away.
    if (result.isErr() && (result.error.code === 'unavailable' || result.error.code === 'internal_error')) {
      const retry = await show(call, {
        status: 503,
        text: 'Your answer could not be passed on to the shop just now. Nothing has been charged.',
      });
      if (retry.status === 503) return retry;
    }
    // Whatever else happened (accepted, refused, too late, already answered), the cardholder goes
    // back to the merchant: the payment record, not this redirect, tells the outcome.
    return seeOther(record.redirectUrl);
  }

  return async (request, context) => {
    const match = ISSUER_PAGE.exec(new URL(request.url).pathname);
    if (match === null) return undefined;
    const paymentId = decodeSegment(match[1] ?? '');
    const transactionId = decodeSegment(match[2] ?? '');
    return servePageRequest(context, requestIds, logger, async (requestId, log) => {
      if (paymentId === undefined || transactionId === undefined) return notFound(request);
      const call: IssuerCall = { request, paymentId, transactionId, requestId, log };
      return answerByMethod(
        request,
        { show: () => show(call), submit: () => answer(call) },
        (error) => {
          // A store that threw (rather than answered with an error): the page's own 503, with its
          // headers, instead of the API's JSON problem document. Nothing that could carry card data.
          log.error(
            { paymentId: loggableId(paymentId), error: errorHeadline(error) },
            'sandbox issuer: unexpected error',
          );
          return message(
            request,
            503,
            'Something went wrong',
            'This page is not available right now. Please try again.',
          );
        },
        HEADERS,
      );
    });
  };
}
