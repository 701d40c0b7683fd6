import { html, type SafeHtml } from './html.js';
import { renderLayout } from './page-layout.js';
import { icon, renderSummary, type IconName, type PaymentSummary } from './page-parts.js';

export type StatusTone = 'success' | 'failure' | 'neutral';

export interface StatusPageView {
  readonly title: string;
  readonly heading: string;
  readonly message: string;
  readonly tone: StatusTone;
  readonly icon: IconName;
  /** The payment, when the page may say which one it is about. */
  readonly summary?: PaymentSummary;
  /** The main button, e.g. back to the merchant. */
  readonly action?: { readonly href: string; readonly label: string };
  readonly assetPrefix: string;
  readonly refreshSeconds?: number;
  readonly testMode?: boolean;
}

/** A page with one message and at most one button: payment finished, expired, in progress, not found. */
export function renderStatusPage(view: StatusPageView): string {
  const main: SafeHtml = html`<section class="panel" aria-labelledby="page-title">
    ${view.summary !== undefined && renderSummary(view.summary, 'Amount')}
    <div class="message">
      <div class="badge badge-${view.tone}">${icon(view.icon, 28)}</div>
      <h1 id="page-title">${view.heading}</h1>
      <p>${view.message}</p>
      ${view.action !== undefined && html`<a class="button" href="${view.action.href}">${view.action.label}</a> `}
    </div>
  </section>`;
  return renderLayout({
    title: view.title,
    main,
    assetPrefix: view.assetPrefix,
    ...(view.refreshSeconds !== undefined && { refreshSeconds: view.refreshSeconds }),
    ...(view.testMode !== undefined && { testMode: view.testMode }),
  });
}
