import type { Request } from 'express';
import { stampClientIp } from '../hosted-page/client-ip.js';

/**
 * Hands the client's address to the hosted page (`clientIpFromHeader`) as Express sees it:
 * `req.ip`, which follows the app's `trust proxy` setting (the socket's address by default, the
 * forwarded one behind a proxy the app trusts). Whatever the client sent in that header is
 * replaced, so it cannot be forged.
 */
export function stampExpressClientIp(req: Request): void {
  stampClientIp(req, req.ip);
}
