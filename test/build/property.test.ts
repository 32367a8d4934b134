/**
 * Property: any straight-line arithmetic function built with the API (random types, operators,
 * operands, constants and names, including clashing names) verifies, and survives writing and
 * reading back at versions 6, 5, 3 and 1 (0 for type trees): the same text, and the same bytes when written again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModuleBuilder } from '../../src/build/index.js';
import { writeModule } from '../../src/encode/write.js';
import { verifyModule } from '../../src/encode/verify.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { buildArithmetic, makeType, stepArb, typeDescArb, TYPE_NAMES } from '../support/random-modules.js';

describe('straight-line arithmetic built with the API', () => {
  it('always verifies and round-trips through write/read at versions 6, 5, 3 and 1 (0 has no select)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TYPE_NAMES),
        fc.constantFrom(...TYPE_NAMES),
        fc.integer({ min: 1, max: 4 }),
        fc.array(stepArb, { maxLength: 40 }),
        (typeName, otherName, params, steps) => {
          const m = buildArithmetic(typeName, otherName, params, steps);
          expect(verifyModule(m)).toEqual([]);
          const text = printModule(m);
          for (const version of [6, 5, 3, 1]) {
            const bytes = writeModule(m, { bytecodeVersion: version, compression: 'none' });
            const back = readModule(bytes);
            expect(printModule(back)).toBe(text);
            expect(writeModule(back, { bytecodeVersion: version, compression: 'none' })).toEqual(bytes);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('types built with the API', () => {
  it('are interned (built twice: the same object) and a zero global of each round-trips', () => {
    fc.assert(
      fc.property(fc.array(typeDescArb, { minLength: 1, maxLength: 4 }), (descs) => {
        const mb = new ModuleBuilder();
        descs.forEach((d, i) => {
          const ty = makeType(mb, d);
          expect(makeType(mb, d)).toBe(ty);
          mb.addGlobal(`g${i}`, ty, { initializer: mb.constants.zero(ty) });
        });
        const m = mb.build();
        const text = printModule(m);
        for (const version of [6, 5, 3, 1, 0]) {
          const bytes = writeModule(m, { bytecodeVersion: version, compression: 'none' });
          expect(printModule(readModule(bytes))).toBe(text);
        }
      }),
      { numRuns: 150 },
    );
  });
});
