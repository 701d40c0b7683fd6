import { describe, expect, it } from 'vitest';
import { containsCardNumber } from '../../src/domain/card-number.js';
import { runExample } from './run-example.js';

describe('examples/pino-logs.ts', () => {
  it("writes the engine's lines and the host's own as JSON through pino, with no card number or CVC", async () => {
    const output = await runExample('pino-logs.ts');
    const lines = output
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(containsCardNumber(output)).toBe(false);
    expect(output).not.toContain('4242');
    expect(output).not.toContain('"123"');
    const messages = lines.map((line) => line.msg);
    expect(messages).toEqual(expect.arrayContaining(['port call', 'payment state changed', 'command done']));
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 30, service: 'checkout', msg: 'payment created', state: 'succeeded' }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'retrying checkout for card [redacted]',
        request: {
          body: expect.objectContaining({
            creditcard: expect.objectContaining({ number: '[redacted]', cvc: '[redacted]' }),
          }),
        },
      }),
    );
    expect(lines.at(-1)).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: 'info',
      msg: 'bundled JSON line',
      card: '[redacted]',
    });
  });
});
