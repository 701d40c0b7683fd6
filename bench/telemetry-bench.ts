/**
 * What tracing costs the engine: direct-flow lifecycles per second with telemetry off (no port),
 * on `@opentelemetry/api` with no SDK registered (its no-op), and with the SDK exporting to memory
 * (every span kept, metrics aggregated), as ratios against off, measured in the same run.
 */
import { trace } from '@opentelemetry/api';
import { createOpenTelemetry } from '../adapters/otel/index.js';
import type { Telemetry } from '../src/index.js';
import { makeOtelSdk, useAsyncContext } from '../test/support/otel-sdk.js';
import { engineLifecycle, makeEngine } from './core-bench.js';
import { collectGarbage, percentile, rate, rateSync } from './measure.js';

export type TelemetryMode = 'off' | 'api' | 'sdk';
export const TELEMETRY_MODES: readonly TelemetryMode[] = ['off', 'api', 'sdk'];

/**
 * One direct-flow lifecycle on an engine in `mode`, and what to call once it has been measured.
 * `sdk` registers the async-hooks context manager, as a host's SDK does; `spans` counts what it
 * exported (none for the others).
 */
export function telemetryLifecycle(mode: TelemetryMode) {
  if (mode === 'off') return { one: engineLifecycle(makeEngine(), 'direct'), spans: () => 0, done: async () => {} };
  if (mode === 'api') {
    const telemetry: Telemetry = createOpenTelemetry();
    return { one: engineLifecycle(makeEngine({}, telemetry), 'direct'), spans: () => 0, done: async () => {} };
  }
  const removeContext = useAsyncContext();
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
  /** A command span with one port span in it, with its metric, on the API with no SDK: per second. */
  readonly noopSpanPairsPerSecond: number;
}

/**
 * What the engine asks of `paystate/otel` for a command with one port call (two spans, the port
 * span run within its parent, a histogram record), with no SDK: the overhead alone, without the
 * engine's own time around it, which a loaded machine blurs in the lifecycle ratios.
 */
export function noopSpanPair(telemetry: Telemetry = createOpenTelemetry()): (call: number) => void {
  const portAttributes = { 'paystate.port': 'acquirer', 'paystate.operation': 'authorize' };
  return (call) => {
    const command = telemetry.startSpan('paystate createPayment', { 'paystate.command': 'createPayment' });
    command.within(() => {
      const port = telemetry.startSpan('paystate acquirer.authorize', portAttributes, command);
      port.within(() => call);
      telemetry.record('portCallDuration', port.end('ok'), { ...portAttributes, 'paystate.outcome': 'ok' });
    });
    command.end('ok');
  };
}

async function measure(mode: TelemetryMode, seconds: number): Promise<number> {
  const lifecycle = telemetryLifecycle(mode);
  try {
    return await rate(lifecycle.one, seconds);
  } finally {
    await lifecycle.done();
  }
}

export async function runTelemetryBench(
  options: { seconds?: number; rounds?: number } = {},
): Promise<TelemetryBenchFigures> {
  const rounds = options.rounds ?? 9;
  const slice = (options.seconds ?? 4.5) / rounds;
  for (const mode of TELEMETRY_MODES) {
    collectGarbage();
    await measure(mode, slice);
  }
  const results: Record<TelemetryMode, number[]> = { off: [], api: [], sdk: [] };
  for (let round = 0; round < rounds; round++) {
    const shift = round % TELEMETRY_MODES.length;
    for (const mode of [...TELEMETRY_MODES.slice(shift), ...TELEMETRY_MODES.slice(0, shift)]) {
      collectGarbage();
      results[mode].push(await measure(mode, slice));
    }
  }
  collectGarbage();
  const pair = noopSpanPair();
  const pairs = [0, 1, 2].map(() => rateSync(pair, 0.3));
  const vsOff = (mode: TelemetryMode) =>
    percentile(
      results[mode].map((value, round) => value / (results.off[round] ?? Number.NaN)),
      50,
    );
  return {
    rounds,
    vsOff: { off: 1, api: vsOff('api'), sdk: vsOff('sdk') },
    noopSpanPairsPerSecond: percentile(pairs, 50),
    perSecond: {
      off: percentile(results.off, 50),
      api: percentile(results.api, 50),
      sdk: percentile(results.sdk, 50),
    },
  };
}

export function printTelemetryBench(f: TelemetryBenchFigures): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const us = (ratio: number) => `+${((1 / ratio - 1) * (1e6 / f.perSecond.off)).toFixed(1)} µs`;
  console.log(
    `\n== telemetry: direct-flow lifecycles per second, in-memory adapters (median of ${f.rounds} interleaved rounds) ==`,
  );
  console.log('telemetry                                  per second   vs off (median of rounds)   per lifecycle');
  const rows: [TelemetryMode, string][] = [
    ['off', 'off (no telemetry port)'],
    ['api', 'paystate/otel, no SDK (API no-op)'],
    ['sdk', 'paystate/otel, SDK + in-memory exporters'],
  ];
  for (const [mode, label] of rows) {
    const value = f.perSecond[mode];
    console.log(
      `${label.padEnd(41)}${n(value).padStart(12)}   ${f.vsOff[mode].toFixed(3).padEnd(25)}${mode === 'off' ? '' : us(f.vsOff[mode])}`,
    );
  }
  console.log(
    `no SDK, the adapter alone: a command span with one port span in it and its metric, ` +
      `${((1 / f.noopSpanPairsPerSecond) * 1e6).toFixed(2)} µs (a direct lifecycle has 1 command and 4 port calls)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTelemetryBench(await runTelemetryBench());
}
