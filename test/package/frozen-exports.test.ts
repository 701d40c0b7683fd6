import { describe, expect, it } from 'vitest';
import * as core from 'paystate';
import * as express from 'paystate/express';
import * as fastify from 'paystate/fastify';
import * as hostedPage from 'paystate/hosted-page';
import * as http from 'paystate/http';
import * as memory from 'paystate/memory';
import * as node from 'paystate/node';
import * as otel from 'paystate/otel';
import * as postgres from 'paystate/postgres';
import * as sandbox from 'paystate/sandbox';
import * as sandboxServer from 'paystate/sandbox-server';
import * as webhooks from 'paystate/webhooks';

/**
 * Exported constants are shared by every engine in the process: the defaults, the test card
 * table, the state lists, the clock. A host that changes one by mistake (`push`, an assignment,
 * a `Set`'s `add`) would change them for everyone, so every exported value that is not a
 * function is frozen all the way down.
 */

const ENTRY_POINTS: Readonly<Record<string, Record<string, unknown>>> = {
  paystate: core,
  'paystate/express': express,
  'paystate/fastify': fastify,
  'paystate/hosted-page': hostedPage,
  'paystate/http': http,
  'paystate/memory': memory,
  'paystate/node': node,
  'paystate/otel': otel,
  'paystate/postgres': postgres,
  'paystate/sandbox': sandbox,
  'paystate/sandbox-server': sandboxServer,
  'paystate/webhooks': webhooks,
};

/**
 * Left out, with the reason: zod schemas are immutable through their API (every method answers a
 * new schema), and XState's machine object keeps caches of its own.
 */
const isZodSchema = (value: object): boolean => '_zod' in value;
const LEFT_OUT = new Set(['paystate:paymentMachine']);

/** The first place under `value` that can be changed, or undefined. */
function firstMutable(value: unknown, path: string, seen: Set<object>): string | undefined {
  if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
  seen.add(value);
  if (!Object.isFrozen(value)) return path;
  if (value instanceof Set || value instanceof Map || value instanceof WeakMap || value instanceof WeakSet) {
    return `${path} (a ${value.constructor.name}: freezing it does not stop its own methods)`;
  }
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor)) continue;
    const found = firstMutable(descriptor.value, `${path}.${String(key)}`, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

const exportedObjects = Object.entries(ENTRY_POINTS).flatMap(([entry, module]) =>
  Object.entries(module)
    .filter(([name, value]) => typeof value === 'object' && value !== null && !LEFT_OUT.has(`${entry}:${name}`))
    .filter(([, value]) => !isZodSchema(value as object))
    .map(([name, value]) => ({ entry, name, value })),
);

describe('exported constants', () => {
  it('finds the constants it checks', () => {
    const names = exportedObjects.map(({ entry, name }) => `${entry}:${name}`);
    for (const expected of [
      'paystate:CARD_SCHEMES',
      'paystate:FINAL_STATES',
      'paystate:DEFAULT_PAYMENT_MACHINE_OPTIONS',
      'paystate:DEFAULT_INQUIRY_DELAYS',
      'paystate:silentLogger',
      'paystate/sandbox:SANDBOX_TEST_CARDS',
      'paystate/node:systemClock',
      'paystate/postgres:MIGRATIONS',
      'paystate/http:PROBLEM_STATUS',
      'paystate/sandbox-server:BUNDLED_SANDBOX_CONFIG',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(exportedObjects)('$entry $name is frozen all the way down', ({ name, value }) => {
    expect(firstMutable(value, name, new Set())).toBeUndefined();
  });

  it('FINAL_STATES reads like a set and cannot be added to', () => {
    const finalStates = core.FINAL_STATES;
    expect([...finalStates].sort()).toEqual(['expired', 'failed', 'succeeded']);
    expect(finalStates.size).toBe(3);
    expect(finalStates.has('succeeded')).toBe(true);
    expect(finalStates.has('authorizing')).toBe(false);
    const seen: string[] = [];
    finalStates.forEach((value, again, set) => {
      expect(again).toBe(value);
      expect(set).toBe(finalStates);
      seen.push(value);
    });
    expect(seen).toEqual([...finalStates.values()]);
    expect([...finalStates.keys()]).toEqual(seen);
    expect([...finalStates.entries()]).toEqual(seen.map((value) => [value, value]));
    expect('add' in finalStates).toBe(false);
    expect(core.isFinalState('authorizing')).toBe(false);
    expect(core.isFinalState('expired')).toBe(true);
  });

  it('a test card changed by mistake throws instead of changing the sandbox', () => {
    const card = sandbox.SANDBOX_TEST_CARDS[0] as { expected: unknown };
    expect(() => {
      'use strict';
      card.expected = { state: 'failed' };
    }).toThrow(TypeError);
  });
});
