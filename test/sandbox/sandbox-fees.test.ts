import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sandboxFees, type SandboxCardRegion, type SandboxCardType } from '../../adapters/sandbox/index.js';

const types: readonly SandboxCardType[] = ['consumer', 'commercial'];
const regions: readonly SandboxCardRegion[] = ['domestic', 'intra', 'inter'];
const amount = fc.integer({ min: 0, max: 100_000_000_000 });

describe('sandboxFees', () => {
  it('computes realistic fees for 100.00 in minor units', () => {
    expect(sandboxFees(10_000, { type: 'consumer', region: 'domestic' })).toEqual({ interchange: 20, assesment: 10 });
    expect(sandboxFees(10_000, { type: 'consumer', region: 'intra' })).toEqual({ interchange: 30, assesment: 15 });
    expect(sandboxFees(10_000, { type: 'consumer', region: 'inter' })).toEqual({ interchange: 150, assesment: 20 });
    expect(sandboxFees(10_000, { type: 'commercial', region: 'inter' })).toEqual({ interchange: 200, assesment: 20 });
  });

  it('rounds to whole minor units', () => {
    expect(sandboxFees(1_250, { type: 'consumer', region: 'intra' })).toEqual({ interchange: 4, assesment: 2 });
    expect(sandboxFees(1, { type: 'commercial', region: 'inter' })).toEqual({ interchange: 0, assesment: 0 });
  });

  it('gives non-negative integers no larger than the amount', () => {
    fc.assert(
      fc.property(amount, fc.constantFrom(...types), fc.constantFrom(...regions), (value, type, region) => {
        const fees = sandboxFees(value, { type, region });
        for (const fee of [fees.interchange, fees.assesment]) {
          expect(Number.isSafeInteger(fee)).toBe(true);
          expect(fee).toBeGreaterThanOrEqual(0);
          expect(fee).toBeLessThanOrEqual(value);
        }
      }),
    );
  });

  it('charges commercial and inter-regional cards more than consumer ones', () => {
    fc.assert(
      fc.property(amount, fc.constantFrom(...regions), (value, region) => {
        const consumer = sandboxFees(value, { type: 'consumer', region });
        const commercial = sandboxFees(value, { type: 'commercial', region });
        const commercialInter = sandboxFees(value, { type: 'commercial', region: 'inter' });
        expect(commercial.interchange).toBeGreaterThanOrEqual(consumer.interchange);
        expect(commercialInter.interchange).toBeGreaterThanOrEqual(consumer.interchange);
        if (value >= 1_000) {
          expect(commercial.interchange).toBeGreaterThan(consumer.interchange);
          expect(commercialInter.interchange).toBeGreaterThan(consumer.interchange);
        }
      }),
    );
    fc.assert(
      fc.property(amount, fc.constantFrom(...types), (value, type) => {
        const domestic = sandboxFees(value, { type, region: 'domestic' });
        const intra = sandboxFees(value, { type, region: 'intra' });
        const inter = sandboxFees(value, { type, region: 'inter' });
        expect(intra.interchange).toBeGreaterThanOrEqual(domestic.interchange);
        expect(inter.interchange).toBeGreaterThanOrEqual(intra.interchange);
        expect(inter.assesment).toBeGreaterThanOrEqual(intra.assesment);
        expect(intra.assesment).toBeGreaterThanOrEqual(domestic.assesment);
      }),
    );
  });
});
