import { err, ok, type Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { watchUnsent } from '../../src/engine/unsent-attempts.js';
import type { RepositoryError } from '../../src/index.js';
import { MAYBE_SENT as lost, NOT_SENT as refused } from '../support/repository-errors.js';

// How the engine tells a write that never reached storage from one that may have (see
// test/engine/unsent-writes.test.ts for what a command answers then).

describe('watchUnsent', () => {
  it('passes an answer given at once on as it is (no promise), and counts it', () => {
    const watched = watchUnsent(() => err(refused));
    const answer = watched.call();
    expect(typeof (answer as { then?: unknown }).then).toBe('undefined');
    expect(watched.noneSent()).toBe(true);
    const fine = watchUnsent(() => ok(1));
    expect(fine.noneSent()).toBe(false);
    fine.call();
    expect(fine.noneSent()).toBe(false);
  });

  it('counts a pending answer once it comes, and one that has not come as possibly sent', async () => {
    let settle: (result: Result<void, RepositoryError>) => void = () => undefined;
    const watched = watchUnsent(() => new Promise<Result<void, RepositoryError>>((resolve) => (settle = resolve)));
    const answer = watched.call();
    expect(watched.noneSent()).toBe(false);
    settle(err(refused));
    expect((await answer)._unsafeUnwrapErr()).toBe(refused);
    expect(watched.noneSent()).toBe(true);
    watched.call();
    expect(watched.noneSent()).toBe(false);
  });

  it('takes a failure without the flag, a throw, and an answer that is no Result for possibly sent', () => {
    const plain = watchUnsent(() => err(lost));
    plain.call();
    expect(plain.noneSent()).toBe(false);
    const throwing = watchUnsent((): Result<void, RepositoryError> => {
      throw new Error('bug');
    });
    expect(() => throwing.call()).toThrow('bug');
    expect(throwing.noneSent()).toBe(false);
    const odd = watchUnsent(() => ({ notSent: true }) as unknown as Result<void, RepositoryError>);
    odd.call();
    expect(odd.noneSent()).toBe(false);
  });
});
