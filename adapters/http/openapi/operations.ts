import { POST_PROBLEMS, READ_PROBLEMS, type OperationDescription } from './operation-description.js';
import { CREATE_PAYMENT_EXAMPLES } from './request-examples.js';

/**
 * The OpenAPI descriptions of the routes; those of captures, cancels and refunds
 * (docs/http-api.md, Captures) each in the profile form of the path and the partner form its `_links` use.
 */

const RETRIES =
  'Retries are safe with an `Idempotency-Key`: the operation id is reserved with the key before anything runs, the same request gets the first answer again (`Idempotency-Replayed: true`), and a retry after a crash reaches the same operation: the acquirer hears of it once.';

const PARTNER = ' (the partner form of the path, where `_links` point; another partner is `404`)';

/** The same description under both paths: `profile` names the operation, `partner` its partner form. */
function bothForms(
  method: 'GET' | 'POST',
  tail: string,
  operationId: string,
  partnerOperationId: string,
  described: Omit<OperationDescription, 'operationId' | 'tag'>,
): Record<string, OperationDescription> {
  const below = `profiles/{profile_id}/payments/{payment_id}/${tail}`;
  return {
    [`${method} /v1/${below}`]: { ...described, operationId, tag: 'Captures and refunds' },
    [`${method} /v1/partners/{partner_id}/${below}`]: {
      ...described,
      operationId: partnerOperationId,
      tag: 'Captures and refunds',
      summary: `${described.summary}${PARTNER}`,
    },
  };
}

/** The list and get descriptions of a payment's captures or refunds, under both paths. */
function listAndGet(plural: 'captures' | 'refunds', noun: 'Capture' | 'Refund'): Record<string, OperationDescription> {
  const one = noun === 'Capture' ? 'capture' : 'refund';
  return {
    ...bothForms('GET', plural, `list${noun}s`, `listPartner${noun}s`, {
      summary: `List a payment's ${plural}`,
      description: `The payment's ${plural}, oldest first, a page at a time.`,
      query: ['limit', `${one}_after`],
      success: { status: 200, description: `A page of ${plural}.`, component: `${noun}List` },
      problems: READ_PROBLEMS,
    }),
    ...bothForms('GET', `${plural}/{${one}_id}`, `get${noun}`, `getPartner${noun}`, {
      summary: `Get a ${one}`,
      description: `The ${one} as it is now; another payment's ${one} is \`404\`.`,
      success: { status: 200, description: `The ${one}.`, component: noun },
      problems: READ_PROBLEMS,
    }),
  };
}

/** The route description table, keyed by the route's name in `ROUTES`. */
export const OPERATIONS: Readonly<Record<string, OperationDescription>> = {
  'POST /v1/profiles/{profile_id}/payments': {
    operationId: 'createPayment',
    tag: 'Payments',
    summary: 'Create a payment',
    description:
      "Hosted flow (no `creditcard`): the payment starts `processing` with `next.redirect` set to the hosted payment page. Direct flow (`creditcard` and `user`, PCI DSS compliant clients only): 3-D Secure and, when no challenge is needed, the authorization run before the answer; a payment whose 3-D Secure needs a challenge answers `processing` with `next.redirect` set to the issuer's page.\n\nRetries are safe with an `Idempotency-Key`: the same request gets the first answer again with `Idempotency-Replayed: true`. If the first request died before it answered, a retry gets `409` until it is stale (5 minutes old by default), then `201` with the payment that request created (or creates it under the id it reserved): never a second payment.",
    idempotent: true,
    paymentMayExist: true,
    requestBody: {
      component: 'CreatePaymentRequest',
      description: 'The payment, as UTF-8 JSON of at most 64 KiB.',
      examples: CREATE_PAYMENT_EXAMPLES,
    },
    success: {
      status: 201,
      description: 'The payment was created. `Location` is its `_links.self.href`.',
      component: 'Payment',
      headers: ['Location', 'Idempotency-Replayed'],
    },
    problems: [...POST_PROBLEMS.filter((code) => code !== 'not_found'), 'direct_flow_not_permitted'],
  },
  'GET /v1/profiles/{profile_id}/payments': {
    operationId: 'listPayments',
    tag: 'Payments',
    summary: 'List payments',
    description:
      "The profile's payments, newest first, a page at a time. An `after` that is not a payment of this list (malformed, unknown, or of another profile or partner) is a `400 validation_failed` on `after`, the same answer for each.",
    query: ['limit', 'after'],
    success: { status: 200, description: 'A page of payments.', component: 'PaymentList' },
    problems: READ_PROBLEMS.filter((code) => code !== 'not_found'),
  },
  'GET /v1/profiles/{profile_id}/payments/{payment_id}': {
    operationId: 'getPayment',
    tag: 'Payments',
    summary: 'Get a payment',
    description: 'The payment as it is now. A payment of another profile is `404`: its existence is never revealed.',
    success: { status: 200, description: 'The payment.', component: 'Payment' },
    problems: READ_PROBLEMS,
  },
  'GET /v1/partners/{partner_id}/profiles/{profile_id}/payments/{payment_id}': {
    operationId: 'getPartnerPayment',
    tag: 'Payments',
    summary: 'Get a payment by its self link',
    description:
      "The same payment as `getPayment`, at the path of its `_links.self.href`. A partner other than the client's is `404`.",
    success: { status: 200, description: 'The payment.', component: 'Payment' },
    problems: READ_PROBLEMS,
  },
  'GET /v1/partners/{partner_id}/profiles/{profile_id}': {
    operationId: 'getProfile',
    tag: 'Profiles',
    summary: 'Get a profile',
    description: "The target of a payment's `_links.profile.href`.",
    success: { status: 200, description: 'The profile.', component: 'Profile' },
    problems: READ_PROBLEMS,
  },
  ...bothForms('POST', 'captures', 'capturePayment', 'capturePartnerPayment', {
    summary: 'Capture a payment',
    description: `Captures a \`succeeded\` manual payment: all that is capturable by default, or \`amount\` (partial). \`final\` (default \`true\`) releases the rest; with \`final: false\` more captures may follow, their sum never above \`amount\`. A capture whose acquirer answer is lost answers \`processing\` and is settled by inquiry. Captures and refunds never change the payment's \`state\`.\n\n${RETRIES}`,
    idempotent: true,
    operationMayExist: true,
    requestBody: { component: 'CaptureRequest', description: 'Optional: no body is `{}`.', optional: true },
    success: {
      status: 201,
      description: 'The capture was made. `Location` is its `_links.self.href`.',
      component: 'Capture',
      headers: ['Location', 'Idempotency-Replayed'],
    },
    problems: [...POST_PROBLEMS, 'payment_not_capturable', 'amount_exceeds_capturable'],
  }),
  ...listAndGet('captures', 'Capture'),
  ...bothForms('POST', 'cancel', 'cancelPayment', 'cancelPartnerPayment', {
    summary: 'Cancel a payment',
    description: `A manual payment with an amount left to capture has it released (voided); a payment still waiting for the cardholder (hosted page not submitted, challenge not answered) becomes \`failed\` with \`failure_reason\` \`canceled\`. No body (or \`{}\`).\n\n${RETRIES}`,
    idempotent: true,
    operationMayExist: true,
    success: {
      status: 200,
      description: 'The payment after the cancel.',
      component: 'Payment',
      headers: ['Idempotency-Replayed'],
    },
    problems: [...POST_PROBLEMS, 'payment_not_cancelable'],
  }),
  ...bothForms('POST', 'refunds', 'refundPayment', 'refundPartnerPayment', {
    summary: 'Refund a payment',
    description: `Refunds a \`succeeded\` payment's captured money: all that is refundable by default (\`amount_captured\` less refunds not failed), or \`amount\`; several partial refunds may follow. Two concurrent refunds that together exceed it give one \`201\` and one \`409 amount_exceeds_refundable\`, never two refunds.\n\n${RETRIES}`,
    idempotent: true,
    operationMayExist: true,
    requestBody: { component: 'RefundRequest', description: 'Optional: no body is `{}`.', optional: true },
    success: {
      status: 201,
      description: 'The refund was made. `Location` is its `_links.self.href`.',
      component: 'Refund',
      headers: ['Location', 'Idempotency-Replayed'],
    },
    problems: [...POST_PROBLEMS, 'payment_not_refundable', 'amount_exceeds_refundable'],
  }),
  ...listAndGet('refunds', 'Refund'),
};
