import { PAGE_ASSETS } from './assets.js';
import { html, type SafeHtml } from './html.js';

export interface LayoutOptions {
  readonly title: string;
  readonly main: SafeHtml;
  /** Relative URL prefix of the assets from the page (`assets/` for `{basePath}/{id}`). */
  readonly assetPrefix: string;
  /** Loads the page script (only the card form needs it). */
  readonly script?: boolean;
  /** Shows the "Test mode" marker. */
  readonly testMode?: boolean;
  /** Reloads the page after this many seconds (a payment still being processed). */
  readonly refreshSeconds?: number;
}

/**
 * The HTML document around every hosted page: metadata that keeps the page out of search
 * engines and its URL (which holds a token) out of `Referer`, the same-origin style sheet and
 * script, and a `<main>` landmark.
 */
export function renderLayout(options: LayoutOptions): string {
  const document = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="color-scheme" content="light" />
        <meta name="format-detection" content="telephone=no" />
        ${options.refreshSeconds !== undefined && html`<meta http-equiv="refresh" content="${options.refreshSeconds}" /> `}
        <title>${options.title}</title>
        <link rel="stylesheet" href="${options.assetPrefix}${PAGE_ASSETS.css.name}" />
        ${options.script === true && html`<script src="${options.assetPrefix}${PAGE_ASSETS.js.name}" defer></script> `}
      </head>
      <body>
        <main class="shell">
          ${options.testMode === true && html`<p class="test-mode">Test mode · no real money moves</p> `}${options.main}
        </main>
      </body>
    </html> `;
  return document.__html;
}
