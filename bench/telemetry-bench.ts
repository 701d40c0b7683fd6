/**
 * What tracing costs the engine: direct-flow lifecycles per second with telemetry off (no port),
 * on `@opentelemetry/api` with no SDK registered (its no-op), and with the SDK exporting to memory
 * (every span kept, metrics aggregated), as ratios against off, measured in the same run; beside
 * them, what the SDK itself costs for a lifecycle's spans and metrics, without the engine.
 */
import { context, createContextKey, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createOpenTelemetry } from '../adapters/otel/index.js';
import type { Telemetry } from '../src/index.js';
import { makeOtelSdk, useAsyncContext } from '../test/support/otel-sdk.js';
import { engineLifecycle, makeEngine } from './core-bench.js';
import { collectGarbage, percentile, rate, rateSync } from './measure.js';
import { sdkTrees } from './telemetry-trees.js';

export type TelemetryMode = 'off' | 'api' | 'context' | 'unexported' | 'sdk';
export const TELEMETRY_MODES: readonly TelemetryMode[] = ['off', 'api', 'context', 'unexported', 'sdk'];

/**
 * One direct-flow lifecycle on an engine in `mode`, and what to call once it has been measured.
 * `sdk` registers the async-hooks context manager, as a host's SDK does; `context` registers it
 * alone, with no telemetry port, and runs each lifecycle within a context (its share of `sdk`);
 * `unexported` is `sdk` with nothing behind the providers (a no-op span processor, no metric
 * reader): the SDK's spans and instruments without their export; `spans` counts what the SDK
 * exported (none for the others).
 */
export function telemetryLifecycle(mode: TelemetryMode) {
  if (mode === 'off') return { one: engineLifecycle(makeEngine(), 'direct'), spans: () => 0, done: async () => {} };
  if (mode === 'api') {
    const telemetry: Telemetry = createOpenTelemetry();
    return { one: engineLifecycle(makeEngine({}, telemetry), 'direct'), spans: () => 0, done: async () => {} };
  }
  const removeContext = useAsyncContext();
  if (mode === 'context') {
    // Run within a context, as a host's instrumented request is: only then does it follow every promise.
    const one = engineLifecycle(makeEngine(), 'direct');
    const request = ROOT_CONTEXT.setValue(createContextKey('paystate bench request'), true);
    return { one: () => context.with(request, one), spans: () => 0, done: async () => removeContext() };
  }
  if (mode === 'unexported') {
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] });
    const meterProvider = new MeterProvider();
    const telemetry = createOpenTelemetry({ tracerProvider, meterProvider });
    return {
      one: engineLifecycle(makeEngine({}, telemetry), 'direct'),
      spans: () => 0,
      done: async () => {
        await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
        removeContext();
      },
    };
  }
  const sdk = makeOtelSdk();
  const telemetry = createOpenTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
  return {
    one: engineLifecycle(makeEngine({}, telemetry), 'direct'),
    spans: () => sdk.finished().length,
    done: async () => {
      await sdk.shutdown();
      removeContext();
      trace.disable();
    },
  };
}

export interface TelemetryBenchFigures {
  readonly rounds: number;
  readonly perSecond: Readonly<Record<TelemetryMode, number>>;
  /**
   * The median over rounds of each round's ratio to off: the modes of one round run back to back,
   * so a machine whose load drifts between rounds blurs these less than the ratio of medians.
   */
  readonly vsOff: Readonly<Record<TelemetryMode, number>>;
  /** No SDK vs off, engines alive together in alternating batches (`paired`). */
  readonly noSdkPaired: number;
  /** No SDK: `isRecording()` of `paystate/otel` per second, which the engine asks once per command and port call. */
  readonly noSdkChecksPerSecond: number;
  /** With the SDK: a lifecycle's telemetry (`spanTree`) per second, through `paystate/otel` and straight on the SDK. */
  readonly sdkTreesPerSecond: Readonly<{ adapter: number; bare: number }>;
}

/** Lifecycles in a batch of `paired`: long enough to time, short enough that load drift hits both alike. */
const PAIRED_BATCH = 50;

/**
 * `b`'s throughput as a share of `a`'s, both engines warm and alive together, in alternating batches
 * of `PAIRED_BATCH` lifecycles for about `seconds` in all: the median of each pair of batches' ratio.
 * A machine whose load changes by the second blurs this less than the rounds.
 */
export async function paired(modes: readonly [TelemetryMode, TelemetryMode], seconds: number): Promise<number> {
  const [a, b] = [telemetryLifecycle(modes[0]), telemetryLifecycle(modes[1])];
  const batch = async (one: () => Promise<unknown>) => {
    const started = performance.now();
    for (let i = 0; i < PAIRED_BATCH; i++) await one();
    return performance.now() - started;
  };
  try {
    const ratios: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    for (let pair = 0; pair < 20 || performance.now() < deadline; pair++) {
      // Which goes first alternates, so that neither always runs after the other.
      let ta: number;
      let tb: number;
      if (pair % 2 === 0) {
        ta = await batch(a.one);
        tb = await batch(b.one);
      } else {
        tb = await batch(b.one);
        ta = await batch(a.one);
      }
      ratios.push(ta / tb);
    }
    // The first ten pairs warm both up.
    return percentile(ratios.slice(10), 50);
  } finally {
    await a.done();
    await b.done();
  }
}

/**
 * Lifecycles per second in `mode`, after a fifth as long unmeasured: the compiler re-fits the
 * engine's code to the mode before it (the mode after the SDK's otherwise paid for it).
 */
async function measure(mode: TelemetryMode, seconds: number): Promise<number> {
  const lifecycle = telemetryLifecycle(mode);
  try {
    await rate(lifecycle.one, seconds / 5);
    collectGarbage();
    return await rate(lifecycle.one, seconds);
  } finally {
    await lifecycle.done();
  }
}

export async function runTelemetryBench(
  options: { seconds?: number; rounds?: number } = {},
): Promise<TelemetryBenchFigures> {
  // Each mode leads as many rounds as every other: the first of a round ran slower on this machine.
  const rounds = Math.ceil((options.rounds ?? 15) / TELEMETRY_MODES.length) * TELEMETRY_MODES.length;
  const slice = (options.seconds ?? 4.5) / rounds;
  for (const mode of TELEMETRY_MODES) {
    collectGarbage();
    await measure(mode, slice);
  }
  const results: Record<TelemetryMode, number[]> = { off: [], api: [], context: [], unexported: [], sdk: [] };
  for (let round = 0; round < rounds; round++) {
    const shift = round % TELEMETRY_MODES.length;
    for (const mode of [...TELEMETRY_MODES.slice(shift), ...TELEMETRY_MODES.slice(0, shift)]) {
      collectGarbage();
      results[mode].push(await measure(mode, slice));
    }
  }
  collectGarbage();
  const noSdk = createOpenTelemetry();
  const check = (call: number) => {
    if (noSdk.isRecording?.() !== false) throw new Error(`call ${call}: no SDK is registered, yet it records`);
  };
  const checks = [0, 1, 2].map(() => rateSync(check, 0.2));
  const sdkTreesPerSecond = await sdkTrees(0.3);
  collectGarbage();
  const noSdkPaired = await paired(['off', 'api'], 3);
  const vsOff = (mode: TelemetryMode) =>
    percentile(
      results[mode].map((value, round) => value / (results.off[round] ?? Number.NaN)),
      50,
    );
  return {
    rounds,
    vsOff: {
      off: 1,
      api: vsOff('api'),
      context: vsOff('context'),
      unexported: vsOff('unexported'),
      sdk: vsOff('sdk'),
    },
    noSdkChecksPerSecond: percentile(checks, 50),
    noSdkPaired,
    sdkTreesPerSecond,
    perSecond: {
      off: percentile(results.off, 50),
      api: percentile(results.api, 50),
      context: percentile(results.context, 50),
      unexported: percentile(results.unexported, 50),
      sdk: percentile(results.sdk, 50),
    },
  };
}

export function printTelemetryBench(f: TelemetryBenchFigures): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const us = (ratio: number) => {
    const extra = (1 / ratio - 1) * (1e6 / f.perSecond.off);
    return `${extra < 0 ? '−' : '+'}${Math.abs(extra).toFixed(1)} µs`;
  };
  console.log(
    `\n== telemetry: direct-flow lifecycles per second, in-memory adapters (median of ${f.rounds} interleaved rounds) ==`,
  );
  console.log('telemetry                                  per second   vs off (median of rounds)   per lifecycle');
  const rows: [TelemetryMode, string][] = [
    ['off', 'off (no telemetry port)'],
    ['api', 'paystate/otel, no SDK (API no-op)'],
    ['context', 'off + async-hooks context manager'],
    ['unexported', 'paystate/otel, SDK exporting nothing'],
    ['sdk', 'paystate/otel, SDK + in-memory exporters'],
  ];
  for (const [mode, label] of rows) {
    const value = f.perSecond[mode];
    console.log(
      `${label.padEnd(41)}${n(value).padStart(12)}   ${f.vsOff[mode].toFixed(3).padEnd(25)}${mode === 'off' ? '' : us(f.vsOff[mode])}`,
    );
  }
  const perLifecycle = (perSecond: number) => `${(1e6 / perSecond).toFixed(1)} µs`;
  console.log(
    `no SDK vs off, both engines warm, alternating batches of ${PAIRED_BATCH} lifecycles for 3 s: ` +
      `${f.noSdkPaired.toFixed(3)} (median of the pairs' ratios)`,
  );
  console.log(
    `no SDK: the engine asks isRecording() once per command and port call (5 a lifecycle), ` +
      `${(1e9 / f.noSdkChecksPerSecond).toFixed(0)} ns each, and starts no span`,
  );
  console.log(
    `SDK: a lifecycle's telemetry alone (a command span, 4 port spans in it, 5 metric points): ` +
      `through paystate/otel ${perLifecycle(f.sdkTreesPerSecond.adapter)}, ` +
      `straight on the SDK ${perLifecycle(f.sdkTreesPerSecond.bare)}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTelemetryBench(await runTelemetryBench());
}
