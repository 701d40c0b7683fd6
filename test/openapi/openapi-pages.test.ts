import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caseInsensitivePattern,
  createOpenApiDocument,
  createOpenApiPages,
  REFERENCE_PAGE_STYLE,
  renderReferencePage,
} from '../../adapters/http/openapi/index.js';
import { startSandboxServer, type SandboxServer } from '../../adapters/sandbox-server/index.js';
import { BCP47 } from '../../src/schemas/browser-data.js';
import { NUM_RUNS } from '../support/property-runs.js';

const pages = createOpenApiPages();
const fetchPage = (path: string, method = 'GET') => pages(new Request(`http://pay.example:8080${path}`, { method }));

describe('createOpenApiPages', () => {
  it('serves the document at /openapi.json, naming the server the request reached', async () => {
    const response = await fetchPage('/openapi.json');
    expect(response?.status).toBe(200);
    expect(response?.headers.get('content-type')).toBe('application/json');
    const served = (await response?.json()) as ReturnType<typeof createOpenApiDocument>;
    expect(served).toEqual({
      ...createOpenApiDocument(),
      servers: [{ url: 'http://pay.example:8080', description: 'This server' }],
    });
  });

  it('serves the reference page at /docs with a strict CSP that allows exactly its own style', async () => {
    const response = await fetchPage('/docs');
    expect(response?.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const hash = createHash('sha256').update(REFERENCE_PAGE_STYLE).digest('base64');
    expect(response?.headers.get('content-security-policy')).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    const html = (await response?.text()) ?? '';
    expect(html).toContain(`<style>${REFERENCE_PAGE_STYLE}</style>`);
    expect(html).toContain('<a href="openapi.json">');
  });

  it('answers HEAD without a body, and leaves other paths and methods to the next handler', async () => {
    const head = await fetchPage('/openapi.json', 'HEAD');
    expect(head?.status).toBe(200);
    expect(await head?.text()).toBe('');
    expect(Number(head?.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(await fetchPage('/docs/')).toBeUndefined();
    expect(await fetchPage('/openapi.json', 'POST')).toBeUndefined();
    expect(await fetchPage('/v1/profiles/x/payments')).toBeUndefined();
  });

  it('serves under a mount prefix, and the given servers as they are', async () => {
    const mounted = createOpenApiPages({ basePath: '/payments/', servers: [{ url: 'https://shop.example/payments' }] });
    const at = (path: string) => mounted(new Request(`http://localhost${path}`));
    expect(await at('/docs.json')).toBeUndefined();
    // A mount that strips the prefix (Hono, Express) hands over the path without it.
    expect((await at('/openapi.json'))?.status).toBe(200);
    const served = (await (await at('/payments/openapi.json'))?.json()) as { servers: unknown };
    expect(served.servers).toEqual([{ url: 'https://shop.example/payments' }]);
    expect((await at('/payments/docs'))?.status).toBe(200);
  });
});

describe('the reference page', () => {
  const document = createOpenApiDocument();
  const html = renderReferencePage(document);

  it('shows every operation, parameter, response status and schema', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item)) {
        expect(html).toContain(`<section id="${operation.operationId}">`);
        expect(html).toContain(`<code>${path.replace(/&/g, '&#38;')}</code>`);
        for (const status of Object.keys(operation.responses))
          expect(html).toContain(`<span class="status">${status}</span>`);
      }
    }
    for (const parameter of Object.values(document.components.parameters))
      expect(html).toContain(`<code>${parameter.name}</code>`);
    for (const name of Object.keys(document.components.schemas))
      expect(html).toContain(`<section id="schema-${name}">`);
    expect(html).toContain('<code>Idempotency-Key</code>');
    expect(html).toContain('<code>WWW-Authenticate</code>');
  });

  it('shows every webhook: what paystate POSTs to the endpoint, its headers and the answers it understands', () => {
    expect(Object.keys(document.webhooks)).not.toEqual([]);
    for (const [name, item] of Object.entries(document.webhooks)) {
      for (const operation of Object.values(item)) {
        expect(html).toContain(`<section id="${operation.operationId}">`);
        expect(html).toContain(
          `<span class="method post">POST</span> <code>${name}</code> <span class="muted">to your endpoint</span>`,
        );
        expect(html).toContain(`<a href="#${operation.operationId}">`);
        for (const status of Object.keys(operation.responses))
          expect(html).toContain(`<span class="status">${status}</span>`);
      }
    }
    expect(html).toContain('<h2>Webhooks</h2>');
    for (const header of ['Paystate-Signature', 'Paystate-Event-Id', 'Paystate-Event-Type', 'Idempotency-Key'])
      expect(html).toContain(`<code>${header}</code>`);
  });

  it('loads nothing from elsewhere and runs no script', () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\son\w+=|src=/i);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);
    expect(hrefs.filter((href) => !(href?.startsWith('#') || href === 'openapi.json'))).toEqual([]);
  });

  it('links every schema reference to a section of the page', () => {
    const anchors = new Set([...html.matchAll(/id="([^"]+)"/g)].map((match) => match[1]));
    const targets = [...html.matchAll(/href="#([^"]+)"/g)].map((match) => match[1]);
    expect(targets.filter((target) => !anchors.has(target))).toEqual([]);
  });

  it('escapes what the document says', () => {
    const page = renderReferencePage({
      ...document,
      info: { ...document.info, title: '<script>alert(1)</script>', description: 'a <b>bold</b> `<i>` claim' },
    });
    expect(page).not.toContain('<script>alert');
    expect(page).toContain('&#60;script&#62;');
    expect(page).toContain('<code>&#60;i&#62;</code>');
  });
});

describe('caseInsensitivePattern', () => {
  const language = BCP47;

  it('matches what the flagged regex matches, for the language tag rule', () => {
    expect(language).toBeDefined();
    const flagged = language as RegExp;
    const plain = new RegExp(caseInsensitivePattern(flagged.source));
    const tag = fc.stringMatching(new RegExp(flagged.source, '')).map((text) => text.slice(0, 40));
    const mixed = fc
      .tuple(tag, fc.array(fc.boolean(), { maxLength: 40 }))
      .map(([text, upper]) => [...text].map((c, i) => (upper[i] === true ? c.toUpperCase() : c)).join(''));
    const noise = fc.string({ unit: fc.constantFrom(...'abxXzZ019-_ '.split('')), maxLength: 20 });
    fc.assert(
      fc.property(fc.oneof(mixed, noise), (text) => plain.test(text) === flagged.test(text)),
      { numRuns: NUM_RUNS },
    );
  });

  it('rewrites letters, classes and ranges, and keeps escapes, negations and named groups', () => {
    expect(caseInsensitivePattern('^ab[c-e]\\d\\u00ff[^x]$')).toBe('^[aA][bB][c-eC-E]\\d\\u00ff[^xX]$');
    expect(caseInsensitivePattern('(?<year>\\d{4})\\k<year>')).toBe('(?<year>\\d{4})\\k<year>');
    expect(() => caseInsensitivePattern('[_-z]')).toThrow(SyntaxError);
    expect(() => caseInsensitivePattern('é')).toThrow(SyntaxError);
  });
});

describe('the sandbox server', () => {
  let server: SandboxServer;
  beforeAll(async () => {
    server = await startSandboxServer({ port: 0, sweepIntervalMs: 60_000 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves /openapi.json (the generated document, this server) and /docs', async () => {
    const json = await fetch(`${server.url}/openapi.json`);
    expect(json.status).toBe(200);
    const served = (await json.json()) as { paths: unknown; servers: unknown };
    expect(served.paths).toEqual(createOpenApiDocument().paths);
    expect(served.servers).toEqual([{ url: server.url, description: 'This server' }]);
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<section id="createPayment">');
  });
});
