export type { ApiOptions } from './api-options.js';
export { createApp, createFetchHandler, type FetchHandlerOptions } from './app.js';
export type { AppBindings, AppEnv } from './app-env.js';
export { normalizeBasePath } from './base-path.js';
export type { FetchHandler, PageContext, PagesHandler } from './page-context.js';
export {
  createHealthHandlers,
  DEFAULT_MAX_FAILURES_IN_A_ROW,
  LIVENESS_PATH,
  READINESS_PATH,
  type HealthHandlers,
  type HealthHandlersOptions,
  type HealthWorker,
} from './health-handlers.js';
export { jsonAnswer, toResponse, type HttpAnswer } from './http-answer.js';
export { fromFetchRequest, type HttpRequest } from './http-request.js';
export {
  IDEMPOTENCY_STALE_AFTER_MS,
  IDEMPOTENCY_TTL_MS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  REPLAYED_HEADER,
} from './idempotency.js';
export { MAX_JSON_DEPTH } from './json-body.js';
export {
  createNodeListener,
  createNodeRequestListener,
  type NodeListenerOptions,
  type NodeRequestListener,
  type NodeRequestListenerOptions,
} from './node-server.js';
export {
  composePages,
  createOpenApiDocument,
  createOpenApiPages,
  DEFAULT_OPENAPI_SERVERS,
  renderReferencePage,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiExample,
  type OpenApiHeader,
  type OpenApiInfo,
  type OpenApiMediaType,
  type OpenApiMethod,
  type OpenApiOperation,
  type OpenApiOptions,
  type OpenApiPagesOptions,
  type OpenApiParameter,
  type OpenApiPathItem,
  type OpenApiReference,
  type OpenApiRequestBody,
  type OpenApiResponse,
  type OpenApiSecurityScheme,
  type OpenApiServer,
  type OpenApiTag,
} from './openapi/index.js';
export {
  DEFAULT_PROBLEM_TYPE_BASE,
  PROBLEM_STATUS,
  problem,
  problemAnswer,
  problemDocument,
  problemFromPaymentError,
  problemResponse,
  RETRY_AFTER_SECONDS,
  type Problem,
  type ProblemCode,
  type ProblemDocument,
} from './problem-details.js';
export { MAX_BODY_BYTES, type BodyReadFailure } from './read-body.js';
export { defaultRequestId, REQUEST_ID_HEADER, requestIdSource } from './request-id.js';
export { answerClientErrors } from './node-client-errors.js';
export { STORE_TIMEOUT_MS } from './store-deadline.js';
export type { ProfileResource } from './routes/get-profile.js';
export type { PaymentListResource } from './routes/list-payments.js';
export { createIssuerPageHandler, type IssuerPageOptions } from './sandbox-pages/issuer-page.js';
export type { SandboxPageDeps } from './sandbox-pages/sandbox-page-deps.js';
export { createSandboxPages } from './sandbox-pages/sandbox-pages.js';
