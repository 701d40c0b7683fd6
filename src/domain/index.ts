export { CAPTURE_METHODS, type CaptureMethod } from './capture-method.js';
export { amountCapturable, amountRefundable, authorizationOpen, moneyInvariantsHold } from './money-counters.js';
export {
  OPERATION_KINDS,
  OPERATION_STATES,
  type Capture,
  type OperationKind,
  type OperationRecord,
  type OperationState,
  type OperationStatus,
  type PublicOperation,
  type Refund,
} from './money-operation.js';
export { binOf, CARD_REGIONS, CARD_SCHEMES, CARD_TYPES, summarizeCard } from './card.js';
export { deepFreeze, isDeepFrozen } from './immutable.js';
export type { CardData, CardProfile, CardRegion, CardScheme, CardSummary, CardType, Fees } from './card.js';
export { isCountryCode } from './country.js';
export { contactInOrder, type Address, type BrowserData, type Contact, type ContactFields } from './contact.js';
export { DOMAIN_EVENT_TYPES, type DomainEvent, type DomainEventType } from './domain-event.js';
export { FAILURE_REASONS, failureReasonFromResponseCode, type FailureReason } from './failure-reason.js';
export { paymentPath, profilePath, type Link, type Payment, type PublicCreditCard } from './payment.js';
export type { AuthorizationRecord, PaymentFlow, PaymentRecord } from './payment-record.js';
export {
  FINAL_STATES,
  INTERNAL_STATES,
  isFinalState,
  PUBLIC_STATES,
  type AuthorizationStatus,
  type InternalState,
  type PublicState,
} from './payment-state.js';
export {
  API_TOKEN_RULE,
  isApiToken,
  isPartnerId,
  isProfileId,
  isTenancyId,
  MAX_API_TOKEN_LENGTH,
  MAX_TENANCY_ID_LENGTH,
  PARTNER_ID_PREFIX,
  PARTNER_ID_RULE,
  PROFILE_ID_PREFIX,
  PROFILE_ID_RULE,
  TENANCY_ID_RULE,
} from './tenancy-ids.js';
export {
  isAuthenticationValue,
  isThreeDSProtocolVersion,
  THREE_DS_PROTOCOL_VERSIONS,
  type ThreeDSAuthentication,
  type ThreeDSOutcome,
  type ThreeDSProtocolVersion,
  type TransStatus,
} from './three-ds.js';
