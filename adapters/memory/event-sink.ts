import { err, ok } from 'neverthrow';
import type { DomainEvent } from '../../src/domain/domain-event.js';
import type { EventSink, EventSinkError } from '../../src/ports/event-sink.js';
import { frozenCopy } from './frozen-copy.js';

/** Options of `createMemoryEventSink`. */
export interface MemoryEventSinkOptions {
  /** Called for every event; return an error to refuse it (it is then not recorded). */
  readonly failOn?: (event: DomainEvent) => EventSinkError | null | undefined;
}

/** An `EventSink` that records what it receives, for tests and the sandbox. */
export interface MemoryEventSink extends EventSink {
  /** Events published so far, oldest first (deep-frozen copies). */
  events(): readonly DomainEvent[];
  /** Forgets the recorded events. */
  clear(): void;
  /** Makes the next `publish` fail with `error` (default: a retryable `unavailable`); calls queue up. */
  injectFailure(error?: EventSinkError): void;
}

const injectedUnavailable: EventSinkError = {
  code: 'unavailable',
  message: 'Injected failure: the event sink is unavailable',
  retryable: true,
};

/** An in-memory `EventSink` that records every event it accepts; `failOn` and `injectFailure` make it refuse some. */
export function createMemoryEventSink(options: MemoryEventSinkOptions = {}): MemoryEventSink {
  let received: DomainEvent[] = [];
  const injected: EventSinkError[] = [];

  return {
    publish(event) {
      const failure = injected.shift() ?? options.failOn?.(event) ?? null;
      if (failure !== null) return err(failure);
      received.push(frozenCopy(event));
      return ok(undefined);
    },
    events: () => [...received],
    clear: () => {
      received = [];
    },
    injectFailure: (error = injectedUnavailable) => {
      injected.push(error);
    },
  };
}
