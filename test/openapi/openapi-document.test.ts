import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import type { OpenAPI } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument, type OpenApiDocument } from '../../adapters/http/openapi/index.js';
import { OPERATIONS } from '../../adapters/http/openapi/operations.js';
import { CREATE_PAYMENT_EXAMPLES } from '../../adapters/http/openapi/request-examples.js';
import { PROBLEM_STATUS } from '../../adapters/http/problem-details.js';
import { ROUTES } from '../../adapters/http/routes/route-table.js';
import { parseCreatePaymentRequest } from '../../src/index.js';
import { createDocumentValidator } from './support/document-validator.js';

const { Spectral, Document } = spectralCore;
const root = join(import.meta.dirname, '..', '..');
const committedPath = join(root, 'docs', 'openapi.json');

const text = (document: OpenApiDocument): string => `${JSON.stringify(document, null, 2)}\n`;

/**
 * Spectral findings accepted on the generated document, each with its reason. Anything else
 * (an error or a new warning) fails the test.
 */
const ACCEPTED_FINDINGS: Readonly<Record<string, string>> = {
  // paystate is a library: it has no contact to publish. The document a host serves names the
  // host's own contact (`createOpenApiDocument({ info: { contact } })`), which clears this one;
  // see the test below.
  'info-contact': 'the host names its contact',
};

async function lint(document: OpenApiDocument) {
  const spectral = new Spectral();
  // 'all': the recommended rules and the optional ones.
  spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'all']] });
  const results = await spectral.run(new Document(text(document), Parsers.Json, 'openapi.json'));
  return results.map((result) => ({
    code: String(result.code),
    severity: result.severity,
    where: result.path.join('.'),
    message: result.message,
  }));
}

describe('docs/openapi.json', () => {
  it('is the generated document (run `npm run openapi` after changing a schema or a route)', () => {
    expect(readFileSync(committedPath, 'utf8')).toBe(text(createOpenApiDocument()));
  });
});

describe('the OpenAPI document', () => {
  const document = createOpenApiDocument();

  it('passes swagger-parser validation (the OpenAPI 3.1 schema and every $ref)', async () => {
    await expect(
      SwaggerParser.validate(structuredClone(document) as unknown as OpenAPI.Document),
    ).resolves.toBeDefined();
  });

  it("passes Spectral's OpenAPI ruleset: no errors, and only the accepted warnings", async () => {
    const findings = await lint(document);
    expect(findings.filter((finding) => finding.severity === 0)).toEqual([]);
    expect(findings.filter((finding) => !(finding.code in ACCEPTED_FINDINGS))).toEqual([]);
  });

  it('is clean of every Spectral finding once the host names a contact', async () => {
    const hosted = createOpenApiDocument({
      info: { contact: { name: 'Payments team', url: 'https://shop.example/support', email: 'payments@shop.example' } },
      servers: [{ url: 'https://shop.example/payments' }],
    });
    expect(await lint(hosted)).toEqual([]);
    expect(hosted.servers).toEqual([{ url: 'https://shop.example/payments' }]);
  });

  it('has an operation for every route the router serves, and only those', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(ROUTES.map((route) => route.name).sort());
    expect(Object.keys(OPERATIONS).sort()).toEqual(ROUTES.map((route) => route.name).sort());
  });

  it('documents bearer authentication for every operation and the Idempotency-Key header on create', () => {
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.securitySchemes['bearerAuth']).toMatchObject({ type: 'http', scheme: 'bearer' });
    const create = document.paths['/v1/profiles/{profile_id}/payments']?.post;
    expect(create?.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(document.components.parameters['IdempotencyKey']).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
    expect(create?.responses['201']?.headers?.['Location']?.required).toBe(true);
    expect(create?.responses['201']?.headers?.['Idempotency-Replayed']?.required).toBe(false);
  });

  it('answers each problem status with the problem schema narrowed to its codes, and 401 with WWW-Authenticate', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          const schema = response.content?.['application/problem+json']?.schema as {
            allOf: [unknown, { properties: { status: { const: number }; code: { enum: string[] } } }];
          };
          expect(schema.allOf[0], `${path} ${status}`).toEqual({ $ref: '#/components/schemas/Problem' });
          expect(schema.allOf[1].properties.status.const).toBe(Number(status));
          for (const code of schema.allOf[1].properties.code.enum) {
            expect(PROBLEM_STATUS[code as keyof typeof PROBLEM_STATUS], code).toBe(Number(status));
          }
          if (status === '401') expect(response.headers?.['WWW-Authenticate']?.required).toBe(true);
          // A create's 503 that may have created the payment, and a capture's, cancel's or refund's
          // that may have made the operation, have no Retry-After without an Idempotency-Key:
          // documented, not required.
          if (status === '503') {
            const described = Object.values(OPERATIONS).find((entry) => entry.operationId === operation.operationId);
            const mayExist = described?.paymentMayExist === true || described?.operationMayExist === true;
            expect(response.headers?.['Retry-After']?.required, path).toBe(!mayExist);
          }
        }
      }
    }
  });

  it('documents a required Request-Id header on every response of every operation', () => {
    let responses = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          responses += 1;
          const header = response.headers?.['Request-Id'];
          expect(header?.required, `${path} ${status}`).toBe(true);
          expect(header?.schema, `${path} ${status}`).toEqual({
            type: 'string',
            minLength: 1,
            maxLength: 200,
            pattern: '^[\\x21-\\x7e]+$',
          });
        }
      }
    }
    expect(responses).toBeGreaterThan(20);
  });

  it('writes case-insensitive patterns without the flag (BCP 47 language tags)', async () => {
    const validator = await createDocumentValidator(document);
    const user = CREATE_PAYMENT_EXAMPLES.direct.value.user;
    for (const language of ['en-GB', 'EN-gb', 'zh-Hant-TW', 'x-private']) {
      expect(validator.checkSchema('BrowserData', { ...user, language }), language).toEqual([]);
    }
    for (const language of ['en_GB', 'english!', '']) {
      expect(validator.checkSchema('BrowserData', { ...user, language }), language).not.toEqual([]);
    }
  });

  it("shows request examples that the engine's parser and the document's schema both accept", async () => {
    const validator = await createDocumentValidator(document);
    const now = Date.UTC(2026, 0, 15);
    for (const [name, example] of Object.entries(CREATE_PAYMENT_EXAMPLES)) {
      expect(parseCreatePaymentRequest(example.value, { now }).isOk(), name).toBe(true);
      expect(validator.checkSchema('CreatePaymentRequest', example.value), name).toEqual([]);
    }
  });

  it('refuses in its schemas what the engine refuses in shape (unknown fields, wrong types, out of range)', async () => {
    const validator = await createDocumentValidator(document);
    const hosted = CREATE_PAYMENT_EXAMPLES.hosted.value;
    for (const body of [
      { ...hosted, amount: 0 },
      { ...hosted, amount: 12.5 },
      { ...hosted, currency: 'eur' },
      { ...hosted, surprise: true },
      { ...hosted, billing: { ...hosted.billing, address: { ...hosted.billing.address, country: 'nl' } } },
    ]) {
      expect(validator.checkSchema('CreatePaymentRequest', body)).not.toEqual([]);
      expect(parseCreatePaymentRequest(body, { now: 0 }).isErr()).toBe(true);
    }
  });
});
