import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.1 level A and AA rules. */
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

/** One failed rule, short enough to read in a test failure. */
export interface AxeViolation {
  readonly rule: string;
  readonly impact: string | null | undefined;
  readonly help: string;
  readonly nodes: readonly { readonly target: string; readonly summary: string | undefined }[];
}

/**
 * Runs axe-core in `page` with the WCAG 2.1 A and AA rules and returns what failed. The pages'
 * CSP allows no inline script, so axe is not added as a `<script>` element (the page would
 * refuse it, as it should): Playwright evaluates its source in the page through the DevTools
 * protocol, which the CSP does not govern.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const options: RunOptions = { runOnly: { type: 'tag', values: [...WCAG_21_AA] }, resultTypes: ['violations'] };
  const results = await page.evaluate(
    (runOptions) =>
      (window as unknown as { axe: { run(context: Document, o: unknown): Promise<AxeResults> } }).axe.run(
        document,
        runOptions,
      ),
    options,
  );
  return results.violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({ target: node.target.join(' '), summary: node.failureSummary })),
  }));
}
