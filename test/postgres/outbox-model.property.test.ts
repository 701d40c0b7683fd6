import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryPaymentRepository } from '../../adapters/memory/index.js';
import { createPostgresPaymentRepository } from '../../adapters/postgres/index.js';
import type { PaymentRecord } from '../../src/domain/payment-record.js';
import type { PaymentRepository } from '../../src/ports/payment-repository.js';
import { makeEvent, makeRecord, nextVersion, T0 } from '../contracts/fixtures.js';
import { expectOk } from '../contracts/payment-repository.contract.js';
import { NUM_RUNS } from '../support/property-runs.js';
import { resetTables, useMigratedDatabase } from './support/migrated-database.js';

const db = useMigratedDatabase();

type Operation =
  | { kind: 'write'; payment: number; events: number }
  | { kind: 'read'; at: number; limit: number }
  | { kind: 'defer'; picks: number[]; attempts: number; at: number }
  | { kind: 'mark'; picks: number[] };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), payment: fc.nat(6), events: fc.integer({ min: 0, max: 3 }) }),
  fc.record({
    kind: fc.constant('read' as const),
    at: fc.integer({ min: -5, max: 20 }),
    limit: fc.integer({ min: 0, max: 6 }),
  }),
  fc.record({
    kind: fc.constant('defer' as const),
    picks: fc.array(fc.nat(30), { maxLength: 3 }),
    attempts: fc.integer({ min: 0, max: 5 }),
    at: fc.integer({ min: -5, max: 20 }),
  }),
  fc.record({ kind: fc.constant('mark' as const), picks: fc.array(fc.nat(30), { maxLength: 3 }) }),
);

interface ModelEntry {
  readonly id: string;
  readonly payment: string;
  attempts: number;
  retryAt: number | null;
  delivered: boolean;
}

/** The port's rule, written as plainly as possible: the oldest due entries, order kept per payment. */
function modelRead(model: readonly ModelEntry[], now: number, limit: number): [string, number][] {
  const found: [string, number][] = [];
  const waiting = new Set<string>();
  for (const entry of model) {
    if (entry.delivered || waiting.has(entry.payment)) continue;
    if (found.length >= limit) break;
    if (entry.retryAt !== null && entry.retryAt > now) waiting.add(entry.payment);
    else found.push([entry.id, entry.attempts]);
  }
  return found;
}

// Random writes, deferrals (of any entry, to earlier or later times, repeated), deliveries (also
// of entries not yet due) and reads at random times and limits: both adapters answer every read
// as the model does. Postgres keeps how long each event waits in a column of its own; this is
// what shows that column never changes an answer.
describe('the outbox of both repositories against a model', () => {
  it('answers every read as the model does (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 30 }), async (operations) => {
        await resetTables(db.pool);
        const postgres = createPostgresPaymentRepository({ pool: db.pool });
        const memory = createMemoryPaymentRepository();
        const model: ModelEntry[] = [];
        const sequences = new Map<PaymentRepository, Map<string, number>>([
          [memory, new Map()],
          [postgres, new Map()],
        ]);
        const payments: PaymentRecord[] = [];
        try {
          for (const op of operations) {
            if (op.kind === 'write') {
              const existing = payments[op.payment];
              const record = existing === undefined ? makeRecord() : nextVersion(existing);
              const events = Array.from({ length: op.events }, () => makeEvent(record));
              for (const repository of [memory, postgres]) {
                await expectOk(
                  existing === undefined ? repository.insert(record, events) : repository.update(record, events),
                );
                // Sequences as each adapter numbers them, read back while every entry is due.
                const bySequence = sequences.get(repository) as Map<string, number>;
                if (repository === postgres) {
                  const { rows } = await db.pool.query<{ event_id: string; sequence: string }>(
                    'SELECT event_id, sequence FROM paystate_outbox WHERE event_id = ANY($1)',
                    [events.map((event) => event.id)],
                  );
                  for (const row of rows) bySequence.set(row.event_id, Number(row.sequence));
                } else {
                  for (const event of events) bySequence.set(event.id, model.length + events.indexOf(event) + 1);
                }
              }
              if (existing === undefined) payments.push(record);
              else payments[op.payment] = record;
              for (const event of events) {
                model.push({ id: event.id, payment: record.id, attempts: 0, retryAt: null, delivered: false });
              }
            } else if (op.kind === 'read') {
              const now = T0 + op.at;
              const expected = modelRead(model, now, op.limit);
              for (const [name, repository] of [
                ['memory', memory],
                ['postgres', postgres],
              ] as const) {
                const entries = await expectOk(repository.readOutbox({ now, limit: op.limit }));
                const read: [string, number][] = entries.map((entry) => [entry.event.id, entry.attempts]);
                expect({ name, read }).toEqual({ name, read: expected });
              }
            } else if (model.length > 0) {
              const picked = [...new Set(op.picks.map((pick) => model[pick % model.length] as ModelEntry))];
              for (const repository of [memory, postgres]) {
                const bySequence = sequences.get(repository) as Map<string, number>;
                const picks = picked.map((entry) => bySequence.get(entry.id) as number);
                if (op.kind === 'mark') await expectOk(repository.markDelivered(picks));
                else {
                  await expectOk(
                    repository.deferDelivery(
                      picks.map((sequence) => ({ sequence, attempts: op.attempts, retryAt: T0 + op.at })),
                    ),
                  );
                }
              }
              for (const entry of picked) {
                if (entry.delivered) continue;
                if (op.kind === 'mark') entry.delivered = true;
                else {
                  entry.attempts = op.attempts;
                  entry.retryAt = T0 + op.at;
                }
              }
            }
          }
        } finally {
          await postgres.close();
        }
      }),
      { numRuns: NUM_RUNS },
    );
  }, 600_000);
});
