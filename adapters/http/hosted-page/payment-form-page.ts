import { BROWSER_FIELDS } from './browser-data.js';
import type { FieldErrors } from './card-form.js';
import { CARD_FIELD_LABELS, CARD_FIELDS, type CardField } from './card-messages.js';
import { CSRF_FIELD } from './csrf.js';
import { html, type SafeHtml } from './html.js';
import { renderLayout } from './page-layout.js';
import { icon, renderSummary, type PaymentSummary } from './page-parts.js';

/** A sandbox test card the page lists in test mode. */
export interface TestCardHint {
  readonly number: string;
  readonly label: string;
}

export interface PaymentFormView extends PaymentSummary {
  readonly paymentId: string;
  /** The page token, posted back in a hidden field. */
  readonly token: string;
  readonly csrf: string;
  readonly redirectUrl: string;
  readonly assetPrefix: string;
  /** How long the page has left before the payment expires (null: no deadline). */
  readonly expiresInMs: number | null;
  /** What the cardholder typed, echoed back after an error: never the card number or the CVC. */
  readonly values?: { readonly expiry?: string; readonly holder_name?: string };
  readonly errors?: FieldErrors;
  /** A problem with the form as a whole (e.g. a service that did not answer). */
  readonly formError?: string;
  readonly testCards?: readonly TestCardHint[];
}

interface FieldSpec {
  readonly name: CardField;
  readonly label: string;
  readonly attributes: SafeHtml;
  readonly hint?: SafeHtml;
  /** Shown at the end of the label row (the detected scheme). */
  readonly aside?: SafeHtml;
  readonly extra?: SafeHtml;
  readonly describedBy?: string;
}

function renderField(view: PaymentFormView, spec: FieldSpec, autofocus: boolean): SafeHtml {
  const message = view.errors?.[spec.name];
  const value = spec.name === 'expiry' || spec.name === 'holder_name' ? (view.values?.[spec.name] ?? '') : '';
  const describedBy = [`${spec.name}-error`, spec.describedBy].filter((id) => id !== undefined).join(' ');
  return html`<div class="field${message !== undefined && ' has-error'}">
    ${
      spec.aside === undefined
        ? html`<label for="${spec.name}">${spec.label}${spec.hint}</label>`
        : html`<div class="label-row"><label for="${spec.name}">${spec.label}${spec.hint}</label>${spec.aside}</div>`
    }
    <div class="control">
      <input
        id="${spec.name}"
        name="${spec.name}"
        ${spec.attributes}
        value="${value}"
        required
        aria-describedby="${describedBy}"
        ${message !== undefined && html` aria-invalid="true"`}${autofocus && html` autofocus`}
      />
      ${spec.extra}
    </div>
    <p id="${spec.name}-error" class="error" ${message === undefined && html` hidden`}>${message}</p>
  </div>`;
}

const FIELD_SPECS: Readonly<Record<CardField, FieldSpec>> = {
  number: {
    name: 'number',
    label: 'Card number',
    attributes: html`type="text" inputmode="numeric" autocomplete="cc-number" autocorrect="off" autocapitalize="off"
    spellcheck="false" maxlength="23" placeholder="1234 1234 1234 1234"`,
    aside: html`<span id="number-scheme" class="scheme" hidden></span>`,
    describedBy: 'number-scheme',
  },
  expiry: {
    name: 'expiry',
    label: 'Expiry',
    hint: html` <span class="hint">(MM/YY)</span>`,
    attributes: html`type="text" inputmode="numeric" autocomplete="cc-exp" autocorrect="off" spellcheck="false"
    maxlength="7" placeholder="MM/YY"`,
  },
  cvc: {
    name: 'cvc',
    label: 'Security code',
    attributes: html`type="text" inputmode="numeric" autocomplete="cc-csc" autocorrect="off" spellcheck="false"
    maxlength="4" placeholder="CVC"`,
    extra: html`<span id="cvc-hint" class="visually-hidden">3 digits on the back</span> `,
    describedBy: 'cvc-hint',
  },
  holder_name: {
    name: 'holder_name',
    label: 'Name on card',
    attributes: html`type="text" autocomplete="cc-name" autocapitalize="words" autocorrect="off" spellcheck="false"
    maxlength="45"`,
  },
};

/**
 * The error summary after a failed post. With a wrong field, the first wrong field takes the
 * focus (its message is its description); with only a problem of the form as a whole, the
 * summary does, so that focus lands on what went wrong rather than at the top of the page.
 */
function renderAlert(view: PaymentFormView): SafeHtml {
  const invalid = CARD_FIELDS.filter((name) => view.errors?.[name] !== undefined);
  if (invalid.length === 0 && view.formError === undefined) return html``;
  return html`<div class="alert" id="form-alert" role="alert" tabindex="-1" ${invalid.length === 0 && html` autofocus`}>
    ${view.formError !== undefined && html`<p>${view.formError}</p> `}${
      invalid.length > 0 &&
      html`<p>Please check the card details:</p>
        <ul>
          ${invalid.map((name) => html`<li><a href="#${name}">${CARD_FIELD_LABELS[name]}</a>: ${view.errors?.[name]}</li>`)}
        </ul> `
    }
  </div> `;
}

function renderTestCards(cards: readonly TestCardHint[] | undefined): SafeHtml {
  if (cards === undefined || cards.length === 0) return html``;
  return html`<details class="test-cards">
    <summary>Sandbox test cards</summary>
    <p>Any future expiry date and any security code of the right length.</p>
    <dl>
      ${cards.map(
        (card) =>
          html`<dt>${card.number.replace(/(\d{4})(?=\d)/g, '$1 ')}</dt>
            <dd>${card.label}</dd>`,
      )}
    </dl>
  </details> `;
}

/**
 * How long the cardholder has (WCAG 2.2.1): said up front, and kept up to date by the page script,
 * which also warns in `#time-warning` (an alert) shortly before the payment expires.
 */
function renderTimeLimit(expiresInMs: number | null): SafeHtml {
  if (expiresInMs === null || expiresInMs <= 0) return html``;
  const minutes = Math.max(1, Math.ceil(expiresInMs / 60_000));
  return html`<p id="time-limit" class="time-limit" data-expires-in="${Math.floor(expiresInMs)}">
      You have ${minutes} minute${minutes === 1 ? '' : 's'} to complete this payment.
    </p>
    <p id="time-warning" class="time-warning" role="alert"></p> `;
}

/** The hosted payment page: the payment summary and the card form. */
export function renderPaymentFormPage(view: PaymentFormView): string {
  const firstInvalid = CARD_FIELDS.find((name) => view.errors?.[name] !== undefined);
  const failed = firstInvalid !== undefined || view.formError !== undefined;
  const main = html`<section class="panel" aria-labelledby="page-title">
      <h1 id="page-title" class="visually-hidden">Pay ${view.merchantName}</h1>
      ${renderSummary(view)}
      <form
        id="card-form"
        method="post"
        action="${encodeURIComponent(view.paymentId)}"
        autocomplete="on"
        aria-busy="false"
      >
        ${renderAlert(view)}${renderTimeLimit(view.expiresInMs)}
        <input type="hidden" name="token" value="${view.token}" />
        <input type="hidden" name="${CSRF_FIELD}" value="${view.csrf}" />
        ${BROWSER_FIELDS.map((name) => html`<input type="hidden" name="${name}" value="${name === 'javascript_enabled' ? 'false' : ''}" /> `)}${renderField(view, FIELD_SPECS.number, firstInvalid === 'number')}
        <div class="row">
          ${renderField(view, FIELD_SPECS.expiry, firstInvalid === 'expiry')}
          ${renderField(view, FIELD_SPECS.cvc, firstInvalid === 'cvc')}
        </div>
        ${renderField(view, FIELD_SPECS.holder_name, firstInvalid === 'holder_name')}
        <button id="pay-button" class="pay" type="submit">
          <span class="spinner" aria-hidden="true"></span><span class="pay-text-idle">Pay ${view.amount}</span
          ><span class="pay-text-busy">Processing…</span>
        </button>
        <p id="pay-status" class="status" role="status" aria-live="polite"></p>
        <p id="field-status" class="visually-hidden" role="status" aria-live="polite"></p>
        <p class="secure">
          ${icon('lock', 16)}<span>Secure payment. Your card number and security code are never stored.</span>
        </p>
      </form>
    </section>
    ${renderTestCards(view.testCards)}
    <p class="back"><a href="${view.redirectUrl}">Cancel and return to ${view.merchantName}</a></p>`;
  return renderLayout({
    // The title tells a page that came back with errors from the one first shown (WCAG 2.4.2, 3.3.1).
    title: `${failed ? 'Error: ' : ''}Pay ${view.amount} to ${view.merchantName}`,
    main,
    assetPrefix: view.assetPrefix,
    script: true,
    testMode: view.testCards !== undefined && view.testCards.length > 0,
  });
}
