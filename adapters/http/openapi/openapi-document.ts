import { deepFreeze } from '../../../src/domain/immutable.js';
import { PROBLEM_STATUS, type ProblemCode } from '../problem-details.js';
import { ROUTES } from '../routes/route-table.js';
import { componentSchemas, createSchemaRegistry } from './component-schemas.js';
import { problemNarrowingSchema, responseHeaderSchemas, type ResponseHeaderName } from './http-schemas.js';
import { componentRef, inlineSchema, parameterRef } from './json-schema.js';
import type {
  OpenApiDocument,
  OpenApiHeader,
  OpenApiInfo,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiPathItem,
  OpenApiReference,
  OpenApiResponse,
  OpenApiServer,
} from './openapi-types.js';
import {
  OPERATION_MAY_EXIST_WHEN,
  PAYMENT_MAY_EXIST_WHEN,
  PROBLEM_WHEN,
  TAGS,
  type OperationDescription,
} from './operation-description.js';
import { OPERATIONS } from './operations.js';
import { parameterComponent, parameterComponents } from './parameter-components.js';
import { webhookParameterComponents, webhookPathItems } from './webhook-operations.js';

/** Options of `createOpenApiDocument`. */
export interface OpenApiOptions {
  /** Where the API is reached, with any mount prefix (`https://shop.example/payments`). Default: the local sandbox. */
  readonly servers?: readonly OpenApiServer[];
  /** Replaces fields of `info` (title, version, description, contact, …). */
  readonly info?: Partial<OpenApiInfo>;
}

/** The servers of the committed document: the sandbox that `npm run demo` starts. */
export const DEFAULT_OPENAPI_SERVERS: readonly OpenApiServer[] = deepFreeze([
  { url: 'http://127.0.0.1:3000', description: 'The paystate sandbox (`npm run demo`)' },
]);

const SECURITY_SCHEME = 'bearerAuth';

const DESCRIPTION = `The v1 HTTP API of paystate, an embeddable engine for card-not-present card payments.

Every request carries \`Authorization: Bearer <token>\`. A token belongs to one client; a client belongs to one partner, may act on a set of its profiles, and may or may not send card data (the direct flow needs PCI DSS compliance).

Answers are JSON, and every one carries a \`Request-Id\` header: the id of that request, to quote to support. Every error is an RFC 9457 problem document (\`application/problem+json\`) with a stable \`code\`; validation errors list each invalid field in \`errors\`. No answer ever contains a card number or a CVC.

\`GET\` operations also answer \`HEAD\`. Any other method on these paths is answered \`405 method_not_allowed\` with an \`Allow\` header, any other path \`404 not_found\`, both as problem documents. Every answer carries \`Cache-Control: no-store\`.

The \`webhooks\` describe the other direction: the signed requests that paystate's webhook sink (\`paystate/webhooks\`) POSTs to a merchant's endpoint for each payment event, and what it does with each answer.`;

const HEADER_DESCRIPTIONS: Readonly<Record<ResponseHeaderName, string>> = {
  'Request-Id':
    'The id of this request, new for each one (a replayed `Idempotency-Key` answer too): quote it to support. Every log line paystate writes for the request carries it. `req_` and 32 lowercase hex digits, unless the host makes its own (1 to 200 visible ASCII characters).',
  Location: 'The path of the new payment, capture or refund: its `_links.self.href`.',
  'Idempotency-Replayed':
    '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.',
  'WWW-Authenticate': '`Bearer realm="paystate"`, with `error="invalid_token"` for a malformed or unknown token.',
  'Retry-After': 'Seconds to wait before retrying.',
};

function header(name: ResponseHeaderName, required: boolean): OpenApiHeader {
  return {
    description: HEADER_DESCRIPTIONS[name],
    required,
    schema: inlineSchema(responseHeaderSchemas[name], 'output'),
  };
}

const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/** The headers every answer carries: `Request-Id`, one definition shared by every response. */
const everyAnswerHeaders = (): Record<string, OpenApiHeader> => ({ 'Request-Id': header('Request-Id', true) });

/** The problem answers of one status, narrowed to the codes the operation can give with it. */
function problemResponse(
  status: number,
  codes: readonly ProblemCode[],
  described: OperationDescription,
): OpenApiResponse {
  const headers = everyAnswerHeaders();
  if (status === 401) headers['WWW-Authenticate'] = header('WWW-Authenticate', true);
  // An `unavailable` that may have created the payment has no `Retry-After` without an `Idempotency-Key`.
  const mayExist = described.paymentMayExist === true || described.operationMayExist === true;
  const retryable = codes.filter(
    (code) => code === 'unavailable' || code === 'idempotency_in_progress' || code === 'rate_limited',
  );
  const always = retryable.length === codes.length && !(mayExist && codes.includes('unavailable'));
  if (retryable.length > 0) headers['Retry-After'] = header('Retry-After', always);
  // Only a 500 is kept for replay besides the success answer (its effects are unknown).
  if (described.idempotent === true && status === 500) {
    headers['Idempotency-Replayed'] = header('Idempotency-Replayed', false);
  }
  const mayExistWhen = described.paymentMayExist === true ? PAYMENT_MAY_EXIST_WHEN : OPERATION_MAY_EXIST_WHEN;
  const when = (code: ProblemCode) =>
    code === 'unavailable' && mayExist ? `${PROBLEM_WHEN[code]}${mayExistWhen}` : PROBLEM_WHEN[code];
  const description =
    codes.length === 1
      ? sentence(`\`${codes[0]}\`: ${when(codes[0] as ProblemCode)}`)
      : codes.map((code) => `- \`${code}\`: ${when(code)}`).join('\n');
  return {
    description,
    headers,
    content: {
      'application/problem+json': {
        schema: { allOf: [componentRef('Problem'), inlineSchema(problemNarrowingSchema(status, codes), 'output')] },
      },
    },
  };
}

function problemResponses(described: OperationDescription): Record<string, OpenApiResponse> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of described.problems) {
    const status = PROBLEM_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, OpenApiResponse> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = problemResponse(status, codes, described);
  }
  return responses;
}

function operation(pattern: readonly string[], described: OperationDescription): OpenApiOperation {
  const parameters: OpenApiReference[] = [];
  const names = pattern.filter((segment) => segment.startsWith(':')).map((segment) => segment.slice(1));
  for (const name of [...names, ...(described.query ?? [])]) parameters.push(parameterRef(parameterComponent(name)));
  if (described.idempotent === true) parameters.push(parameterRef('IdempotencyKey'));

  const { success } = described;
  const successHeaders = everyAnswerHeaders();
  for (const name of success.headers ?? []) successHeaders[name] = header(name, name === 'Location');
  const body = described.requestBody;
  return {
    operationId: described.operationId,
    summary: described.summary,
    description: described.description,
    tags: [described.tag],
    parameters,
    ...(body !== undefined && {
      requestBody: {
        description: body.description,
        required: body.optional !== true,
        content: {
          'application/json': {
            schema: componentRef(body.component),
            ...(body.examples !== undefined && { examples: { ...body.examples } }),
          },
        },
      },
    }),
    responses: {
      [String(success.status)]: {
        description: success.description,
        headers: successHeaders,
        content: { 'application/json': { schema: componentRef(success.component) } },
      },
      ...problemResponses(described),
    },
  };
}

/** `/v1/profiles/{profile_id}/payments` from `['v1', 'profiles', ':profile_id', 'payments']`. */
function openApiPath(pattern: readonly string[]): string {
  return `/${pattern.map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment)).join('/')}`;
}

/**
 * The OpenAPI 3.1 document of the v1 API, from the zod schemas and the route table, with the
 * webhook sink's requests as `webhooks`; a new object per call.
 * @throws Error when a route has no description (a bug caught by the tests).
 */
export function createOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const registry = createSchemaRegistry();
  const schemas = componentSchemas(registry);
  const parameters = { ...parameterComponents(registry), ...webhookParameterComponents(registry) };
  const paths: Record<string, OpenApiPathItem> = {};
  const documented = new Set<string>();
  for (const route of ROUTES) {
    const described = OPERATIONS[route.name];
    if (described === undefined) throw new Error(`The route ${route.name} has no OpenAPI description`);
    documented.add(route.name);
    const path = openApiPath(route.pattern);
    const method = route.method.toLowerCase() as OpenApiMethod;
    paths[path] = { ...paths[path], [method]: operation(route.pattern, described) };
  }
  const stale = Object.keys(OPERATIONS).filter((name) => !documented.has(name));
  if (stale.length > 0) throw new Error(`OpenAPI descriptions of routes that do not exist: ${stale.join(', ')}`);

  return {
    openapi: '3.1.0',
    info: {
      title: 'paystate API',
      version: '1.0.0',
      description: DESCRIPTION,
      license: { name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' },
      ...options.info,
    },
    servers: (options.servers ?? DEFAULT_OPENAPI_SERVERS).map((server) => ({ ...server })),
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: TAGS.map((tag) => ({ ...tag })),
    paths,
    webhooks: webhookPathItems(registry),
    components: {
      schemas,
      parameters,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An access token of an API client. The sandbox tokens are in its config (`sandbox_pci_compliant_token`, `sandbox_hosted_only_token`, …).',
        },
      },
    },
  };
}
