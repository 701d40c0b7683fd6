/** Why a call's signal was aborted: the engine stopped waiting, or the call's own time-out passed. */
export type CallAbortCause = 'aborted' | 'timeout';

/** The signal of one call, and why it was aborted once it is. `dispose` lets go of the timer and listener. */
export interface CallSignal {
  readonly signal: AbortSignal;
  cause(): CallAbortCause | null;
  dispose(): void;
}

/**
 * One signal for a call from the engine's (`PublishOptions.signal`, if any) and the call's own
 * time-out, whichever comes first.
 */
export function callSignal(outer: AbortSignal | undefined, timeoutMs: number): CallSignal {
  const controller = new AbortController();
  let cause: CallAbortCause | null = null;
  const abort = (why: CallAbortCause, reason: unknown) => {
    if (cause !== null) return;
    cause = why;
    controller.abort(reason);
  };
  const onOuterAbort = () => abort('aborted', outer?.reason);
  if (outer?.aborted === true) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  const timer = setTimeout(
    () => abort('timeout', new DOMException(`The webhook call took more than ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  return {
    signal: controller.signal,
    cause: () => cause,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    },
  };
}
