import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('examples/opentelemetry.ts', () => {
  it("nests the engine's command and port spans under the host's span, and counts the payment", async () => {
    const lines = (await runExample('opentelemetry.ts')).trimEnd().split('\n');
    expect(lines).toEqual([
      'payment succeeded',
      'POST /checkout',
      '  paystate createPayment ok',
      '    paystate threeDS.authenticate ok',
      '    paystate repository.insert ok',
      '    paystate acquirer.authorize ok',
      '    paystate repository.update ok',
      'paystate.payments {"paystate.payment.state":"succeeded"} 1',
    ]);
  });
});
