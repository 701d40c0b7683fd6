import { describe, expect, it } from 'vitest';
import { createLoggingEventSink } from '../../adapters/sandbox-server/sandbox-event-sink.js';
import type { Logger, LogLevel } from '../../src/ports/logger.js';
import { makeEvent, makeSucceededRecord } from '../contracts/fixtures.js';

function recordingLogger(enabled: boolean) {
  const lines: { level: LogLevel; fields: Record<string, unknown>; message: string }[] = [];
  const at =
    (level: LogLevel) =>
    (fields: Record<string, unknown>, message: string): void => {
      lines.push({ level, fields, message });
    };
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    isLevelEnabled: () => enabled,
  };
  return { logger, lines };
}

describe('the sandbox logging event sink', () => {
  it('logs one info line per event, with its type, payment and public state, and answers at once', () => {
    const { logger, lines } = recordingLogger(true);
    const record = makeSucceededRecord();
    const event = makeEvent(record, 'payment.succeeded');
    const answer = createLoggingEventSink(logger).publish(event);
    // A plain Result: neither a Promise nor a ResultAsync (both are thenables).
    expect(typeof (answer as { then?: unknown }).then).toBe('undefined');
    expect('isOk' in answer && answer.isOk()).toBe(true);
    expect(lines).toEqual([
      {
        level: 'info',
        fields: { type: 'payment.succeeded', paymentId: record.id, profileId: record.profileId, state: 'succeeded' },
        message: 'event',
      },
    ]);
  });

  it('builds no line when the logger says info is off', () => {
    const { logger, lines } = recordingLogger(false);
    const answer = createLoggingEventSink(logger).publish(makeEvent(makeSucceededRecord()));
    expect('isOk' in answer && answer.isOk()).toBe(true);
    expect(lines).toEqual([]);
  });
});
