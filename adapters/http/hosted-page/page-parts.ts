import { html, raw, type SafeHtml } from './html.js';

/** What the top of a page says about the payment. */
export interface PaymentSummary {
  readonly merchantName: string;
  /** Formatted, e.g. `€19.99`. */
  readonly amount: string;
  readonly description: string | null;
}

/** The first letter of the merchant's name, for its monogram. */
function monogram(name: string): string {
  const first = [...name.trim()][0];
  return first === undefined ? '·' : first.toUpperCase();
}

/** The panel header: merchant, amount to pay, description. */
export function renderSummary(summary: PaymentSummary, label = 'Amount to pay'): SafeHtml {
  return html`<header class="summary">
    <p class="merchant">
      <span class="monogram" aria-hidden="true">${monogram(summary.merchantName)}</span
      ><span>${summary.merchantName}</span>
    </p>
    <p class="pay-label" id="amount-label">${label}</p>
    <p class="amount">${summary.amount}</p>
    ${summary.description !== null && summary.description.trim() !== '' && html`<p class="description">${summary.description}</p> `}
  </header>`;
}

const ICONS = {
  check:
    '<path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>',
  cross: '<path d="M7 7l10 10M17 7L7 17" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>',
  clock:
    '<circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 7.5V12l3 2" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  info: '<circle cx="12" cy="12" r="8.5" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 11v5.5M12 7.6v.1" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>',
  lock: '<rect x="5" y="10.5" width="14" height="10" rx="2" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8.5 10.5V8a3.5 3.5 0 017 0v2.5" fill="none" stroke="currentColor" stroke-width="1.8"/>',
} as const;

export type IconName = keyof typeof ICONS;

/** A decorative inline SVG icon (inline SVG is markup, not an image: no `img-src` needed). */
export function icon(name: IconName, size = 24): SafeHtml {
  return html`<svg width="${size}" height="${size}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    ${raw(ICONS[name])}
  </svg>`;
}
