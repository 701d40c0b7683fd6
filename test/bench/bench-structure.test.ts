/**
 * Structural checks of the benchmarks (bench/), cheap enough to run with every test run: that
 * (a), (b) and (c) of the core bench step the same lifecycle to the same final state, that
 * percentiles are nearest-rank, that the HTTP bench counts only good answers as throughput, and
 * that the cold start bench measures each import in a fresh node.
 */
import type { InspectionEvent } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  engineLifecycle,
  type Flow,
  handWrittenLifecycle,
  handWrittenStart,
  handWrittenStep,
  LIFECYCLE_EVENTS,
  LIFECYCLE_STATES,
  machineLifecycle,
  makeEngine,
} from '../../bench/core-bench.js';
import { BASELINE_LIBRARIES, coldStart } from '../../bench/cold-start-bench.js';
import { endpointFigures } from '../../bench/http-bench.js';
import { percentile } from '../../bench/measure.js';
import { paired, TELEMETRY_MODES, telemetryLifecycle } from '../../bench/telemetry-bench.js';
import { bareSdkSpanTree, spanTree } from '../../bench/telemetry-trees.js';
import { createOpenTelemetry } from '../../adapters/otel/index.js';
import { makeOtelSdk, parentOf, useAsyncContext } from '../support/otel-sdk.js';
import { createPureTransitions, paymentMachine } from '../../src/index.js';

const FLOWS: readonly Flow[] = ['hosted', 'direct'];
/** A snapshot's top-level state (`authorizing` is compound: `{ authorizing: 'requested' }`). */
const topState = (value: unknown): unknown =>
  typeof value === 'object' && value !== null ? Object.keys(value)[0] : value;
const AT = 1_768_478_400_000;

describe('core bench: one lifecycle for (a), (b) and (c)', () => {
  it.each(FLOWS)('%s: the engine steps the bench events through the bench states to succeeded', async (flow) => {
    const events: string[] = [];
    const states: unknown[] = [];
    const engine = makeEngine({
      inspect: (event: InspectionEvent) => {
        if (event.type === '@xstate.event') events.push(event.event.type);
        if (event.type === '@xstate.snapshot') states.push(topState((event.snapshot as { value?: unknown }).value));
      },
    });
    const payment = await engineLifecycle(engine, flow)();
    expect(payment.state).toBe('succeeded');
    expect(events).toEqual(['xstate.init', ...LIFECYCLE_EVENTS[flow]]);
    expect(states).toEqual(LIFECYCLE_STATES[flow]);
  });

  it.each(FLOWS)('%s: the bare machine passes the same states, both ways of stepping it', (flow) => {
    const pure = createPureTransitions(paymentMachine);
    let [snapshot] = pure.initial({ flow, at: AT });
    const states: unknown[] = [topState(snapshot.value)];
    for (const type of LIFECYCLE_EVENTS[flow]) {
      [snapshot] = pure.next(snapshot, { type, at: AT });
      states.push(topState(snapshot.value));
    }
    expect(states).toEqual(LIFECYCLE_STATES[flow]);
    expect(machineLifecycle(flow, 'pure')(AT).value).toBe('succeeded');
    expect(machineLifecycle(flow, 'stock')(AT).value).toBe('succeeded');
  });

  it.each(FLOWS)('%s: the hand-written baseline passes the same states', (flow) => {
    let payment = handWrittenStart(flow, AT);
    const states = [payment.state];
    for (const type of LIFECYCLE_EVENTS[flow]) {
      payment = handWrittenStep(payment, type, AT);
      states.push(payment.state);
    }
    expect(states).toEqual(LIFECYCLE_STATES[flow]);
    expect(handWrittenLifecycle(flow)(AT).state).toBe('succeeded');
    expect(() => handWrittenStep(handWrittenStart(flow, AT), 'authorization.approved', AT)).toThrow();
  });
});

describe('percentile', () => {
  const oneTo = (n: number) => Array.from({ length: n }, (_, i) => n - i);

  it('is the nearest rank', () => {
    expect(percentile(oneTo(100), 50)).toBe(50);
    expect(percentile(oneTo(100), 99)).toBe(99);
    expect(percentile(oneTo(100), 100)).toBe(100);
    expect(percentile(oneTo(100), 0)).toBe(1);
    expect(percentile(oneTo(20_000), 99)).toBe(19_800);
    expect(percentile(oneTo(5), 50)).toBe(3);
    expect(percentile(oneTo(8), 50)).toBe(4);
    expect(percentile([7], 99)).toBe(7);
  });

  it('is NaN for no values and refuses a p outside 0–100', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('http bench: only 201 answers are throughput', () => {
  const run = (codes: Record<string, number>, errors = 0, timeouts = 0) => {
    const total = Object.values(codes).reduce((sum, count) => sum + count, 0);
    return {
      requests: { average: total / 2, total },
      latency: { p50: 1, p99: 2, average: 1 },
      statusCodeStats: Object.fromEntries(Object.entries(codes).map(([code, count]) => [code, { count }])),
      non2xx: total - (codes['201'] ?? 0),
      errors,
      timeouts,
      duration: 2,
    };
  };

  it('counts other answers, errors and time-outs as failures, not requests', () => {
    const figures = endpointFigures([run({ '201': 100, '401': 900 }, 3, 1), run({ '201': 300 }), run({ '500': 50 })]);
    expect(figures.totalRequests).toBe(400);
    expect(figures.failures).toBe(900 + 3 + 1 + 50);
    // Per run 50, 150 and 0 answered 201 per second: the median.
    expect(figures.requestsPerSecond).toBe(50);
  });
});

describe('cold start bench: a fresh node per run', () => {
  it('loads the baseline libraries from the project and reports their time and memory', async () => {
    const empty = await coldStart([]);
    const libraries = await coldStart(BASELINE_LIBRARIES);
    expect(libraries.importMs).toBeGreaterThan(empty.importMs);
    expect(libraries.totalMs).toBeGreaterThanOrEqual(libraries.importMs);
    expect(libraries.rssMb).toBeGreaterThan(empty.rssMb);
    await expect(coldStart(['paystate-no-such-package'])).rejects.toThrow();
  });
});

describe('telemetry bench: the same lifecycle in each mode', () => {
  it.each(TELEMETRY_MODES)(
    '%s: the direct lifecycle succeeds; only the SDK keeps spans (five per lifecycle)',
    async (mode) => {
      const lifecycle = telemetryLifecycle(mode);
      try {
        for (let i = 0; i < 3; i++) expect((await lifecycle.one()).state).toBe('succeeded');
        expect(lifecycle.spans()).toBe(mode === 'sdk' ? 15 : 0);
      } finally {
        await lifecycle.done();
      }
    },
  );

  it('pairs two engines in alternating batches: the same mode on both is a ratio near 1', async () => {
    const ratio = await paired(['off', 'off'], 0);
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1 / 0.6);
  });

  it('times a lifecycle’s telemetry through the adapter and straight on the SDK: the same five spans, nested alike', async () => {
    const removeContext = useAsyncContext();
    const sdk = makeOtelSdk();
    try {
      const trees = {
        adapter: spanTree(
          createOpenTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }),
        ),
        bare: bareSdkSpanTree(sdk),
      };
      const shapes = Object.values(trees).map((tree) => {
        sdk.spans.reset();
        tree(0);
        const spans = sdk.finished();
        const command = spans.find((span) => span.name === 'paystate createPayment');
        return spans.map((span) => `${span.name}${parentOf(span) === command?.spanContext().spanId ? ' (child)' : ''}`);
      });
      expect(shapes[0]).toEqual([
        'paystate threeDS.authenticate (child)',
        'paystate repository.insert (child)',
        'paystate acquirer.authorize (child)',
        'paystate repository.update (child)',
        'paystate createPayment',
      ]);
      expect(shapes[1]).toEqual(shapes[0]);
    } finally {
      await sdk.shutdown();
      removeContext();
    }
  });
});
