import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('examples/express-app.ts', () => {
  it('refuses a caller without a staff key, and creates and reads a payment under /payments-api', async () => {
    const lines = (await runExample('express-app.ts')).trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('without a staff key: 401 {"error":"Unknown staff key"}');
    expect(lines[1]).toMatch(
      /^created: 201 processing \/payments-api\/v1\/partners\/partner_shop\/profiles\/profile_shop\/payments\/payment_[0-9a-f]{32}$/,
    );
    expect(lines[2]).toMatch(/^send the cardholder to: https:\/\/shop\.example\/pay\/payment_[0-9a-f]{32}\?token=/);
    expect(lines[3]).toBe('read back: 200 processing');
    expect(lines[4]).toBe(`the host's own routes still answer: 200 {"ok":true}`);
  });
});
