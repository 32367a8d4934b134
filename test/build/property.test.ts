/**
 * Property: any straight-line arithmetic function built with the API (random types, operators,
 * operands, constants and names, including clashing names) verifies, and survives writing and
 * reading back at versions 6, 5, 3 and 1 (0 for type trees): the same text, and the same bytes when written again.
 * So do modules that reach the format's thresholds (test/support/random-modules.ts `buildRich`):
 * value slots past 64, 256 and 4,095 (where an instruction stops fitting formats 3, 2 and 1), type
 * slots past 64 and 256, a module past 64 KiB (bzip2 at versions 5 and 6), every instruction kind
 * the version has, edge floats and integers, names that need quotes, at every version 0 to 6.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModuleBuilder } from '../../src/build/index.js';
import { writeModule } from '../../src/encode/write.js';
import { verifyModule } from '../../src/verify/verify.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import type { Module } from '../../src/graph/module.js';
import { buildArithmetic, buildRich, everythingSpec, makeType, richSpecArb, stepArb, typeDescArb, TYPE_NAMES } from '../support/random-modules.js';

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

/** `m` verifies; written at `version` (the container `llvm-as` chose), it reads back to the same listing and the same bytes. */
function expectRoundTrip(m: Module, version: number): void {
  expect(verifyModule(m)).toEqual([]);
  const text = printModule(m);
  const bytes = writeModule(m, { bytecodeVersion: version, compression: 'auto' });
  const back = readModule(bytes);
  expect(printModule(back)).toBe(text);
  expect(writeModule(back, { bytecodeVersion: version, compression: 'auto' })).toEqual(bytes);
}

describe("modules that reach the format's thresholds", () => {
  it('random mixes of kinds, widths, types, edge constants and names round-trip at versions 6, 5, 3, 1 and 0', () => {
    fc.assert(
      fc.property(richSpecArb, (spec) => {
        for (const version of [6, 5, 3, 1, 0]) expectRoundTrip(buildRich(spec, version), version);
      }),
      { numRuns: 25 },
    );
  });

  // Each threshold crossed on purpose, with every kind, constant and name: slots 63/64 (format
  // 3), 255/256 (format 2), 4,094/4,095 (format 1, whose 4,095 means "no operand"), type slots
  // past 64 and 256, and a module of 12,000 distinct ints (past 64 KiB: bzip2 at versions 5-6).
  const ALL = [6, 5, 3, 1, 0];
  const THRESHOLDS: [string, number, number, number, number[]][] = [
    ['value slots around 64', 64, 2, 0, ALL],
    ['value slots around 256, type slots past 64', 256, 70, 0, ALL],
    ['type slots past 256', 8, 260, 0, ALL],
    ['value slots around 4,095', 4100, 2, 0, ALL],
    // (Versions 0-1 write it as version 3 does, bare: not worth the time of a big module twice more.)
    ['a module past 64 KiB', 8, 2, 12000, [6, 5, 3]],
  ];
  for (const [what, width, types, bigArray, versions] of THRESHOLDS) {
    it(`${what}: every kind round-trips at versions ${versions.join(', ')}`, () => {
      for (const version of versions) expectRoundTrip(buildRich(everythingSpec(width, types, bigArray), version), version);
    });
  }

  it('a module past 64 KiB is bzip2-compressed at versions 5 and 6, as llvm-as did', () => {
    const m = buildRich(everythingSpec(8, 2, 12000), 6);
    expect(writeModule(m, { compression: 'none' }).length).toBeGreaterThan(64 * 1024);
    for (const version of [5, 6]) expect(String.fromCharCode(...writeModule(m, { bytecodeVersion: version }).subarray(0, 5))).toBe('llvc2');
    expect(String.fromCharCode(...writeModule(buildRich(everythingSpec(8, 2, 0), 6)).subarray(0, 5))).toBe('llvc0');
  });
});

/**
 * Module global info's two zlists (words until a zero: the global variables, then the functions),
 * with what makes a word long or escapes it: type slots past 2^7 and 2^14 / 32 (one-, two- and
 * three-byte vbrs), every linkage with and without an initializer (internal without one escapes
 * to an extension word at version 5+), constants, alignments and sections (5+), calling
 * conventions and declaration linkages (5+, 6), and empty lists.
 */
describe("global and function lists (the format's zlists)", () => {
  const globalArb = fc.record({
    type: fc.nat(),
    linkage: fc.constantFrom('external', 'internal', 'linkonce', 'weak', 'dllexport', 'declaration', 'extern_weak'),
    constant: fc.boolean(),
    alignment: fc.constantFrom(0, 0, 4, 16),
    section: fc.boolean(),
  });
  const functionArb = fc.record({
    linkage: fc.constantFrom('external', 'internal', 'linkonce', 'weak', 'declaration', 'dllimport', 'extern_weak'),
    conv: fc.constantFrom(0, 0, 8, 9, 64),
    alignment: fc.constantFrom(0, 0, 16),
    section: fc.boolean(),
  });
  it('round-trip at every version, however many entries and however long their words', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 20, 130, 520),
        fc.array(globalArb, { maxLength: 40 }),
        fc.array(functionArb, { maxLength: 12 }),
        (typeCount, globals, functions) => {
          for (const version of [6, 5, 3, 1, 0]) {
            const attributes = version >= 5;
            const mb = new ModuleBuilder();
            const { types: t, constants: c } = mb;
            // Many types before the globals' own, so that their slots (and words) grow.
            const types = Array.from({ length: typeCount }, (_, k) => t.array(t.short, k + 1));
            types.forEach((ty, k) => mb.addGlobal(`pad${k}`, ty, { initializer: c.zero(ty), linkage: 'internal' }));
            globals.forEach((g, i) => {
              const ty = types[g.type % types.length]!;
              const declaration = g.linkage === 'declaration' || g.linkage === 'extern_weak';
              const linkage =
                (g.linkage === 'dllexport' || g.linkage === 'extern_weak') && version < 6
                  ? 'external'
                  : declaration
                    ? g.linkage === 'extern_weak'
                      ? 'extern_weak'
                      : 'external'
                    : g.linkage;
              mb.addGlobal(`g${i}`, ty, {
                ...(declaration ? {} : { initializer: c.zero(ty) }),
                linkage: linkage as never,
                constant: g.constant && !declaration,
                ...(attributes && g.alignment ? { alignment: g.alignment } : {}),
                ...(attributes && g.section ? { section: `.s${i % 3}` } : {}),
              });
            });
            functions.forEach((f, i) => {
              const declaration = f.linkage === 'declaration' || f.linkage === 'dllimport' || f.linkage === 'extern_weak';
              const linkage = declaration ? (version >= 6 && f.linkage !== 'declaration' ? f.linkage : 'external') : f.linkage;
              const fn = mb.addFunction(`f${i}`, t.function(t.int, [t.int]), {
                linkage: linkage as never,
                ...(attributes ? { callingConv: f.conv } : {}),
                ...(attributes && f.alignment ? { alignment: f.alignment } : {}),
                ...(attributes && f.section ? { section: '.text.f' } : {}),
              });
              if (!declaration) mb.builder(mb.addBlock(fn, 'entry')).ret(fn.args[0]!);
            });
            expectRoundTrip(mb.build(), version);
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
