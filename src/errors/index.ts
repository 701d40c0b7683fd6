export { paymentError, type PaymentError, type PaymentErrorCode, type ValidationIssue } from './payment-error.js';
