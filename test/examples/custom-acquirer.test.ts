import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

// The example's adapter also runs the acquirer contract suite: test/contracts/acquirer.test.ts.

describe('examples/custom-acquirer.ts', () => {
  it('authorizes through the bank adapter: approved, refused, and a lost reply settled by the sweeper', async () => {
    const lines = (await runExample('custom-acquirer.ts')).trimEnd().split('\n');
    expect(lines).toEqual([
      'EUR 10.00: succeeded, rrn AUTH00000001',
      'EUR 10.51: failed, insufficient_funds',
      "EUR 10.96: processing (the bank's reply was lost; the sweeper will ask the bank)",
      'sweep: 1 reconciled',
      'EUR 10.96: succeeded after the inquiry',
      'the bank holds 3 authorizations, cards masked: 555555******4444, 555555******4444, 555555******4444',
    ]);
  });
});
