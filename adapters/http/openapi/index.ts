export { caseInsensitivePattern } from './case-insensitive-pattern.js';
export { composePages } from './compose-pages.js';
export { createOpenApiDocument, DEFAULT_OPENAPI_SERVERS, type OpenApiOptions } from './openapi-document.js';
export { createOpenApiPages, type OpenApiPagesOptions } from './openapi-pages.js';
export type {
  JsonSchema,
  OpenApiDocument,
  OpenApiExample,
  OpenApiHeader,
  OpenApiInfo,
  OpenApiMediaType,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiReference,
  OpenApiRequestBody,
  OpenApiResponse,
  OpenApiSecurityScheme,
  OpenApiServer,
  OpenApiTag,
} from './openapi-types.js';
export { REFERENCE_PAGE_STYLE, renderReferencePage } from './reference-page.js';
