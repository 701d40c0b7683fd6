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

  it('with a base, walks only the fields that are not the values of the base', () => {
    const base = deepFreeze({ billing: { city: 'Amsterdam' }, authorization: null as { rrn: string } | null });
    const next = { ...base, authorization: { rrn: '000000000001' } };
    expect(deepFreeze(next, base)).toBe(next);
    expect(Object.isFrozen(next)).toBe(true);
    expect(Object.isFrozen(next.authorization)).toBe(true);
    expect(isDeepFrozen(next)).toBe(true);
    // Shared fields are taken as frozen: the base must be frozen all the way down already.
    const unfrozenBase = { billing: { city: 'Utrecht' } };
    deepFreeze({ ...unfrozenBase }, unfrozenBase);
    expect(Object.isFrozen(unfrozenBase.billing)).toBe(false);
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

  it('with a base, checks only the fields that are not the values of the base', () => {
    const base = deepFreeze({ billing: { city: 'Amsterdam' }, state: 'open' });
    expect(isDeepFrozen(Object.freeze({ ...base, state: 'paid' }), base)).toBe(true);
    expect(isDeepFrozen(Object.freeze({ ...base, extra: { n: 1 } }), base)).toBe(false);
    expect(isDeepFrozen({ ...base }, base)).toBe(false);
    const trusted = { billing: { city: 'Utrecht' } };
    expect(isDeepFrozen(Object.freeze({ ...trusted }), trusted)).toBe(true);
    expect(isDeepFrozen(Object.freeze({ ...trusted }))).toBe(false);
  });

  it('trusts only fields the base has itself, not what its prototype lends it', () => {
    const base = deepFreeze({ state: 'open' });
    // `constructor` is Object on the base through its prototype, and a function is never data.
    expect(isDeepFrozen(Object.freeze({ state: 'open', constructor: Object }), base)).toBe(false);
    const value = { state: 'open', constructor: { n: 1 } };
    deepFreeze(value, base);
    expect(Object.isFrozen(value.constructor)).toBe(true);
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

  it('with a base it returned before, keeps a value sharing its fields and copies a changed mutable one', () => {
    const stored = frozenCopy({ billing: { city: 'Amsterdam' }, state: 'open' });
    const next = Object.freeze({ ...stored, state: 'paid' });
    expect(frozenCopy(next, undefined, stored)).toBe(next);
    const changed = Object.freeze({ ...stored, billing: { city: 'Utrecht' } });
    const copy = frozenCopy(changed, undefined, stored);
    expect(copy).not.toBe(changed);
    expect(copy.billing).toEqual({ city: 'Utrecht' });
    expect(isDeepFrozen(copy)).toBe(true);
    // What the value shares with the base is taken as frozen, unchecked: the base vouches for it.
    const vouched = { billing: { city: 'Leiden' } };
    const sharing = Object.freeze({ ...vouched, state: 'paid' });
    expect(frozenCopy(sharing, undefined, vouched)).toBe(sharing);
    expect(frozenCopy(sharing)).not.toBe(sharing);
  });
});
