import type { Logger, LogLevel } from '../../src/ports/logger.js';
import { redactCardNumbers, scrubLogFields } from './redact.js';

/**
 * What `createPinoLogger` uses of a pino logger, by shape: pino (or a child of one) fits, and is
 * never imported, so it stays the host's own optional dependency.
 */
export interface PinoLike {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
  isLevelEnabled?(level: string): boolean;
}

/**
 * A paystate `Logger` over pino that scrubs card data as `createConsoleLogger` does before pino sees
 * it; pass this, not pino itself (guides/logging.md).
 */
export function createPinoLogger(pino: PinoLike): Logger {
  const enabled = (level: LogLevel): boolean => pino.isLevelEnabled?.(level) ?? true;
  const write =
    (level: LogLevel) =>
    (fields: Record<string, unknown>, message: string): void => {
      // pino swaps its methods when its level changes: looked up at each call.
      if (enabled(level)) pino[level](scrubLogFields(fields ?? {}), redactCardNumbers(String(message)));
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    isLevelEnabled: enabled,
  };
}
