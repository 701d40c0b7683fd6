import fc from 'fast-check';
import { FAILURE_REASONS } from '../../src/domain/index.js';
import type { PaymentMachineEvent } from '../../src/machine/index.js';
import { PAYMENT_MACHINE_EVENT_TYPES } from '../../src/machine/index.js';

/** Any event the payment machine takes, at a time from 0 to 20 s (for machines with short deadlines). */
export const machineEvent: fc.Arbitrary<PaymentMachineEvent> = fc
  .tuple(
    fc.constantFrom(...PAYMENT_MACHINE_EVENT_TYPES),
    fc.integer({ min: 0, max: 20_000 }),
    fc.constantFrom(...FAILURE_REASONS),
    fc.constantFrom('approved', 'declined', 'not_found', 'pending'),
  )
  .map(([type, at, reason, kind]) => {
    if (type === 'authorization.declined') return { type, at, reason };
    if (type === 'inquiry.answered') {
      return { type, at, outcome: kind === 'declined' ? { kind, reason } : { kind } } as PaymentMachineEvent;
    }
    return { type, at } as PaymentMachineEvent;
  });
