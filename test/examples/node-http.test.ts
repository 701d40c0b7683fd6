import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('examples/node-http.ts', () => {
  it('serves the API and the reference page on bare node:http', async () => {
    const lines = (await runExample('node-http.ts')).trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^created: 201 processing, hosted page https:\/\/pay\.example\/pay\/payment_[0-9a-f]{32}\?token=/,
      ),
      'invalid: 400 validation_failed (amount, billing, session, shipping)',
      'reference page: 200 text/html; charset=utf-8',
    ]);
  });
});
