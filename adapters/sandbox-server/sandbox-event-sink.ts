import { ok } from 'neverthrow';
import type { EventSink } from '../../src/ports/event-sink.js';
import { logsAt, type Logger } from '../../src/ports/logger.js';

/** The sandbox's event sink: one log line per domain event (no card data is in events), answered at once. */
export function createLoggingEventSink(logger: Logger): EventSink {
  return {
    publish(event) {
      if (logsAt(logger, 'info')) {
        logger.info(
          { type: event.type, paymentId: event.paymentId, profileId: event.profileId, state: event.payment.state },
          'event',
        );
      }
      return ok(undefined);
    },
  };
}

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
