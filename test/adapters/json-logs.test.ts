import { describe, expect, it } from 'vitest';
import { createTestClock } from '../../adapters/memory/index.js';
import { createConsoleLogger, type LogLevel } from '../../adapters/node/index.js';
import { containsCardNumber } from '../../src/domain/card-number.js';

const CARD = '4242424242424242';

function capture(level: LogLevel | 'silent' = 'debug') {
  const chunks: string[] = [];
  const logger = createConsoleLogger({
    format: 'json',
    level,
    clock: createTestClock(),
    stream: { write: (chunk) => chunks.push(chunk) },
  });
  const lines = () => chunks.join('').split('\n').slice(0, -1);
  return { logger, chunks, lines, objects: () => lines().map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("createConsoleLogger({ format: 'json' })", () => {
  it('writes one JSON object per line: time, level, msg, then the fields, nested ones kept', () => {
    const { logger, chunks, objects } = capture();
    logger.info({ paymentId: 'payment_1', attempt: 2, port: { name: 'acquirer', ok: true } }, 'port call');
    logger.warn({}, 'careful');
    expect(chunks.every((chunk) => chunk.endsWith('\n') && chunk.indexOf('\n') === chunk.length - 1)).toBe(true);
    expect(objects()).toEqual([
      {
        time: '2026-01-15T12:00:00.000Z',
        level: 'info',
        msg: 'port call',
        paymentId: 'payment_1',
        attempt: 2,
        port: { name: 'acquirer', ok: true },
      },
      { time: '2026-01-15T12:00:00.000Z', level: 'warn', msg: 'careful' },
    ]);
  });

  it('never writes a card number: in the message, a field, a nested string, a key, a number, an error, an array', () => {
    const { logger, chunks, objects } = capture();
    logger.error(
      {
        note: `customer typed ${CARD}`,
        request: { body: { card: { holder: 'Ada', digits: '4242 4242 4242 4242' } }, tags: [`x ${CARD}`] },
        [CARD]: 'as a key',
        asNumber: Number(CARD),
        split: [4242, 4242, 4242, 4242],
        cause: new Error(`declined ${CARD}`),
        cvc: '937',
        card: { number: 'abc', security_code: '937' },
      },
      `failed for ${CARD}`,
    );
    const text = chunks.join('');
    expect(text).not.toContain('4242');
    expect(text).not.toContain('937');
    expect(containsCardNumber(text)).toBe(false);
    const [line] = objects();
    expect(line).toMatchObject({
      msg: 'failed for [redacted]',
      note: 'customer typed [redacted]',
      request: { body: { card: { holder: 'Ada', digits: '[redacted]' } }, tags: ['x [redacted]'] },
      '[redacted]': 'as a key',
      asNumber: '[redacted]',
      split: '[redacted]',
      cause: 'Error: declined [redacted]',
      cvc: '[redacted]',
      card: { number: '[redacted]', security_code: '[redacted]' },
    });
  });

  it('keeps a message with line breaks on one line, and a field named like a line key apart', () => {
    const { logger, lines, objects } = capture();
    logger.info({ msg: 'mine', level: 9, time: 'then' }, 'two\nlines\u2028and a separator');
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).not.toMatch(/[\u2028\u2029]/);
    expect(objects()[0]).toEqual({
      time: '2026-01-15T12:00:00.000Z',
      level: 'info',
      msg: 'two\nlines\u2028and a separator',
      'field.msg': 'mine',
      'field.level': 9,
      'field.time': 'then',
    });
  });

  it('writes the levels from its own on, and never throws for fields it cannot read', () => {
    const { logger, objects } = capture('warn');
    const hostile = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    logger.info({}, 'not written');
    expect(() => logger.error(hostile, 'written or lost, never thrown')).not.toThrow();
    logger.warn({ ok: 1 }, 'written');
    expect(objects().map((line) => line.msg)).toContain('written');
    expect(objects().map((line) => line.msg)).not.toContain('not written');
  });

  it('refuses a format it does not know', () => {
    expect(() => createConsoleLogger({ format: 'logfmt' as 'json' })).toThrow(/format needs text or json/);
  });
});
