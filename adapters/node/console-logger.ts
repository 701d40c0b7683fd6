import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import { isSensitiveKey, REDACTED, redactCardNumbers, sanitize, scrubLogFields } from './redact.js';
import { systemClock } from '../shared/index.js';

import type { LogLevel } from '../../src/ports/logger.js';

export type { LogLevel };
/** The levels of `LogLevel`, lowest first: a logger writes its `level` and those after it. */
export const LOG_LEVELS: readonly LogLevel[] = Object.freeze(['debug', 'info', 'warn', 'error']);

/** Anything with a `write(string)`: `process.stdout`, a file stream, a test collector. */
export interface LogStream {
  write(chunk: string): unknown;
}

/** How `createConsoleLogger` writes a line: human-readable text, or one JSON object. */
export type LogFormat = 'text' | 'json';

/** Options of `createConsoleLogger`. */
export interface ConsoleLoggerOptions {
  /** Lowest level written; `silent` writes nothing. Default `info`. */
  readonly level?: LogLevel | 'silent';
  /** Default `process.stdout`. */
  readonly stream?: LogStream;
  /** Source of the timestamp on each line. Default the system clock. */
  readonly clock?: Clock;
  /**
   * `text` (default): `<time> INFO  <message> key=value…`; `json`: one object per line,
   * `{"time":"<ISO>","level":"info","msg":"…",…fields}` (docs/guides/logging.md).
   */
  readonly format?: LogFormat;
}

/** Characters that make a string field need quotes. */
const NEEDS_QUOTES = /[\s"'=\\]|^$/;

function renderValue(value: unknown): string {
  const safe = sanitize(value);
  if (typeof safe === 'string') return NEEDS_QUOTES.test(safe) ? JSON.stringify(safe) : safe;
  return JSON.stringify(safe) ?? 'null';
}

function renderFields(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key}=${isSensitiveKey(key) ? REDACTED : renderValue(value)}`)
    .join(' ');
}

/** The keys a JSON line sets itself; a field of the same name is written as `field.<name>`. */
const JSON_KEYS: ReadonlySet<string> = new Set(['time', 'level', 'msg']);

/** One JSON line: every string, key and number scrubbed before it is serialized, so the JSON stays valid. */
function jsonLine(time: string, level: LogLevel, message: string, fields: Record<string, unknown>): string {
  const line: Record<string, unknown> = { time, level, msg: redactCardNumbers(String(message)) };
  for (const [key, value] of Object.entries(scrubLogFields(fields))) {
    line[JSON_KEYS.has(key) ? `field.${key}` : key] = value;
  }
  // JSON escapes every control character but the two Unicode line separators.
  return JSON.stringify(line)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Keeps one call on one line (no forged lines): control characters are escaped. */
function singleLine(text: string): string {
  let line = '';
  for (const character of text) {
    const code = character.charCodeAt(0);
    const control = code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029;
    line += control ? (ESCAPES[character] ?? `\\u${code.toString(16).padStart(4, '0')}`) : character;
  }
  return line;
}

/**
 * A `Logger` writing one readable line per call, or one JSON object with `format: 'json'`; card-data
 * keys and runs of 12 to 19 digits are `[redacted]` (log times as ISO strings). Never throws.
 */
export function createConsoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const level: unknown = options.level ?? 'info';
  // An unknown level ('verbose', 'trace' from another logger's vocabulary) read as -1: debug on.
  if (level !== 'silent' && !(LOG_LEVELS as readonly unknown[]).includes(level)) {
    throw new RangeError(`level needs one of ${[...LOG_LEVELS, 'silent'].join(', ')} (got ${String(level)})`);
  }
  const format: unknown = options.format ?? 'text';
  if (format !== 'text' && format !== 'json') {
    throw new RangeError(`format needs text or json (got ${String(format)})`);
  }
  const threshold = level === 'silent' ? LOG_LEVELS.length : LOG_LEVELS.indexOf(level as LogLevel);
  const stream = options.stream ?? process.stdout;
  const clock = options.clock ?? systemClock;

  const log =
    (level: LogLevel) =>
    (fields: Record<string, unknown>, message: string): void => {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      try {
        const time = new Date(clock.now()).toISOString();
        if (format === 'json') {
          stream.write(`${jsonLine(time, level, message, fields ?? {})}\n`);
          return;
        }
        const rendered = renderFields(fields ?? {});
        const line = `${time} ${level.toUpperCase().padEnd(5)} ${String(message)}${rendered === '' ? '' : ` ${rendered}`}`;
        stream.write(`${redactCardNumbers(singleLine(line))}\n`);
      } catch {
        // A logger must never break the operation it reports on.
      }
    };

  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    isLevelEnabled: (level) => LOG_LEVELS.indexOf(level) >= threshold,
  };
}
