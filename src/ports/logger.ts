export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Structured logger, compatible with pino's `(object, message)` calling convention. */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  /**
   * Whether a level is written at all (pino has the same method). The engine then skips building
   * the fields of lines nobody reads: a debug line per port call costs more than some port calls.
   * Without it, every level counts as enabled.
   */
  isLevelEnabled?(level: LogLevel): boolean;
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  isLevelEnabled: () => false,
};

/** True unless the logger says the level is off. */
export function logsAt(logger: Logger, level: LogLevel): boolean {
  return logger.isLevelEnabled === undefined || logger.isLevelEnabled(level);
}
