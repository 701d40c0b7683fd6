import type { EventSink } from '../../src/ports/event-sink.js';
import type { Logger } from '../../src/ports/logger.js';
import { createLoggingEventSink } from './logging-event-sink.js';

/**
 * The sandbox's event sink: one log line per event (`createLoggingEventSink`), and, given a webhook
 * sink, the event published there too, whose answer is then the answer (a refused webhook is offered
 * again, and logged again).
 */
export function createSandboxEventSink(logger: Logger, webhook?: EventSink): EventSink {
  const logging = createLoggingEventSink(logger);
  if (webhook === undefined) return logging;
  return {
    publish(event, options) {
      void logging.publish(event);
      return options === undefined ? webhook.publish(event) : webhook.publish(event, options);
    },
  };
}
