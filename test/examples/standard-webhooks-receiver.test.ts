import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('examples/standard-webhooks-receiver.ts', () => {
  it('delivers an event the standardwebhooks library verifies, and the library refuses a tampered body', async () => {
    const lines = (await runExample('standard-webhooks-receiver.ts')).trimEnd().split('\n');
    expect(lines).toEqual([
      'hosted payment: processing',
      'delivering events',
      '  received payment.created (processing)',
      'a tampered request',
      '  refused: No matching signature found',
      '  answered 401',
    ]);
  });
});
