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
 * A paystate `Logger` over a pino logger that keeps paystate's scrubbing: fields and message are
 * cleaned as `createConsoleLogger` cleans them (card-data keys, and card numbers in every string,
 * key and number at any depth) before pino sees them. A level pino leaves off costs no scrubbing.
 * Pass this, not the pino logger itself (docs/guides/logging.md).
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
