export {
  createPaymentMachine,
  DEFAULT_PAYMENT_MACHINE_OPTIONS,
  paymentMachine,
  type PaymentMachine,
  type PaymentMachineAction,
  type PaymentMachineContext,
  type PaymentMachineInput,
  type PaymentMachineOptions,
  type ResolvedPaymentMachineOptions,
} from './payment-machine.js';
export {
  PAYMENT_MACHINE_EVENT_TYPES,
  type InquiryAnswer,
  type PaymentMachineEvent,
  type PaymentMachineEventType,
} from './payment-machine-events.js';
export { DEFAULT_INQUIRY_DELAYS, inquiryDelay } from './inquiry-schedule.js';
export { cardholderMustAct, toPublicState } from './public-state.js';
export { restoreSnapshot, startPayment, stepPayment, type LifecycleState, type StepResult } from './step-payment.js';
export { toMermaid } from './to-mermaid.js';
export { createPureTransitions, type PureTransitions } from './pure-transition.js';
export {
  createOperationMachine,
  startOperation,
  stepOperation,
  type OperationInquiryAnswer,
  type OperationMachine,
  type OperationMachineContext,
  type OperationMachineEvent,
  type OperationMachineOptions,
  type OperationStep,
} from './operation-machine.js';
