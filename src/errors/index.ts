export {
  MONEY_OPERATION_REFUSALS,
  paymentError,
  type MoneyOperationRefusal,
  type PaymentError,
  type PaymentErrorCode,
  type ValidationIssue,
} from './payment-error.js';
