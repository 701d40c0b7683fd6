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
export type { GetPaymentQuery, ListPaymentsQuery, PaymentList } from './query-payments.js';
export type { SubmitCardCommand } from './submit-card.js';
export type { SweepReport } from './sweep.js';
export { toPublicPayment, type PublicPaymentOptions } from './to-public-payment.js';
