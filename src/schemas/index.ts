export { addressSchema } from './address.js';
export { browserDataSchema, COLOR_DEPTHS } from './browser-data.js';
export { cardSubmissionSchema, parseCardSubmission, type CardSubmission } from './card-submission.js';
export { contactSchema } from './contact.js';
export {
  AMOUNT_MAX,
  createPaymentRequestSchema,
  parseCreatePaymentRequest,
  sessionSchema,
  type CreatePaymentInput,
} from './create-payment-request.js';
export { creditCardRequestSchema } from './credit-card.js';
export { operationSchema, paymentListSchema, paymentSchema, publicCreditCardSchema } from './payment-response.js';
export { validationIssueSchema } from './validation-issues.js';
export {
  captureRequestSchema,
  parseOperationRequest,
  refundRequestSchema,
  type CaptureRequestBody,
  type RefundRequestBody,
} from './operation-requests.js';
