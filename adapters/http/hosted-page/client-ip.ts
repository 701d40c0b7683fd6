import type { IncomingMessage } from 'node:http';
import { isIpAddress } from '../../../src/schemas/ip-address.js';

/**
 * The request header through which a node:http host hands the socket's address to the hosted
 * page: `stampClientIp` writes it, `clientIpFromHeader` reads it.
 */
export const CLIENT_IP_HEADER = 'x-paystate-client-ip';

/**
 * Sets `CLIENT_IP_HEADER` to the socket's address (or `clientAddress`, e.g. Express's `req.ip`),
 * replacing what the client sent; call it first, before the request becomes a fetch `Request`.
 */
export function stampClientIp(
  req: IncomingMessage,
  clientAddress: string | undefined = req.socket.remoteAddress,
): void {
  const address = clientAddress ?? '';
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]?.toLowerCase() === CLIENT_IP_HEADER) raw.splice(i, 2);
  }
  if (address !== '') raw.push(CLIENT_IP_HEADER, address);
  // `headers` may already have been built from `rawHeaders`: keep both views the same.
  if (address === '') delete req.headers[CLIENT_IP_HEADER];
  else req.headers[CLIENT_IP_HEADER] = address;
}

/** A `clientIp` option for hosts whose node listener calls `stampClientIp`. */
export function clientIpFromHeader(request: Request): string | undefined {
  return request.headers.get(CLIENT_IP_HEADER) ?? undefined;
}

/**
 * An address as EMV 3DS wants it: IPv4 or IPv6 text, an IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, how node reports IPv4 clients of a dual-stack socket) as plain IPv4, and
 * undefined for anything that is not an address.
 */
export function normalizeClientIp(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(trimmed);
  const candidate = mapped?.[1] ?? trimmed;
  return isIpAddress(candidate) ? candidate : undefined;
}
