import { describe, expect, it } from 'vitest';
import { createOperationMachine, startOperation, stepOperation } from '../../src/machine/index.js';

const MINUTE = 60_000;

describe('operation machine', () => {
  const machine = createOperationMachine('refund', { inquiryDelaysMs: [MINUTE], notFoundIsFinalAfterInquiries: 2 });

  it('starts processing, asks the acquirer once, and is due for an inquiry if it hears nothing', () => {
    const start = startOperation(machine, 0);
    expect(start).toMatchObject({ state: 'processing', callAcquirer: true, events: [] });
    expect(start.context).toMatchObject({ status: 'requested', nextInquiryAt: 2 * MINUTE });
  });

  it('settles an answer with its events, and a final state takes no more events', () => {
    const start = startOperation(machine, 0);
    const done = stepOperation(machine, start, { type: 'operation.succeeded', at: 5, reference: 'ref_1' });
    expect(done).toMatchObject({ state: 'succeeded', callAcquirer: false, events: ['refund.succeeded'] });
    expect(done.context).toMatchObject({ status: null, nextInquiryAt: null, acquirerReference: 'ref_1' });
    const after = stepOperation(machine, done, { type: 'operation.declined', at: 6, reason: 'refund_declined' });
    expect(after).toMatchObject({ state: 'succeeded', changed: false, events: [] });
  });

  it('inquires after an unknown outcome, believes not_found only after the policy says, never calls again', () => {
    let step = stepOperation(machine, startOperation(machine, 0), { type: 'operation.unknown', at: 10 });
    expect(step).toMatchObject({ state: 'processing', callAcquirer: false });
    expect(step.context).toMatchObject({ status: 'unknown', nextInquiryAt: 10 + MINUTE, inquiryAttempts: 1 });
    step = stepOperation(machine, step, { type: 'inquiry.answered', at: 100, outcome: { kind: 'not_found' } });
    expect(step).toMatchObject({ state: 'processing', callAcquirer: false });
    expect(step.context.notFoundAnswers).toBe(1);
    step = stepOperation(machine, step, { type: 'inquiry.answered', at: 200, outcome: { kind: 'not_found' } });
    expect(step).toMatchObject({ state: 'failed', events: ['refund.failed'] });
    expect(step.context.failureReason).toBe('processing_error');
  });

  it('a declined cancel emits nothing; a declined capture emits payment.capture_failed', () => {
    const cancel = createOperationMachine('cancel');
    const declined = stepOperation(cancel, startOperation(cancel, 0), {
      type: 'operation.declined',
      at: 1,
      reason: 'declined',
    });
    expect(declined).toMatchObject({ state: 'failed', events: [] });
    const capture = createOperationMachine('capture');
    const failed = stepOperation(capture, startOperation(capture, 0), {
      type: 'operation.declined',
      at: 1,
      reason: 'capture_declined',
    });
    expect(failed).toMatchObject({ state: 'failed', events: ['payment.capture_failed'] });
    expect(failed.context.failureReason).toBe('capture_declined');
  });
});
