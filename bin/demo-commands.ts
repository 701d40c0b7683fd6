/** The `curl` commands `paystate demo` prints in its banner (bin/paystate.ts). */

/**
 * A create request for the printed examples, returning to the sandbox's own return page (at
 * `base`), which shows the payment; the card expires two years from now.
 */
export function exampleBody(direct: boolean, base: string): string {
  const contact = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    address: { thoroughfare: 'Damrak 1', locality: 'Amsterdam', postal_code: '1012 LG', country: 'NL' },
  };
  const body: Record<string, unknown> = {
    description: direct ? 'Demo order (direct)' : 'Demo order (hosted)',
    method: 'creditcard',
    currency: 'EUR',
    amount: 1999,
    billing: contact,
    shipping: contact,
    session: { redirect_url: `${base}/sandbox/return` },
  };
  if (direct) {
    body['creditcard'] = {
      number: '4242424242424242',
      cvc: '123',
      expiration: `${new Date().getUTCFullYear() + 2}-01-01T00:00:00.000Z`,
      holder_name: 'Ada Lovelace',
    };
    body['user'] = {
      ip_address: '127.0.0.1',
      user_agent: 'curl',
      accept: 'text/html',
      accept_encoding: 'gzip',
      accept_language: 'en-GB',
      language: 'en-GB',
      screen_width: 1920,
      screen_height: 1080,
      java_enabled: false,
      javascript_enabled: true,
      color_depth: 24,
      timezone_offset: -60,
    };
  }
  return JSON.stringify(body);
}

export function curl(url: string, token: string, body: string, key: string): string {
  return [
    `curl -sS -X POST ${url}`,
    `  -H 'Authorization: Bearer ${token}'`,
    `  -H 'Content-Type: application/json'`,
    `  -H "Idempotency-Key: ${key}"`,
    `  -d '${body}'`,
  ].join(' \\\n');
}

/**
 * The banner's capture, refund and cancel walkthrough (decisions.md section 8): commands to paste in
 * one shell, in order. The first keeps the new manual payment's id in `$PAYMENT`; each POST sends a
 * new `Idempotency-Key` per paste. The hosted-only client captures and refunds: no card data.
 */
export function operationCommands(url: string, compliantToken: string, hostedToken: string, base: string): string[] {
  const manual = JSON.stringify({ ...JSON.parse(exampleBody(true, base)), capture_method: 'manual' });
  const auth = `-H 'Authorization: Bearer ${hostedToken}'`;
  const keyed = (path: string, body: string | null, key: string) =>
    [
      `curl -sS -X POST ${url}/$PAYMENT/${path}`,
      `  ${auth}`,
      ...(body === null ? [] : [`  -H 'Content-Type: application/json'`]),
      `  -H "Idempotency-Key: ${key}-$(date +%s%N)"`,
      ...(body === null ? [] : [`  -d '${body}'`]),
    ].join(' \\\n');
  return [
    'Capture, refund and cancel (paste in one shell, in order; the first keeps the payment id in $PAYMENT):',
    'A manual payment: 19.99 reserved, nothing taken yet:',
    `PAYMENT=$(${curl(url, compliantToken, manual, 'demo-manual-$(date +%s%N)')} | sed -E 's/.*"id":"(payment_[0-9a-f]+)".*/\\1/'); echo "$PAYMENT"`,
    'Capture 15.00 of it (final: false keeps the rest open):',
    keyed('captures', '{"amount":1500,"final":false}', 'demo-capture'),
    'Refund 5.00 of what was captured:',
    keyed('refunds', '{"amount":500,"reference":"demo-refund"}', 'demo-refund'),
    'Release the 4.99 still reserved:',
    keyed('cancel', null, 'demo-cancel'),
    'The payment (amount_captured, amount_refunded, amount_capturable), its captures and its refunds:',
    `curl -sS ${url}/$PAYMENT ${auth}`,
    `curl -sS ${url}/$PAYMENT/captures ${auth}`,
    `curl -sS ${url}/$PAYMENT/refunds ${auth}`,
  ];
}
