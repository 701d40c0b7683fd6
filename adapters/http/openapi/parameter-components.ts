import type { z } from 'zod';
import { idempotencyKeySchema, listQuerySchemas, pathParameterSchemas } from './http-schemas.js';
import { inlineSchema, type SchemaRegistry } from './json-schema.js';
import type { OpenApiParameter } from './openapi-types.js';

/** The component of a path or list query parameter: `ProfileId` for `profile_id`, `CaptureAfter` for `capture_after`. */
export const parameterComponent = (name: string): string =>
  name
    .split('_')
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join('');

/** `components.parameters` of the API's operations: path, list query and `Idempotency-Key` parameters. */
export function parameterComponents(registry: SchemaRegistry): Record<string, OpenApiParameter> {
  const parameter = (
    name: string,
    where: OpenApiParameter['in'],
    description: string,
    schema: z.ZodType,
  ): OpenApiParameter => ({
    name,
    in: where,
    description,
    required: where === 'path',
    schema: inlineSchema(schema, 'input', registry),
  });
  const path = (name: keyof typeof pathParameterSchemas, description: string) =>
    parameter(name, 'path', description, pathParameterSchemas[name]);
  const after = (of: string, schema: z.ZodType) =>
    parameter(
      'after',
      'query',
      `The \`next_cursor\` of the previous page: ${of}. Anything else is a \`400 validation_failed\` on \`after\`.`,
      schema,
    );
  return {
    ProfileId: path('profile_id', 'The profile (merchant account), e.g. `profile_webshop` in the sandbox.'),
    PartnerId: path('partner_id', "The client's partner, e.g. `partner_sandbox` in the sandbox."),
    PaymentId: path('payment_id', 'The payment id (`payment_` and hex digits).'),
    CaptureId: path('capture_id', 'The capture id (`capture_` and 32 hex digits).'),
    RefundId: path('refund_id', 'The refund id (`refund_` and 32 hex digits).'),
    Limit: parameter(
      'limit',
      'query',
      'How many items (payments, captures or refunds) per page, 1 to 100.',
      listQuerySchemas.limit,
    ),
    After: after('a payment of this list (`payment_` and 32 hex digits)', listQuerySchemas.after),
    CaptureAfter: after('a capture of this payment', listQuerySchemas.captureAfter),
    RefundAfter: after('a refund of this payment', listQuerySchemas.refundAfter),
    IdempotencyKey: parameter(
      'Idempotency-Key',
      'header',
      'Makes retries safe: 1 to 255 printable ASCII characters, scoped to the client, kept 24 hours. The same request again gets the first answer; another request with the key gets `422`; a retry while the first runs gets `409`.',
      idempotencyKeySchema,
    ),
  };
}
