export { formatAmount } from './amount-format.js';
export { CLIENT_IP_HEADER, clientIpFromHeader, normalizeClientIp, stampClientIp } from './client-ip.js';
export { createHostedPageHandler, type HostedPageHandler } from './hosted-page-handler.js';
export type { HostedPageOptions } from './hosted-page-options.js';
export type { TestCardHint } from './payment-form-page.js';
export {
  contentSecurityPolicy,
  cspHash,
  pageSecurityHeaders,
  type ContentSecurityPolicySources,
} from './security-headers.js';
