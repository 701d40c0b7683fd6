import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('examples/hono-app.ts', () => {
  it('serves paystate, its OpenAPI document and its own routes from one Hono app', async () => {
    const lines = (await runExample('hono-app.ts')).trimEnd().split('\n');
    expect(lines).toEqual([
      'created: 201 succeeded card …4444',
      expect.stringMatching(
        /^Location: \/payments\/v1\/partners\/partner_shop\/profiles\/profile_shop\/payments\/payment_[0-9a-f]{32} \(served by the-shop\)$/,
      ),
      'listed: 200 1 payment(s)',
      'OpenAPI: paystate API, 14 paths; reference page at /payments/docs',
      "the host's own routes: The Shop",
    ]);
  });
});
