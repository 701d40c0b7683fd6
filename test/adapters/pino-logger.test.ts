import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createPinoLogger } from '../../adapters/node/index.js';
import { containsCardNumber } from '../../src/domain/card-number.js';
import { guardLogger, logsAt } from '../../src/ports/logger.js';

const CARD = '5555 5555 5555 4444';

/** A real pino logger writing to a collecting stream. */
function realPino(level = 'info') {
  const chunks: string[] = [];
  const logger = pino({ level }, { write: (chunk: string) => chunks.push(chunk) });
  const objects = () => chunks.map((chunk) => JSON.parse(chunk) as Record<string, unknown>);
  return { logger, chunks, objects };
}

const leaky = (logger: { info(fields: object, message: string): void }) =>
  logger.info(
    { note: `card ${CARD}`, nested: { deeper: { pan: 'x', text: [`again ${CARD}`] } }, err: new Error(`for ${CARD}`) },
    `paid with ${CARD}`,
  );

describe('createPinoLogger over a real pino 10', () => {
  it('without it, pino writes the card number as it was given (what the adapter is for)', () => {
    const { logger, chunks } = realPino();
    leaky(logger);
    expect(containsCardNumber(chunks.join(''))).toBe(true);
  });

  it('with it, no card number in the message or any field reaches the stream; the rest does', () => {
    const { logger, chunks, objects } = realPino();
    leaky(createPinoLogger(logger));
    expect(chunks.join('')).not.toContain('4444');
    expect(containsCardNumber(chunks.join(''))).toBe(false);
    expect(objects()[0]).toMatchObject({
      level: 30,
      msg: 'paid with [redacted]',
      note: 'card [redacted]',
      nested: { deeper: { pan: '[redacted]', text: ['again [redacted]'] } },
      err: 'Error: for [redacted]',
    });
  });

  it("follows pino's level, also when it changes later, and through a child logger", () => {
    const { logger, objects } = realPino('warn');
    const child = logger.child({ service: 'payments' });
    const ours = createPinoLogger(child);
    expect(logsAt(ours, 'info')).toBe(false);
    ours.info({ n: 1 }, 'dropped');
    child.level = 'debug';
    expect(logsAt(ours, 'debug')).toBe(true);
    guardLogger(ours).debug({ n: 2 }, `kept ${CARD}`);
    expect(objects()).toEqual([
      expect.objectContaining({ level: 20, service: 'payments', n: 2, msg: 'kept [redacted]' }),
    ]);
  });
});
