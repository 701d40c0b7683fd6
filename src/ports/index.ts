export type {
  Acquirer,
  AcquirerError,
  AuthorizationOutcome,
  AuthorizationReferences,
  AuthorizationRequest,
  CaptureRequest,
  InquiryOutcome,
  OperationInquiry,
  OperationInquiryOutcome,
  OperationOutcome,
  OperationRequest,
} from './acquirer.js';
export type { CardVault, CardVaultError } from './card-vault.js';
export type { Clock } from './clock.js';
export {
  clientMayActOn,
  type Client,
  type CredentialStore,
  type CredentialStoreError,
  type Profile,
} from './credential-store.js';
export type { EventSink, EventSinkError, PublishOptions } from './event-sink.js';
export type { IdGenerator } from './id-generator.js';
export { guardLogger, logsAt, silentLogger, withLogFields, type Logger, type LogLevel } from './logger.js';
export type {
  DuePayments,
  OperationListQuery,
  OperationPage,
  OperationWrite,
  OutboxDeferral,
  OutboxEntry,
  PaymentListQuery,
  PaymentPage,
  PaymentRepository,
  RepositoryError,
} from './payment-repository.js';
export type { PageTokens } from './page-tokens.js';
export type { PortFailure, PortResult } from './port-result.js';
export type { RateDecision, RateLimiter, RateLimiterError } from './rate-limiter.js';
export type {
  AuthenticationRequest,
  AuthenticationResult,
  ChallengeResult,
  ThreeDSError,
  ThreeDSAuthenticationData,
  ThreeDSProvider,
} from './three-ds-provider.js';
export type {
  IdempotencyBegin,
  IdempotencyBeginRequest,
  IdempotencyKeyRef,
  IdempotencySettleRequest,
  IdempotencyStore,
  IdempotencyStoreError,
  StoredResponse,
} from './idempotency-store.js';
