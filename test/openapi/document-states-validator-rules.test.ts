import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument, type JsonSchema } from '../../adapters/http/openapi/index.js';
import { CREATE_PAYMENT_EXAMPLES } from '../../adapters/http/openapi/request-examples.js';
import { COUNTRY_CODES } from '../../src/domain/country.js';
import { CURRENCY_CODES } from '../../src/domain/currency.js';
import { REDIRECT_URL_MESSAGES } from '../../src/schemas/create-payment-request.js';
import { createPaymentRequestSchema } from '../../src/schemas/index.js';
import { CARD_NUMBER_IN_TEXT, NOT_UNICODE } from '../../src/schemas/text.js';
import { NUM_RUNS } from '../support/property-runs.js';
import { createDocumentValidator, type DocumentValidator } from './support/document-validator.js';

// Every rule the create request's validator enforces and JSON Schema can state is in the
// document: for each field, values around its rules are judged by the validator (the zod schema,
// every issue) and by the document (ajv, with ajv-formats asserting `format` in its full and fast
// modes). The document refuses a value exactly when the validator refuses it for a rule other than
// those the document states in prose only (Luhn, scheme, CVC length per scheme, card numbers in
// text, lone surrogates, a URL the WHATWG parser refuses or that is too long percent-encoded).

const document = createOpenApiDocument();
const schemas = document.components.schemas;
const direct: Record<string, unknown> = structuredClone(CREATE_PAYMENT_EXAMPLES.direct.value);

/** A property's schema in the document, `$ref`s of the path followed. */
function documentProperty(component: string, ...path: string[]): JsonSchema {
  let schema = schemas[component] as JsonSchema;
  for (const key of path) {
    schema = (schema['properties'] as Record<string, JsonSchema>)[key] as JsonSchema;
    const ref = schema['$ref'];
    if (typeof ref === 'string') schema = schemas[ref.split('/').pop() as string] as JsonSchema;
  }
  return schema;
}

/** Strings the document's pattern for a field matches; lookaheads left out (fast-check cannot generate them). */
function matchingDocumentPattern(schema: JsonSchema): fc.Arbitrary<string> {
  const pattern = String(schema['pattern']).replace(/\(\?[=!][^()]*\)/g, '');
  return fc.stringMatching(new RegExp(pattern, 'u'), { size: 'small' });
}

/** Text made of `pieces`, for values near a rule's edges. */
const joined = (...pieces: string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(''));

const email = fc.oneof(
  fc.emailAddress(),
  matchingDocumentPattern(documentProperty('Contact', 'email')),
  joined(..."aZ0-.@'+_!é ", 'example', 'com', 'x'.repeat(62), '4242424242424242'),
  fc.constantFrom('ada@example-.com', 'ada@-example.com', 'ada@example.c0m', `${'a'.repeat(65)}@example.com`),
  fc.constantFrom(`ada@${'a'.repeat(63)}.com`, `ada@${'a'.repeat(64)}.com`, `ada@example.${'a'.repeat(64)}`),
);

const redirectUrl = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  matchingDocumentPattern(documentProperty('Session', 'redirect_url')),
  fc
    .tuple(
      fc.constantFrom('https', 'http', 'HTTPS', 'Http', 'ftp', 'javascript', ''),
      fc.constantFrom('://', ':/', ':', ':\\\\', ':///', ':/\\'),
      fc.constantFrom('', 'u@', 'u:p@', '@', ':@'),
      fc.constantFrom('localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '127.1', '127.0.0.01', '127.0.0.256'),
      fc.constantFrom('[::1]', '[0::1]', '0x7f.0.0.1', '%6cocalhost', 'shop.example', 'sh op.example', 'évian.fr', ''),
      fc.constantFrom('', ':8080', ':', ':99999', ':x'),
      fc.constantFrom('', '/', '/a b', '/r?x=1#f', '\\p', '/\u0001', '/\ud800', '/4242424242424242', '/😀'),
    )
    .chain(([scheme, separator, credentials, loopback, other, port, path]) =>
      fc.constantFrom(loopback, other).map((host) => `${scheme}${separator}${credentials}${host}${port}${path}`),
    ),
  fc.constantFrom(`https://shop.example/${'a'.repeat(2030)}`, `https://shop.example/${'é'.repeat(1100)}`),
);

const letters = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z]{${min},${max}}$`));
const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^\\d{${min},${max}}$`));

/** The fields of items of the create request that JSON Schema constrains beyond their type. */
const FIELDS: readonly {
  readonly path: readonly string[];
  readonly values: fc.Arbitrary<string>;
  /** Messages of the validator's rules that the document states in prose only. */
  readonly prose: readonly string[];
}[] = [
  { path: ['billing', 'email'], values: email, prose: [CARD_NUMBER_IN_TEXT] },
  { path: ['shipping', 'email'], values: email, prose: [CARD_NUMBER_IN_TEXT] },
  {
    path: ['session', 'redirect_url'],
    values: redirectUrl,
    prose: [
      NOT_UNICODE,
      CARD_NUMBER_IN_TEXT,
      REDIRECT_URL_MESSAGES.not_absolute,
      REDIRECT_URL_MESSAGES.too_long_encoded,
    ],
  },
  {
    path: ['currency'],
    values: fc.oneof(fc.constantFrom(...CURRENCY_CODES), letters(2, 4), fc.string()),
    prose: [],
  },
  {
    path: ['billing', 'address', 'country'],
    values: fc.oneof(fc.constantFrom(...COUNTRY_CODES), letters(1, 3), fc.string()),
    prose: [],
  },
  {
    path: ['creditcard', 'number'],
    values: fc.oneof(
      digits(10, 21),
      fc.constantFrom('4242424242424242', '378282246310005', '4242 4242 4242 4242', '４２４２４２４２４２４２４２４２'),
      joined('4', '2', '0', ' ', '-', 'a', '٤'),
    ),
    prose: ['Is not a valid card number (Luhn check failed)', 'Is not a card number of a supported scheme'],
  },
  {
    path: ['creditcard', 'cvc'],
    values: fc.oneof(digits(1, 6), joined('1', '2', ' ', 'a', '１')),
    // The CVC's length per scheme is judged at `creditcard.cvc` too.
    prose: ['Must be 4 digits for American Express', 'Must be 3 digits for this card scheme'],
  },
  {
    path: ['user', 'ip_address'],
    values: fc.oneof(
      fc.ipV4(),
      fc.ipV4Extended(),
      fc.ipV6(),
      joined('0', '1', 'a', 'F', 'ffff', '00000', ':', '::', '.', '255', '256', '01', '1.2.3.4', '%eth0', ' ', 'g'),
    ),
    prose: [],
  },
];

/** `body` with `value` at `path`. */
function withValue(body: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  parent[path[path.length - 1] as string] = value;
  return copy;
}

/** The messages of every issue the validator raises at `path`. */
function validatorMessages(body: unknown, path: readonly string[]): string[] {
  const parsed = createPaymentRequestSchema.safeParse(body);
  if (parsed.success) return [];
  return parsed.error.issues.filter((issue) => issue.path.join('.') === path.join('.')).map((i) => i.message);
}

it('states the length of a card number as minLength and maxLength beside its pattern', () => {
  expect(documentProperty('CreditCardRequest', 'number')).toMatchObject({ minLength: 12, maxLength: 19 });
});

describe.each(['full', 'fast'] as const)('the document, with ajv-formats %s formats', (mode) => {
  let validator: DocumentValidator;
  beforeAll(async () => {
    validator = await createDocumentValidator(document, { formats: mode });
  });
  const documentRefuses = (body: unknown, path: readonly string[]) =>
    validator.checkSchema('CreatePaymentRequest', body).some((problem) => problem.startsWith(`/${path.join('/')} `));

  it('accepts the direct example, so that what it refuses below is the field', () => {
    expect(validator.checkSchema('CreatePaymentRequest', direct)).toEqual([]);
    expect(createPaymentRequestSchema.safeParse(direct).success).toBe(true);
  });

  it.each(FIELDS.map((field) => [field.path.join('.'), field] as const))(
    '%s: refuses exactly what the validator refuses for a rule not in prose',
    (_name, { path, values, prose }) => {
      const seen = { accepted: 0, refused: 0 };
      fc.assert(
        fc.property(values, (value) => {
          const body = withValue(direct, path, value);
          const stated = validatorMessages(body, path).filter((message) => !prose.includes(message));
          const refused = documentRefuses(body, path);
          expect(refused, JSON.stringify(stated)).toBe(stated.length > 0);
          seen[refused ? 'refused' : 'accepted'] += 1;
        }),
        { numRuns: NUM_RUNS },
      );
      // Both sides of the rules were tried.
      expect(seen.accepted).toBeGreaterThan(NUM_RUNS / 20);
      expect(seen.refused).toBeGreaterThan(NUM_RUNS / 20);
    },
  );

  it('refuses `user` without `creditcard` and `creditcard` without `user`, as the validator does', () => {
    const { creditcard, user, ...hosted } = direct;
    const bodies = [hosted, { ...hosted, creditcard }, { ...hosted, user }, { ...hosted, creditcard, user }];
    for (const body of bodies) {
      const documentAccepts = validator.checkSchema('CreatePaymentRequest', body).length === 0;
      expect(documentAccepts, Object.keys(body).join(',')).toBe(createPaymentRequestSchema.safeParse(body).success);
    }
    expect(schemas['CreatePaymentRequest']?.['dependentRequired']).toEqual({
      creditcard: ['user'],
      user: ['creditcard'],
    });
  });

  it('refuses what the fuzzer found: a label of the e-mail domain ending in a hyphen', () => {
    const body = withValue(direct, ['shipping', 'email'], 'ada@example-.com');
    expect(documentRefuses(body, ['shipping', 'email'])).toBe(true);
    expect(validatorMessages(body, ['shipping', 'email'])).toEqual(['Must be an e-mail address']);
  });
});
