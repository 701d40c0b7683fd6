import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('examples/webhook-receiver.ts', () => {
  it('delivers each event, signed, to a receiver that verifies it, and the receiver refuses a forged request', async () => {
    const lines = (await runExample('webhook-receiver.ts')).trimEnd().split('\n');
    expect(lines).toEqual([
      'approved card: succeeded',
      'declined card: failed',
      'delivering events',
      '  received payment.created (processing)',
      '  received payment.succeeded (succeeded)',
      '  received payment.created (processing)',
      '  received payment.failed (failed, insufficient_funds)',
      'a forged request',
      '  refused a request: no_matching_signature',
      '  answered 401',
    ]);
  });
});
