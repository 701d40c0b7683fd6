import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('examples/queue-worker.ts', () => {
  it('works off the queue, then the sweeper settles the unknown authorization and expires the unused link', async () => {
    const lines = (await runExample('queue-worker.ts')).trimEnd().split('\n');
    expect(lines).toEqual([
      'job-order-1: succeeded',
      'job-order-2: failed insufficient_funds',
      'job-order-3: processing',
      expect.stringMatching(/^job-order-4: processing https:\/\/shop\.example\/pay\/payment_[0-9a-f]{32}\?token=/),
      'job-broken: refused, validation_failed (6 fields are invalid)',
      'delivering events',
      '  event payment.created order-1',
      '  event payment.succeeded order-1',
      '  event payment.created order-2',
      '  event payment.failed order-2 (insufficient_funds)',
      '  event payment.created order-3',
      '  event payment.created order-4',
      'sweep: 1 reconciled, 1 expired',
      '  event payment.expired order-4',
      '  event payment.succeeded order-3',
    ]);
  });
});
