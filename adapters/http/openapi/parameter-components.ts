import {
  idempotencyKeySchema,
  listQuerySchemas,
  pathParameterSchemas,
  type PathParameterName,
} from './http-schemas.js';
import { inlineSchema, type SchemaRegistry } from './json-schema.js';
import type { OpenApiParameter } from './openapi-types.js';
import type { QueryParameterName } from './operation-description.js';

/** The names of the document's shared parameters (`components.parameters`). */
export type ParameterComponent =
  | 'ProfileId'
  | 'PartnerId'
  | 'PaymentId'
  | 'CaptureId'
  | 'RefundId'
  | 'Limit'
  | 'After'
  | 'CaptureAfter'
  | 'RefundAfter'
  | 'IdempotencyKey';

/** The parameter component of each list query parameter. */
export const QUERY_PARAMETER_COMPONENT: Readonly<Record<QueryParameterName, ParameterComponent>> = {
  limit: 'Limit',
  after: 'After',
  capture_after: 'CaptureAfter',
  refund_after: 'RefundAfter',
};

/** The parameter component of each path parameter. */
export const PATH_PARAMETER_COMPONENT: Readonly<Record<PathParameterName, ParameterComponent>> = {
  profile_id: 'ProfileId',
  partner_id: 'PartnerId',
  payment_id: 'PaymentId',
  capture_id: 'CaptureId',
  refund_id: 'RefundId',
};

/** `components.parameters` of the API's operations: path, list query and `Idempotency-Key` parameters. */
export function parameterComponents(registry: SchemaRegistry): Record<ParameterComponent, OpenApiParameter> {
  const path = (name: PathParameterName, description: string): OpenApiParameter => ({
    name,
    in: 'path',
    description,
    required: true,
    schema: inlineSchema(pathParameterSchemas[name], 'input', registry),
  });
  return {
    ProfileId: path('profile_id', 'The profile (merchant account), e.g. `profile_webshop` in the sandbox.'),
    PartnerId: path('partner_id', "The client's partner, e.g. `partner_sandbox` in the sandbox."),
    PaymentId: path('payment_id', 'The payment id (`payment_` and hex digits).'),
    CaptureId: path('capture_id', 'The capture id (`capture_` and 32 hex digits).'),
    RefundId: path('refund_id', 'The refund id (`refund_` and 32 hex digits).'),
    Limit: {
      name: 'limit',
      in: 'query',
      description: 'How many items (payments, captures or refunds) per page, 1 to 100.',
      required: false,
      schema: inlineSchema(listQuerySchemas.limit, 'input', registry),
    },
    After: {
      name: 'after',
      in: 'query',
      description:
        'The `next_cursor` of the previous page: a payment of this list (`payment_` and 32 hex digits). Anything else is a `400 validation_failed` on `after`.',
      required: false,
      schema: inlineSchema(listQuerySchemas.after, 'input', registry),
    },
    CaptureAfter: {
      name: 'after',
      in: 'query',
      description:
        'The `next_cursor` of the previous page: a capture of this payment. Anything else is a `400 validation_failed` on `after`.',
      required: false,
      schema: inlineSchema(listQuerySchemas.captureAfter, 'input', registry),
    },
    RefundAfter: {
      name: 'after',
      in: 'query',
      description:
        'The `next_cursor` of the previous page: a refund of this payment. Anything else is a `400 validation_failed` on `after`.',
      required: false,
      schema: inlineSchema(listQuerySchemas.refundAfter, 'input', registry),
    },
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      description:
        'Makes retries safe: 1 to 255 printable ASCII characters, scoped to the client, kept 24 hours. The same request again gets the first answer; another request with the key gets `422`; a retry while the first runs gets `409`.',
      required: false,
      schema: inlineSchema(idempotencyKeySchema, 'input', registry),
    },
  };
}
