export type { CancelPaymentCommand } from './cancel-payment.js';
export type { CapturePaymentCommand } from './capture-payment.js';
export type { CompleteChallengeCommand } from './complete-challenge.js';
export type { CreatePaymentCommand } from './create-payment.js';
export type { PaymentEnginePorts } from './engine-context.js';
export type { PaymentEngineOptions } from './engine-options.js';
export {
  HEALTH_PROBE_PAYMENT_ID,
  type BackgroundLoopStatus,
  type BackgroundTickFailure,
  type BackgroundWorkerState,
  type BackgroundWorkerStatus,
  type DeliveryTickReport,
  type HealthCheckOptions,
  type HealthReport,
  type StorageHealth,
} from './health.js';
export type { Inspect } from './inspection.js';
export type { HostedPageQuery } from './page-link.js';
export {
  createPaymentEngine,
  type BackgroundWorker,
  type PaymentEngine,
  type PaymentEngineConfig,
  type RecordQueryOptions,
} from './payment-engine.js';
export type { MoneyCommands } from './money-commands.js';
export type { OperationTarget } from './operation-command.js';
export { toPublicOperation } from './operation-lifecycle.js';
export type { GetOperationQuery, ListOperationsQuery, OperationList } from './query-operations.js';
export type { GetPaymentQuery, ListPaymentsQuery, PaymentList } from './query-payments.js';
export type { RefundPaymentCommand } from './refund-payment.js';
export type { SubmitCardCommand } from './submit-card.js';
export type { SweepReport } from './sweep.js';
export { DEFAULT_AUTHORIZATION_LIFETIME_MS } from './engine-options.js';
export { toPublicPayment, type PublicPaymentOptions } from './to-public-payment.js';
