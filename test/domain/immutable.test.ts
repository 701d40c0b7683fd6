import { describe, expect, it } from 'vitest';
import { deepFreeze, isDeepFrozen } from '../../src/domain/index.js';
import { frozenCopy } from '../../adapters/memory/frozen-copy.js';

describe('deepFreeze', () => {
  it('freezes every object and array it reaches, in place', () => {
    const value = { a: { b: [{ c: 1 }] }, d: 'x', e: null };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.a)).toBe(true);
    expect(Object.isFrozen(value.a.b)).toBe(true);
    expect(Object.isFrozen(value.a.b[0])).toBe(true);
    expect(isDeepFrozen(value)).toBe(true);
  });

  it('shares subtrees frozen before and freezes what a shallow freeze left mutable', () => {
    const shared = deepFreeze({ address: { city: 'Amsterdam' } });
    const next = deepFreeze({ billing: shared, state: 'succeeded' });
    expect(next.billing).toBe(shared);
    expect(isDeepFrozen(next)).toBe(true);
    const shallow = Object.freeze({ inner: { n: 1 } });
    deepFreeze(shallow);
    expect(Object.isFrozen(shallow.inner)).toBe(true);
  });
});

describe('isDeepFrozen', () => {
  it('is true for primitives and for plain data frozen all the way down', () => {
    for (const value of [1, 'x', null, undefined, true]) expect(isDeepFrozen(value)).toBe(true);
    expect(isDeepFrozen(deepFreeze([{ a: [1] }]))).toBe(true);
  });

  it('is false when anything below is still mutable, or is not plain data', () => {
    expect(isDeepFrozen({ a: 1 })).toBe(false);
    expect(isDeepFrozen(Object.freeze({ a: { b: 1 } }))).toBe(false);
    expect(isDeepFrozen(Object.freeze([Object.freeze({}), {}]))).toBe(false);
    expect(isDeepFrozen(Object.freeze(new Date(0)))).toBe(false);
    expect(isDeepFrozen(Object.freeze({ f: () => 1 }))).toBe(false);
  });
});

describe('frozenCopy (memory adapters)', () => {
  it('keeps what is frozen all the way down and copies anything else', () => {
    const kept = deepFreeze({ a: { b: 1 } });
    expect(frozenCopy(kept)).toBe(kept);

    const shallow = Object.freeze({ a: { b: 1 } });
    const copy = frozenCopy(shallow);
    expect(copy).not.toBe(shallow);
    expect(copy).toEqual(shallow);
    shallow.a.b = 2;
    expect(copy.a.b).toBe(1);
    expect(isDeepFrozen(copy)).toBe(true);
  });
});
