/** A `Logger` method's level, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Structured logger, compatible with pino's `(object, message)` calling convention. */
export interface Logger {
  /** Detail for debugging: port calls, finished commands. */
  debug(fields: Record<string, unknown>, message: string): void;
  /** Normal events: failed commands, background ticks that did work. */
  info(fields: Record<string, unknown>, message: string): void;
  /** Something to look at: a refused event, abandoned work. */
  warn(fields: Record<string, unknown>, message: string): void;
  /** Something broke: a defect, a failed background tick. */
  error(fields: Record<string, unknown>, message: string): void;
  /**
   * Whether a level is written at all (pino has the same method). The engine then skips building
   * the fields of lines nobody reads: a debug line per port call costs more than some port calls.
   * Without it, every level counts as enabled.
   */
  isLevelEnabled?(level: LogLevel): boolean;
}

/** A `Logger` that writes nothing: the engine's default. */
export const silentLogger: Logger = Object.freeze({
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  isLevelEnabled: () => false,
});

/** True unless the logger says the level is off. */
export function logsAt(logger: Logger, level: LogLevel): boolean {
  return logger.isLevelEnabled === undefined || logger.isLevelEnabled(level);
}

/**
 * The host's logger, made unable to throw or to reject (an `async` method's failure): a line that
 * cannot be written is lost, and never takes
 * the command or the background loop that wrote it along (a log transport that threw once used
 * to stop the background worker for good). Methods are looked up at each call, as pino swaps
 * them when its level changes.
 */
export function guardLogger(logger: Logger): Logger {
  if (logger === silentLogger) return logger;
  const write =
    (level: LogLevel) =>
    (fields: Record<string, unknown>, message: string): void => {
      try {
        const returned: unknown = logger[level](fields, message);
        // An async logger's failure is a rejected promise: handled here, or Node ends the process.
        if (typeof (returned as { then?: unknown } | null | undefined)?.then === 'function') {
          Promise.resolve(returned).catch(() => undefined);
        }
      } catch {
        // Lost: there is nowhere left to say so.
      }
    };
  const guarded: Logger = { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
  if (logger.isLevelEnabled === undefined) return guarded;
  return {
    ...guarded,
    isLevelEnabled: (level) => {
      try {
        return logger.isLevelEnabled?.(level) ?? true;
      } catch {
        return true;
      }
    },
  };
}
