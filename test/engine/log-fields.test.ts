import { describe, expect, it } from 'vitest';
import { guardLogger, silentLogger, withLogFields, type Logger, type LogLevel } from '../../src/index.js';

interface Line {
  readonly level: LogLevel;
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

/** A logger that collects its lines; `enabled` (when given) is its `isLevelEnabled`. */
function collecting(enabled?: (level: LogLevel) => boolean): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const write = (level: LogLevel) => (fields: Record<string, unknown>, message: string) => {
    lines.push({ level, fields, message });
  };
  const logger: Logger = {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    ...(enabled !== undefined && { isLevelEnabled: enabled }),
  };
  return { logger, lines };
}

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

describe('withLogFields', () => {
  it('adds its fields to every line of every level, without changing the line given', () => {
    const { logger, lines } = collecting();
    const wrapped = withLogFields(logger, { requestId: 'req_1' });
    const given = { paymentId: 'payment_1' };
    for (const level of LEVELS) wrapped[level](given, `a ${level} line`);
    expect(lines).toEqual(
      LEVELS.map((level) => ({
        level,
        fields: { paymentId: 'payment_1', requestId: 'req_1' },
        message: `a ${level} line`,
      })),
    );
    expect(given).toEqual({ paymentId: 'payment_1' });
  });

  it("wins over a line's own field of the same name, and wrappers stack", () => {
    const { logger, lines } = collecting();
    const wrapped = withLogFields(withLogFields(logger, { requestId: 'outer', a: 1 }), { requestId: 'inner' });
    wrapped.info({ requestId: 'spoofed', b: 2 }, 'line');
    expect(lines[0]?.fields).toEqual({ requestId: 'outer', a: 1, b: 2 });
  });

  it('keeps isLevelEnabled: a disabled level reaches nothing, and says so', () => {
    const { logger, lines } = collecting((level) => level !== 'debug');
    const wrapped = withLogFields(logger, { requestId: 'req_1' });
    expect(LEVELS.map((level) => wrapped.isLevelEnabled?.(level))).toEqual([false, true, true, true]);
    let read = 0;
    const fields = new Proxy({ x: 1 }, { ownKeys: (target) => (read++, Reflect.ownKeys(target)) });
    wrapped.debug(fields, 'not written');
    expect(read).toBe(0);
    expect(lines).toEqual([]);
    wrapped.warn(fields, 'written');
    expect(lines.map((line) => line.message)).toEqual(['written']);
  });

  it('counts every level enabled when the logger has no isLevelEnabled', () => {
    const { logger } = collecting();
    const wrapped = withLogFields(logger, { requestId: 'req_1' });
    expect(LEVELS.map((level) => wrapped.isLevelEnabled?.(level))).toEqual([true, true, true, true]);
  });

  it('looks the methods up at each line, as pino swaps them when its level changes', () => {
    const { logger, lines } = collecting();
    const wrapped = withLogFields(logger, { requestId: 'req_1' });
    const swapped: Line[] = [];
    logger.info = (fields, message) => swapped.push({ level: 'info', fields, message });
    wrapped.info({}, 'after the swap');
    expect(lines).toEqual([]);
    expect(swapped).toEqual([{ level: 'info', fields: { requestId: 'req_1' }, message: 'after the swap' }]);
  });

  it('gives the silent logger back as it is (nothing to add to)', () => {
    expect(withLogFields(silentLogger, { requestId: 'req_1' })).toBe(silentLogger);
    expect(withLogFields(guardLogger(silentLogger), { requestId: 'req_1' })).toBe(silentLogger);
  });
});
