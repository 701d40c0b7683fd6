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

/**
 * `logger` with `fields` added to every line (`{ ...line, ...fields }`: they win over a line's own
 * field of the same name), e.g. a request's id on every line written for that request. Disabled
 * levels cost nothing: a line's fields are merged only when `logger` writes its level, and
 * `isLevelEnabled` answers as `logger` does (every level when it has no such method). It throws
 * when `logger` does: wrap a guarded one (`guardLogger`). `silentLogger` comes back as it is.
 */
export function withLogFields(logger: Logger, fields: Readonly<Record<string, unknown>>): Logger {
  return logger === silentLogger ? logger : new FieldsLogger(logger, fields);
}

/** What `withLogFields` makes: one small object per wrapper, its methods on the prototype. */
class FieldsLogger implements Logger {
  readonly #logger: Logger;
  readonly #fields: Readonly<Record<string, unknown>>;

  constructor(logger: Logger, fields: Readonly<Record<string, unknown>>) {
    this.#logger = logger;
    this.#fields = fields;
  }

  debug(fields: Record<string, unknown>, message: string): void {
    this.#write('debug', fields, message);
  }

  info(fields: Record<string, unknown>, message: string): void {
    this.#write('info', fields, message);
  }

  warn(fields: Record<string, unknown>, message: string): void {
    this.#write('warn', fields, message);
  }

  error(fields: Record<string, unknown>, message: string): void {
    this.#write('error', fields, message);
  }

  isLevelEnabled(level: LogLevel): boolean {
    return logsAt(this.#logger, level);
  }

  #write(level: LogLevel, fields: Record<string, unknown>, message: string): void {
    // Methods are looked up at each call, as pino swaps them when its level changes.
    if (logsAt(this.#logger, level)) this.#logger[level]({ ...fields, ...this.#fields }, message);
  }
}
