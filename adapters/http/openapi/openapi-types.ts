/**
 * The part of OpenAPI 3.1 that paystate's document uses, as plain JSON types. They are
 * structurally compatible with `OpenAPIV3_1.Document` of `openapi-types`, without depending on it.
 */

/** A JSON Schema (2020-12, the OpenAPI 3.1 dialect) as produced by `z.toJSONSchema`. */
export type JsonSchema = { [keyword: string]: unknown };

export interface OpenApiReference {
  $ref: string;
}

export interface OpenApiServer {
  url: string;
  description?: string;
}

export interface OpenApiInfo {
  title: string;
  version: string;
  summary?: string;
  description?: string;
  contact?: { name?: string; url?: string; email?: string };
  license?: { name: string; identifier?: string; url?: string };
}

export interface OpenApiExample {
  summary?: string;
  description?: string;
  value: unknown;
}

export interface OpenApiMediaType {
  schema: JsonSchema;
  examples?: Record<string, OpenApiExample>;
}

export interface OpenApiHeader {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required: boolean;
  schema: JsonSchema;
}

export interface OpenApiRequestBody {
  description: string;
  required: boolean;
  content: Record<string, OpenApiMediaType>;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiHeader>;
  content?: Record<string, OpenApiMediaType>;
  /**
   * Webhooks only: what the sink does with the event when the receiver answers this status
   * (`delivered`; `retried`, a retryable failure; `refused`, one that is not retryable).
   */
  'x-paystate-delivery'?: 'delivered' | 'retried' | 'refused';
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: (OpenApiParameter | OpenApiReference)[];
  requestBody?: OpenApiRequestBody;
  responses: Record<string, OpenApiResponse>;
  /** Replaces the document's `security`: `[]` for a webhook, which is signed instead. */
  security?: Record<string, string[]>[];
}

export type OpenApiMethod = 'get' | 'post';

export type OpenApiPathItem = Partial<Record<OpenApiMethod, OpenApiOperation>>;

export interface OpenApiSecurityScheme {
  type: 'http';
  scheme: 'bearer';
  description: string;
}

export interface OpenApiTag {
  name: string;
  description: string;
}

/** An OpenAPI 3.1 document (JSON), as `createOpenApiDocument` returns it. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: OpenApiInfo;
  servers: OpenApiServer[];
  security: Record<string, string[]>[];
  tags: OpenApiTag[];
  paths: Record<string, OpenApiPathItem>;
  /** The requests paystate's webhook sink sends to a merchant's endpoint, by event type. */
  webhooks: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, OpenApiParameter>;
    securitySchemes: Record<string, OpenApiSecurityScheme>;
  };
}
