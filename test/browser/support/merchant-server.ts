import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The merchant's site as the cardholder comes back to it: `session.redirect_url` of the tests. */
export interface MerchantServer {
  /** `http://127.0.0.1:{port}/return`: pass `?order=…` to tell payments apart. */
  readonly returnUrl: string;
  /** Paths (with query) of the returns it received, in order. */
  readonly returns: string[];
  close(): Promise<void>;
}

/** A tiny node:http server on an ephemeral port that answers every return with a thank-you page. */
export async function startMerchantServer(): Promise<MerchantServer> {
  const returns: string[] = [];
  const server = createServer((req, res) => {
    returns.push(req.url ?? '');
    const body =
      '<!doctype html><html lang="en"><title>Back at the shop</title><h1>Thank you for your order</h1></html>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    returnUrl: `http://127.0.0.1:${port}/return`,
    returns,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
