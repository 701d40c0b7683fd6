import { initialTransition, transition } from 'xstate';
import {
  createMemoryCardVault,
  createMemoryPaymentRepository,
  createSequentialIdGenerator,
  createTestClock,
} from '../adapters/memory/index.js';
import { createSandboxAcquirer, createSandboxThreeDSProvider } from '../adapters/sandbox/index.js';
import type { Client } from '../src/index.js';
import { createPaymentEngine, createPureTransitions, paymentMachine } from '../src/index.js';
import { cardSubmission, directRequest, hostedRequest } from '../test/support/requests.js';
import { percentile, rate, timeFor } from './measure.js';

const client: Client = {
  id: 'client_bench',
  partnerId: 'partner_bench',
  profileIds: ['profile_bench'],
  pciDssCompliant: true,
};
const CARD = '4242424242424242';

function makeEngine() {
  const clock = createTestClock();
  return createPaymentEngine({
    repository: createMemoryPaymentRepository(),
    acquirer: createSandboxAcquirer({ rrn: () => '000000000001' }),
    threeDS: createSandboxThreeDSProvider({ challengeUrl: () => 'https://acs.invalid/', secret: 'bench' }),
    cardVault: createMemoryCardVault(clock),
    clock,
    ids: createSequentialIdGenerator(),
  });
}

/** (a) Full lifecycles through the public engine API, in-memory adapters, one after another (one core). */
async function engineLifecycles(flow: 'hosted' | 'direct', seconds: number): Promise<number> {
  const engine = makeEngine();
  const hosted = hostedRequest();
  const direct = directRequest(CARD);
  const submission = cardSubmission(CARD);
  const one = async () => {
    if (flow === 'direct') {
      const payment = (
        await engine.createPayment({ client, profileId: 'profile_bench', body: direct })
      )._unsafeUnwrap();
      if (payment.state !== 'succeeded') throw new Error(`unexpected ${payment.state}`);
      return;
    }
    const created = (await engine.createPayment({ client, profileId: 'profile_bench', body: hosted }))._unsafeUnwrap();
    const token = new URL(created.next?.redirect ?? '').searchParams.get('token') ?? '';
    const paid = (await engine.submitCard({ paymentId: created.id, token, body: submission }))._unsafeUnwrap();
    if (paid.state !== 'succeeded') throw new Error(`unexpected ${paid.state}`);
  };
  return rate(one, seconds);
}

/**
 * (b) The bare XState machine stepped through the same lifecycle with nothing around it:
 * hosted = initial, card.submitted, authentication.not_required, authorization.approved.
 * `pure` steps it as the engine does (one reused inert actor scope); `stock` uses XState's
 * exported `initialTransition`/`transition`, which build a throwaway actor per call.
 */
async function bareMachine(flow: 'hosted' | 'direct', seconds: number, variant: 'pure' | 'stock'): Promise<number> {
  const pure = createPureTransitions(paymentMachine);
  const initial =
    variant === 'pure'
      ? pure.initial
      : (input: { flow: 'hosted' | 'direct'; at: number }) => initialTransition(paymentMachine, input);
  const next =
    variant === 'pure'
      ? pure.next
      : (s: Parameters<typeof pure.next>[0], e: Parameters<typeof pure.next>[1]) => transition(paymentMachine, s, e);
  const one = async () => {
    const at = 1_768_478_400_000;
    let [snapshot] = initial({ flow, at });
    if (flow === 'hosted') [snapshot] = next(snapshot, { type: 'card.submitted', at });
    [snapshot] = next(snapshot, { type: 'authentication.not_required', at });
    [snapshot] = next(snapshot, { type: 'authorization.approved', at });
    if (snapshot.value !== 'succeeded') throw new Error('machine did not succeed');
  };
  return rate(one, seconds);
}

/** (c) A hand-written baseline: the same lifecycle as plain object updates, no machine. */
async function handWritten(flow: 'hosted' | 'direct', seconds: number): Promise<number> {
  type Plain = { state: string; expiresAt: number | null; authorization: string | null; events: string[] };
  const one = async () => {
    const at = 1_768_478_400_000;
    let p: Plain = {
      state: flow === 'hosted' ? 'awaiting_card_data' : 'authenticating',
      expiresAt: null,
      authorization: null,
      events: ['payment.created'],
    };
    if (flow === 'hosted') {
      p = { ...p, expiresAt: at + 3_600_000 };
      if (p.state !== 'awaiting_card_data') throw new Error('bad state');
      p = { ...p, state: 'authenticating', expiresAt: null };
    }
    if (p.state !== 'authenticating') throw new Error('bad state');
    p = { ...p, state: 'authorizing', authorization: 'requested' };
    if (p.state !== 'authorizing') throw new Error('bad state');
    p = { ...p, state: 'succeeded', authorization: null, events: [...p.events, 'payment.succeeded'] };
    if (p.state !== 'succeeded') throw new Error('bad state');
  };
  return rate(one, seconds);
}

/** p50/p99 latency of a direct-flow create (3DS not required → authorized) through the engine. */
async function directCreateLatency(samples: number): Promise<{ p50: number; p99: number }> {
  const engine = makeEngine();
  const body = directRequest(CARD);
  const durations: number[] = [];
  for (let i = 0; i < samples; i++) {
    durations.push(
      await timeFor(async () => void (await engine.createPayment({ client, profileId: 'profile_bench', body }))),
    );
  }
  return { p50: percentile(durations, 50), p99: percentile(durations, 99) };
}

export interface CoreBenchFigures {
  readonly engine: { readonly hosted: number; readonly direct: number };
  readonly machine: { readonly hosted: number; readonly direct: number };
  readonly stockMachine: { readonly hosted: number; readonly direct: number };
  readonly baseline: { readonly hosted: number; readonly direct: number };
  readonly directCreateMs: { readonly p50: number; readonly p99: number };
}

/**
 * Every variant is measured in `rounds` interleaved rounds of `seconds / rounds` each, and the
 * median round is reported: on a shared 2-core machine a single run of one variant swings by a
 * quarter between runs, and interleaving spreads slow phases over all variants alike.
 */
export async function runCoreBench(
  options: { seconds?: number; samples?: number; rounds?: number } = {},
): Promise<CoreBenchFigures> {
  const seconds = options.seconds ?? 5;
  const rounds = options.rounds ?? 5;
  const slice = seconds / rounds;
  const variants = {
    engineHosted: () => engineLifecycles('hosted', slice),
    engineDirect: () => engineLifecycles('direct', slice),
    machineHosted: () => bareMachine('hosted', slice, 'pure'),
    machineDirect: () => bareMachine('direct', slice, 'pure'),
    stockHosted: () => bareMachine('hosted', slice, 'stock'),
    stockDirect: () => bareMachine('direct', slice, 'stock'),
    baselineHosted: () => handWritten('hosted', slice),
    baselineDirect: () => handWritten('direct', slice),
  };
  type Variant = keyof typeof variants;
  // Warm up every path once so the JIT has seen it before anything is measured.
  for (const run of Object.values(variants)) await run();
  const results = new Map<Variant, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(variants) as [Variant, () => Promise<number>][]) {
      results.set(name, [...(results.get(name) ?? []), await run()]);
    }
  }
  const median = (name: Variant) => percentile(results.get(name) ?? [], 50);
  return {
    engine: { hosted: median('engineHosted'), direct: median('engineDirect') },
    machine: { hosted: median('machineHosted'), direct: median('machineDirect') },
    stockMachine: { hosted: median('stockHosted'), direct: median('stockDirect') },
    baseline: { hosted: median('baselineHosted'), direct: median('baselineDirect') },
    directCreateMs: await directCreateLatency(options.samples ?? 20_000),
  };
}

export function printCoreBench(f: CoreBenchFigures): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const r = (x: number) => x.toFixed(3);
  console.log('\n== core: lifecycles per second, one core, in-memory adapters (median of 5 interleaved rounds) ==');
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
    `direct-flow create latency: p50 ${f.directCreateMs.p50.toFixed(3)} ms, p99 ${f.directCreateMs.p99.toFixed(3)} ms`,
  );
  console.log('targets: (a) >= 10,000/s; a/b >= 0.5; p99 <= 1 ms');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printCoreBench(await runCoreBench());
}
