import { html, type SafeHtml } from './html.js';
import { renderLayout } from './page-layout.js';
import { icon, renderSummary, type IconName, type PaymentSummary } from './page-parts.js';

export type StatusTone = 'success' | 'failure' | 'neutral';

export interface StatusPageView {
  /** The document's title. Default: `heading`. */
  readonly title?: string;
  readonly heading: string;
  readonly message: string;
  readonly tone: StatusTone;
  readonly icon: IconName;
  /** The payment, when the page may say which one it is about. */
  readonly summary?: PaymentSummary;
  /** The main button, e.g. back to the merchant. */
  readonly action?: { readonly href: string; readonly label: string };
  readonly assetPrefix: string;
  /**
   * A payment still in progress: the page script opens `href` again every `seconds` (with a
   * button to stop that), and without it the cardholder follows the "Check again" link.
   */
  readonly refresh?: { readonly href: string; readonly seconds: number };
  readonly testMode?: boolean;
  /** More about the payment, below the message (the sandbox's return page). */
  readonly details?: SafeHtml;
}

/**
 * What the page script shows on a page that checks again by itself: how often, and a button
 * that stops it (WCAG 2.2.1). Hidden without the script, which does the checking.
 */
function renderRefresh(seconds: number): SafeHtml {
  return html`<div id="auto-refresh" class="refresh" data-seconds="${seconds}" hidden>
    <p id="refresh-note" role="status">This page checks for the result every ${seconds} seconds.</p>
    <button id="refresh-toggle" class="link-button" type="button">Stop checking automatically</button>
  </div>`;
}

/** A page with one message and at most one button: payment finished, expired, in progress, not found. */
export function renderStatusPage(view: StatusPageView): string {
  const main: SafeHtml = html`<section class="panel" aria-labelledby="page-title">
    ${view.summary !== undefined && renderSummary(view.summary, 'Amount')}
    <div class="message">
      <div class="badge badge-${view.tone}">${icon(view.icon, 28)}</div>
      <h1 id="page-title">${view.heading}</h1>
      <p>${view.message}</p>
      ${view.details}${view.refresh !== undefined && renderRefresh(view.refresh.seconds)}
      ${view.action !== undefined && html`<a class="button" href="${view.action.href}">${view.action.label}</a> `}
      ${view.refresh !== undefined && html`<p class="check-again"><a class="link" id="check-again" href="${view.refresh.href}">Check again</a></p> `}
    </div>
  </section>`;
  return renderLayout({
    title: view.title ?? view.heading,
    main,
    assetPrefix: view.assetPrefix,
    script: view.refresh !== undefined,
    ...(view.testMode !== undefined && { testMode: view.testMode }),
  });
}
