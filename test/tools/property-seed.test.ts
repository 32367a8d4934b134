/**
 * The properties of `npm test` run with one fixed seed (test/support/property-seed.ts), taken from
 * `LLVM_BYTECODE_SEED` when set: the same cases at every run, so a green CI run tested what the
 * last one did, and a failure can be replayed from the seed it prints.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROPERTY_SEED, propertySeed } from '../support/property-seed.js';

describe('the property seed', () => {
  it('is fixed unless LLVM_BYTECODE_SEED says otherwise', () => {
    expect(propertySeed(undefined)).toBe(DEFAULT_PROPERTY_SEED);
    expect(propertySeed('')).toBe(DEFAULT_PROPERTY_SEED);
    expect(propertySeed('42')).toBe(42);
    expect(propertySeed('random')).toEqual(expect.any(Number));
    expect(() => propertySeed('4.5')).toThrow(/LLVM_BYTECODE_SEED=4.5/);
    expect(() => propertySeed('abc')).toThrow(/32-bit integer or 'random'/);
  });

  it('is the seed every property of this run uses, so two runs draw the same values', () => {
    const env = process.env.LLVM_BYTECODE_SEED;
    const chosen = env?.trim() === 'random' ? fc.readConfigureGlobal().seed : propertySeed(env);
    expect(fc.readConfigureGlobal().seed).toBe(chosen);
    const draw = (): number[] => fc.sample(fc.integer(), { numRuns: 5, seed: fc.readConfigureGlobal().seed });
    expect(draw()).toEqual(draw());
    const seen: number[][] = [];
    for (let k = 0; k < 2; k++) {
      const values: number[] = [];
      fc.assert(
        fc.property(fc.integer(), (n) => void values.push(n)),
        { numRuns: 5 },
      );
      seen.push(values);
    }
    expect(seen[0]).toEqual(seen[1]);
  });

  it('is printed with a counterexample', () => {
    expect(() => fc.assert(fc.property(fc.nat(), (n) => n < 0))).toThrow(new RegExp(`seed: ${fc.readConfigureGlobal().seed}\\b`));
  });
});
