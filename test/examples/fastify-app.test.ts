import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('examples/fastify-app.ts', () => {
  it('refuses a caller without a staff key, creates and reads a payment under /payments-api, answers bad JSON as a problem', async () => {
    const lines = (await runExample('fastify-app.ts')).trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe('without a staff key: 401 {"error":"Unknown staff key"}');
    expect(lines[1]).toMatch(
      /^created: 201 processing \/payments-api\/v1\/partners\/partner_shop\/profiles\/profile_shop\/payments\/payment_[0-9a-f]{32}$/,
    );
    expect(lines[2]).toMatch(/^send the cardholder to: https:\/\/shop\.example\/pay\/payment_[0-9a-f]{32}\?token=/);
    expect(lines[3]).toBe('read back: 200 processing');
    expect(lines[4]).toBe('bad JSON: 400 application/problem+json invalid_json');
    expect(lines[5]).toBe(`the host's own routes still answer: 200 {"ok":true}`);
  });
});
