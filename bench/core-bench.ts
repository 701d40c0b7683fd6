import { initialTransition, transition } from 'xstate';
import {
  createMemoryCardVault,
  createMemoryPaymentRepository,
  createSequentialIdGenerator,
  createTestClock,
} from '../adapters/memory/index.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../adapters/sandbox/index.js';
import type { Client, Payment, PaymentEngine, PaymentEngineOptions, Telemetry } from '../src/index.js';
import { createPaymentEngine, createPureTransitions, paymentMachine } from '../src/index.js';
import { cardSubmission, directRequest, hostedRequest } from '../test/support/requests.js';
import { collectGarbage, percentile, rate, rateSync, timeFor } from './measure.js';

const client: Client = {
  id: 'client_bench',
  partnerId: 'partner_bench',
  profileIds: ['profile_bench'],
  pciDssCompliant: true,
};
const CARD = '4242424242424242';
/** The first call's time; each call adds its number, so no two calls step the same input. */
const T0 = 1_768_478_400_000;

export type Flow = 'hosted' | 'direct';
type LifecycleEventType = 'card.submitted' | 'authentication.not_required' | 'authorization.approved';

/**
 * The machine events of one lifecycle after the initial transition, in order: what the engine
 * sends for a card that needs no 3DS (the sandbox answers `not_required`, then approves). (b) and
 * (c) step exactly these; test/bench/bench-structure.test.ts checks that the engine does.
 */
export const LIFECYCLE_EVENTS: Readonly<Record<Flow, readonly LifecycleEventType[]>> = {
  hosted: ['card.submitted', 'authentication.not_required', 'authorization.approved'],
  direct: ['authentication.not_required', 'authorization.approved'],
};

/** The top-level state after the initial transition and after each of `LIFECYCLE_EVENTS`. */
export const LIFECYCLE_STATES: Readonly<Record<Flow, readonly string[]>> = {
  hosted: ['awaiting_card_data', 'authenticating', 'authorizing', 'succeeded'],
  direct: ['authenticating', 'authorizing', 'succeeded'],
};

/**
 * Where (b) and (c) put every version they build, so that none of it is unobservable work the
 * compiler may drop (the engine keeps its versions too: it stores them). A ring: it keeps the
 * last few only.
 */
const kept: unknown[] = new Array<unknown>(1024).fill(null);
let keptAt = 0;
const keep = (value: unknown): void => {
  kept[keptAt] = value;
  keptAt = (keptAt + 1) & 1023;
};

/** The bench's engine on in-memory adapters; `telemetry` when given (the telemetry bench). */
export function makeEngine(options: PaymentEngineOptions = {}, telemetry?: Telemetry) {
  const clock = createTestClock();
  return createPaymentEngine({
    repository: createMemoryPaymentRepository(),
    acquirer: createSandboxAcquirer({ rrn: () => '000000000001' }),
    threeDS: createSandboxThreeDSProvider({ challengeUrl: () => 'https://acs.invalid/', secret: 'bench' }),
    cardVault: createMemoryCardVault(clock),
    clock,
    ids: createSequentialIdGenerator(),
    ...(telemetry !== undefined && { telemetry }),
    options,
  });
}

/**
 * One lifecycle of (a) through the public engine API, answering the final public payment. An
 * error answer throws (`_unsafeUnwrap`), and so does any final state but `succeeded`: a
 * lifecycle that did not complete is never counted.
 */
export function engineLifecycle(engine: PaymentEngine, flow: Flow): () => Promise<Payment> {
  const hosted = hostedRequest();
  const direct = directRequest(CARD);
  const submission = cardSubmission(CARD);
  const succeeded = (payment: Payment): Payment => {
    if (payment.state !== 'succeeded') throw new Error(`unexpected ${payment.state}`);
    return payment;
  };
  if (flow === 'direct') {
    return async () =>
      succeeded((await engine.createPayment({ client, profileId: 'profile_bench', body: direct }))._unsafeUnwrap());
  }
  return async () => {
    const created = (await engine.createPayment({ client, profileId: 'profile_bench', body: hosted }))._unsafeUnwrap();
    const token = new URL(created.next?.redirect ?? '').searchParams.get('token') ?? '';
    return succeeded((await engine.submitCard({ paymentId: created.id, token, body: submission }))._unsafeUnwrap());
  };
}

/** (a) Full lifecycles through the public engine API, in-memory adapters, one after another (one core). */
async function engineLifecycles(flow: Flow, seconds: number): Promise<number> {
  const one = engineLifecycle(makeEngine(), flow);
  return rate(one, seconds);
}

/**
 * (b) One lifecycle of the bare XState machine with nothing around it: the initial transition,
 * then `LIFECYCLE_EVENTS`. `pure` steps it as the engine does (one reused inert actor scope);
 * `stock` uses XState's exported `initialTransition`/`transition`, which build a throwaway actor
 * per call. Answers the final snapshot; throws unless it is `succeeded`.
 */
export function machineLifecycle(flow: Flow, variant: 'pure' | 'stock') {
  const pure = createPureTransitions(paymentMachine);
  const initial =
    variant === 'pure' ? pure.initial : (input: { flow: Flow; at: number }) => initialTransition(paymentMachine, input);
  const next =
    variant === 'pure'
      ? pure.next
      : (s: Parameters<typeof pure.next>[0], e: Parameters<typeof pure.next>[1]) => transition(paymentMachine, s, e);
  const events = LIFECYCLE_EVENTS[flow];
  return (at: number) => {
    let [snapshot] = initial({ flow, at });
    keep(snapshot);
    for (const type of events) {
      [snapshot] = next(snapshot, { type, at });
      keep(snapshot);
    }
    if (snapshot.value !== 'succeeded') throw new Error('machine did not succeed');
    return snapshot;
  };
}

/** (b), synchronous as the machine is: no promise per lifecycle. */
function bareMachine(flow: Flow, seconds: number, variant: 'pure' | 'stock'): number {
  const one = machineLifecycle(flow, variant);
  return rateSync((call) => void one(T0 + call), seconds);
}

/** (c)'s payment: plain data, one new object per change. */
export interface HandWrittenPayment {
  readonly state: string;
  readonly updatedAt: number;
  readonly expiresAt: number | null;
  readonly authorization: string | null;
  readonly events: readonly string[];
}

/** (c)'s initial transition: a new payment in the state the machine's initial transition gives. */
export function handWrittenStart(flow: Flow, at: number): HandWrittenPayment {
  return flow === 'hosted'
    ? {
        state: 'awaiting_card_data',
        updatedAt: at,
        expiresAt: at + 3_600_000,
        authorization: null,
        events: ['payment.created'],
      }
    : { state: 'authenticating', updatedAt: at, expiresAt: null, authorization: null, events: ['payment.created'] };
}

/** (c)'s step: one of `LIFECYCLE_EVENTS` as a plain object update, refused from any other state. */
export function handWrittenStep(p: HandWrittenPayment, type: LifecycleEventType, at: number): HandWrittenPayment {
  switch (type) {
    case 'card.submitted':
      if (p.state !== 'awaiting_card_data') throw new Error(`${type} in ${p.state}`);
      return { ...p, state: 'authenticating', updatedAt: at, expiresAt: null };
    case 'authentication.not_required':
      if (p.state !== 'authenticating') throw new Error(`${type} in ${p.state}`);
      return { ...p, state: 'authorizing', updatedAt: at, authorization: 'requested' };
    case 'authorization.approved':
      if (p.state !== 'authorizing') throw new Error(`${type} in ${p.state}`);
      return {
        ...p,
        state: 'succeeded',
        updatedAt: at,
        authorization: 'approved',
        events: [...p.events, 'payment.succeeded'],
      };
  }
}

/** (c) One lifecycle as plain object updates, no machine: the same steps as (b), the same final state. */
export function handWrittenLifecycle(flow: Flow) {
  const events = LIFECYCLE_EVENTS[flow];
  return (at: number): HandWrittenPayment => {
    let p = handWrittenStart(flow, at);
    keep(p);
    for (const type of events) {
      p = handWrittenStep(p, type, at);
      keep(p);
    }
    if (p.state !== 'succeeded') throw new Error('hand-written lifecycle did not succeed');
    return p;
  };
}

/** (c), synchronous: no promise per lifecycle (which would cost more than the lifecycle). */
function handWritten(flow: Flow, seconds: number): number {
  const one = handWrittenLifecycle(flow);
  return rateSync((call) => void one(T0 + call), seconds);
}

/**
 * p50/p99 latency of a direct-flow create (3DS not required → succeeded) through the engine,
 * after `warmUp` untimed creates on the same engine. Every answer is checked (a failed create
 * throws rather than count as a fast sample).
 */
async function directCreateLatency(samples: number, warmUp = 500): Promise<{ p50: number; p99: number }> {
  const one = engineLifecycle(makeEngine(), 'direct');
  for (let i = 0; i < warmUp; i++) await one();
  collectGarbage();
  const durations: number[] = [];
  for (let i = 0; i < samples; i++) {
    durations.push(await timeFor(one));
  }
  return { p50: percentile(durations, 50), p99: percentile(durations, 99) };
}

export interface CoreBenchFigures {
  /** Interleaved rounds each lifecycle rate is the median of. */
  readonly rounds: number;
  readonly engine: { readonly hosted: number; readonly direct: number };
  readonly machine: { readonly hosted: number; readonly direct: number };
  readonly stockMachine: { readonly hosted: number; readonly direct: number };
  readonly baseline: { readonly hosted: number; readonly direct: number };
  readonly directCreateMs: { readonly p50: number; readonly p99: number; readonly samples: number };
}

/**
 * Every variant is measured in `rounds` interleaved rounds of `seconds / rounds` each, and the
 * median round is reported: on a shared 2-core machine a single run of one variant swings by a
 * quarter between runs, and interleaving spreads slow phases over all variants alike. Each round
 * starts one variant later than the one before, so no variant always follows the same one, and a
 * full garbage collection comes before every measured run, so none pays for another's garbage
 * (the engine's in-memory repository becomes garbage when its run ends).
 */
export async function runCoreBench(
  options: { seconds?: number; samples?: number; rounds?: number } = {},
): Promise<CoreBenchFigures> {
  const seconds = options.seconds ?? 5;
  const rounds = options.rounds ?? 5;
  const samples = options.samples ?? 20_000;
  const slice = seconds / rounds;
  const variants = {
    engineHosted: () => engineLifecycles('hosted', slice),
    engineDirect: () => engineLifecycles('direct', slice),
    machineHosted: async () => bareMachine('hosted', slice, 'pure'),
    machineDirect: async () => bareMachine('direct', slice, 'pure'),
    stockHosted: async () => bareMachine('hosted', slice, 'stock'),
    stockDirect: async () => bareMachine('direct', slice, 'stock'),
    baselineHosted: async () => handWritten('hosted', slice),
    baselineDirect: async () => handWritten('direct', slice),
  };
  type Variant = keyof typeof variants;
  const entries = Object.entries(variants) as [Variant, () => Promise<number>][];
  // Warm up every path once so the JIT has seen it before anything is measured.
  for (const [, run] of entries) {
    collectGarbage();
    await run();
  }
  const results = new Map<Variant, number[]>();
  for (let round = 0; round < rounds; round++) {
    const shift = round % entries.length;
    for (const [name, run] of [...entries.slice(shift), ...entries.slice(0, shift)]) {
      collectGarbage();
      results.set(name, [...(results.get(name) ?? []), await run()]);
    }
  }
  const median = (name: Variant) => percentile(results.get(name) ?? [], 50);
  collectGarbage();
  const latency = await directCreateLatency(samples);
  return {
    rounds,
    engine: { hosted: median('engineHosted'), direct: median('engineDirect') },
    machine: { hosted: median('machineHosted'), direct: median('machineDirect') },
    stockMachine: { hosted: median('stockHosted'), direct: median('stockDirect') },
    baseline: { hosted: median('baselineHosted'), direct: median('baselineDirect') },
    directCreateMs: { ...latency, samples },
  };
}

export function printCoreBench(f: CoreBenchFigures): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const r = (x: number) => x.toFixed(3);
  console.log(
    `\n== core: lifecycles per second, one core, in-memory adapters (median of ${f.rounds} interleaved rounds) ==`,
  );
  console.log('flow    (a) engine API   (b) bare machine   (c) hand-written   a/b     b/c');
  for (const flow of ['hosted', 'direct'] as const) {
    console.log(
      `${flow.padEnd(8)}${n(f.engine[flow]).padStart(13)}${n(f.machine[flow]).padStart(19)}${n(f.baseline[flow]).padStart(19)}` +
        `   ${r(f.engine[flow] / f.machine[flow])}   ${r(f.machine[flow] / f.baseline[flow])}`,
    );
  }
  console.log(
    `(b) with XState's stock transition(): hosted ${n(f.stockMachine.hosted)}/s, direct ${n(f.stockMachine.direct)}/s ` +
      `(the reused scope is ${r(f.machine.hosted / f.stockMachine.hosted)}x faster)`,
  );
  console.log(
    `direct-flow create latency (${n(f.directCreateMs.samples)} creates): ` +
      `p50 ${f.directCreateMs.p50.toFixed(3)} ms, p99 ${f.directCreateMs.p99.toFixed(3)} ms`,
  );
  console.log('targets: (a) >= 10,000/s; a/b >= 0.5; p99 <= 1 ms');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printCoreBench(await runCoreBench());
}
