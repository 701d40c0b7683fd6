import type { Logger } from '../../../src/ports/logger.js';

/**
 * A logger that keeps every call as unredacted JSON, so a test sees exactly what the code
 * handed to the logger (a real logger's own redaction cannot hide a leak).
 */
export function collectingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void => {
      lines.push(JSON.stringify({ level, message, ...fields }));
    };
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}
