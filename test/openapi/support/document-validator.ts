import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPI } from 'openapi-types';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiResponse,
} from '../../../adapters/http/openapi/index.js';

/** What a test saw: status, headers (lower-case names) and the body text. */
export interface SeenAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** What a webhook receiver saw: the request's headers (lower-case names) and its body text. */
export interface SeenWebhookRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/**
 * Checks answers against an OpenAPI document with a JSON Schema 2020-12 validator: the status
 * is documented for the operation, the media type is, the body matches its schema, required
 * headers are present and every documented header present matches its schema.
 */
export interface DocumentValidator {
  /** Problems with the answer to `method path` (path as templated in the document); empty when it conforms. */
  check(path: string, method: OpenApiMethod, answer: SeenAnswer): string[];
  /** Problems of a value against a named component schema. */
  checkSchema(component: string, value: unknown): string[];
  /**
   * Problems with a request the webhook sink sent, against the webhook `name` of `webhooks`: its
   * method, every header parameter (present when required, matching its schema), its media type
   * and its body. Empty when it conforms.
   */
  checkWebhook(name: string, request: SeenWebhookRequest): string[];
}

const mediaTypeOf = (header: string | string[] | undefined): string =>
  (Array.isArray(header) ? header[0] : header)?.split(';')[0]?.trim().toLowerCase() ?? '';

/** A header value as the schema sees it: integer schemas get the number. */
function headerValue(schema: JsonSchema, raw: string): unknown {
  return schema['type'] === 'integer' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
}

/**
 * `formats`: assert `format` with ajv-formats in that mode (`full`, the default of
 * ajv-formats, or `fast`); by default formats are not asserted, as JSON Schema 2020-12 has it.
 */
export async function createDocumentValidator(
  document: OpenApiDocument,
  options: { readonly formats?: 'full' | 'fast' } = {},
): Promise<DocumentValidator> {
  // swagger-parser resolves every $ref (and mutates what it is given: hand it a copy).
  const resolved = (await SwaggerParser.dereference(
    structuredClone(document) as unknown as OpenAPI.Document,
  )) as unknown as OpenApiDocument;
  // Formats are not asserted unless asked: zod writes a `pattern` beside each `format` it emits.
  const ajv = new Ajv2020({ allErrors: true, strict: true, validateFormats: options.formats !== undefined });
  if (options.formats !== undefined) addFormats(ajv, { mode: options.formats });
  const cache = new Map<JsonSchema, ValidateFunction>();
  const validate = (schema: JsonSchema, value: unknown): string[] => {
    let compiled = cache.get(schema);
    if (compiled === undefined) {
      compiled = ajv.compile(schema);
      cache.set(schema, compiled);
    }
    if (compiled(value)) return [];
    return (compiled.errors ?? []).map(
      (error: ErrorObject) => `${error.instancePath || '(root)'} ${error.message ?? ''}`,
    );
  };

  return {
    check(path, method, answer) {
      const operation: OpenApiOperation | undefined = resolved.paths[path]?.[method];
      if (operation === undefined) return [`${method.toUpperCase()} ${path} is not in the document`];
      const response: OpenApiResponse | undefined = operation.responses[String(answer.status)];
      if (response === undefined) return [`status ${answer.status} is not documented for ${operation.operationId}`];
      const problems: string[] = [];
      for (const [name, header] of Object.entries(response.headers ?? {})) {
        const raw = answer.headers[name.toLowerCase()];
        const value = Array.isArray(raw) ? raw.join(', ') : raw;
        if (value === undefined) {
          if (header.required === true) problems.push(`header ${name} is missing`);
          continue;
        }
        problems.push(...validate(header.schema, headerValue(header.schema, value)).map((p) => `header ${name}: ${p}`));
      }
      const content = response.content;
      if (content === undefined)
        return answer.text === '' ? problems : [...problems, 'a body where none is documented'];
      const type = mediaTypeOf(answer.headers['content-type']);
      const media = content[type];
      if (media === undefined) return [...problems, `media type ${type} is not documented for ${answer.status}`];
      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        return [...problems, 'the body is not JSON'];
      }
      return [...problems, ...validate(media.schema, body)];
    },
    checkWebhook(name, request) {
      const item = resolved.webhooks[name];
      if (item === undefined) return [`webhook ${name} is not in the document`];
      const operation = item[request.method.toLowerCase() as OpenApiMethod];
      if (operation === undefined) return [`webhook ${name} has no ${request.method}`];
      const problems: string[] = [];
      for (const parameter of operation.parameters) {
        if ('$ref' in parameter) return [`${parameter.$ref} was not resolved`];
        if (parameter.in !== 'header') continue;
        const raw = request.headers[parameter.name.toLowerCase()];
        const value = Array.isArray(raw) ? raw.join(', ') : raw;
        if (value === undefined) {
          if (parameter.required) problems.push(`header ${parameter.name} is missing`);
          continue;
        }
        problems.push(...validate(parameter.schema, value).map((p) => `header ${parameter.name}: ${p}`));
      }
      const content = operation.requestBody?.content ?? {};
      const media = content[mediaTypeOf(request.headers['content-type'])];
      if (media === undefined)
        return [...problems, `media type ${String(request.headers['content-type'])} is not documented`];
      let body: unknown;
      try {
        body = JSON.parse(request.text);
      } catch {
        return [...problems, 'the body is not JSON'];
      }
      return [...problems, ...validate(media.schema, body)];
    },
    checkSchema(component, value) {
      const schema = resolved.components.schemas[component];
      if (schema === undefined) return [`no component ${component}`];
      return validate(schema, value);
    },
  };
}
