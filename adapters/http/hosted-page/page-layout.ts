import { PAGE_ASSETS } from './assets.js';
import { html, type SafeHtml } from './html.js';

export interface LayoutOptions {
  readonly title: string;
  readonly main: SafeHtml;
  /** Relative URL prefix of the assets from the page (`assets/` for `{basePath}/{id}`). */
  readonly assetPrefix: string;
  /** Loads the page script (the card form, and a page that checks a payment in progress again). */
  readonly script?: boolean;
  /** Shows the "Test mode" marker. */
  readonly testMode?: boolean;
}

/**
 * The HTML document around every hosted page: kept out of search engines and `Referer`, same-origin
 * style and script, a `<main>` landmark; no meta refresh (WCAG 2.2.1: the script does it, stoppably).
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
