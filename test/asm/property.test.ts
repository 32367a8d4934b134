/**
 * Property: a module built with the construction API, printed, assembles back to the same listing;
 * and (a test of its own, tagged and skipped without LLVM 1.9's tools) to the bytes LLVM 1.9's
 * `llvm-as` writes for that text, or to bytes that are exactly those once written in the symbol
 * table order of `llvm-as`'s file (tools/plane-order.ts): `llvm-as` took the order of a symbol
 * table's type planes from the heap addresses its allocator happened to give the types (a global
 * of type `sbyte` can list after one of type `[0 x sbyte ()*]` made later), which no text records.
 * Both counts are printed. Random straight-line arithmetic (every integer and floating-point type,
 * clashing names, casts, selects, shifts), random type trees held by globals, and modules that reach
 * the format's thresholds (test/support/random-modules.ts `buildRich`: value slots past 64, 256 and
 * 4,095, type slots past 64 and 256, past 64 KiB where `llvm-as` compressed with bzip2, every
 * instruction kind, edge floats and integers, names that need quotes).
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { ModuleBuilder } from '../../src/build/index.js';
import { writeModule, type WriteOptions } from '../../src/encode/write.js';
import type { Module } from '../../src/graph/module.js';
import { printModule } from '../../src/print/index.js';
import { sameBytesInOrderOf } from '../../tools/plane-order.js';
import { sameBytes } from '../../tools/same-bytes.js';
import {
  buildArithmetic,
  buildRich,
  everythingSpec,
  makeType,
  richSpecArb,
  stepArb,
  typeDescArb,
  TYPE_NAMES,
  type Step,
  type TypeDesc,
  type TypeName,
} from '../support/random-modules.js';
import { LLVM19, needs } from '../support/tools.js';

/** `llvm-as` of a text (one byte per character, as our names hold latin1 bytes): llvc0 below 64 KiB, llvc2 above. */
function llvmAs(text: string): Uint8Array {
  return new Uint8Array(execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: Buffer.from(text, 'latin1'), maxBuffer: 1 << 26 }));
}

/** Version 6 and `llvm-as`'s own choice of container, as it wrote. */
const AS_LLVM_AS: WriteOptions = { bytecodeVersion: 6, compression: 'auto' };

/** Assembles `text`, which must print back as it was. */
function assembled(text: string): Module {
  const m = parseAssembly(text);
  expect(printModule(m)).toBe(text);
  return m;
}

const tally = { identical: 0, planeOrderOnly: 0 };

/** Our bytes for `text` are `llvm-as`'s, or are once written in its file's symbol-table order. */
function expectLlvmAsBytes(text: string): void {
  const m = assembled(text);
  const theirs = llvmAs(text);
  if (sameBytes(writeModule(m, AS_LLVM_AS), theirs)) tally.identical++;
  else {
    expect(sameBytesInOrderOf(m, theirs, AS_LLVM_AS), text).toBe(true);
    tally.planeOrderOnly++;
  }
}

afterAll(() => {
  if (tally.identical + tally.planeOrderOnly > 0) {
    console.log(
      `assembler vs llvm-as on built modules: ${tally.identical} identical, ${tally.planeOrderOnly} the same once in llvm-as's symbol-table plane order`,
    );
  }
});

const arithmeticArb = fc.tuple(
  fc.constantFrom(...TYPE_NAMES),
  fc.constantFrom(...TYPE_NAMES),
  fc.integer({ min: 1, max: 4 }),
  fc.array(stepArb, { maxLength: 30 }),
);
const arithmeticText = ([a, b, params, steps]: [TypeName, TypeName, number, Step[]]): string => printModule(buildArithmetic(a, b, params, steps));

const typeTreesArb = fc.array(typeDescArb, { minLength: 1, maxLength: 4 });
function typeTreesText(descs: TypeDesc[]): string {
  const mb = new ModuleBuilder();
  descs.forEach((d, i) => {
    const ty = makeType(mb, d);
    mb.addGlobal(`g${i}`, ty, { initializer: mb.constants.zero(ty) });
  });
  return printModule(mb.build());
}

/** The threshold cases of test/build/property.test.ts, as `llvm-as` 1.9 text. */
const THRESHOLDS: [string, number, number, number][] = [
  ['value slots around 64', 64, 2, 0],
  ['value slots around 256, type slots past 64', 256, 70, 0],
  ['type slots past 256', 8, 260, 0],
  ['value slots around 4,095', 4100, 2, 0],
  ['a module past 64 KiB', 8, 2, 12000],
];

describe('modules built in code, printed, then assembled', () => {
  it('straight-line arithmetic: the same listing', () => {
    fc.assert(
      fc.property(arithmeticArb, (x) => void assembled(arithmeticText(x))),
      { numRuns: 150 },
    );
  });

  it('type trees held by globals: the same listing', () => {
    fc.assert(
      fc.property(typeTreesArb, (descs) => void assembled(typeTreesText(descs))),
      { numRuns: 150 },
    );
  });

  it("modules reaching the format's thresholds: the same listing", () => {
    fc.assert(
      fc.property(richSpecArb, (spec) => void assembled(printModule(buildRich(spec)))),
      { numRuns: 25 },
    );
  });

  for (const [what, width, types, bigArray] of THRESHOLDS) {
    it(`${what}, every kind: the same listing`, () => {
      assembled(printModule(buildRich(everythingSpec(width, types, bigArray))));
    });
  }
});

describe.skipIf(!LLVM19.present)("modules built in code, printed, then assembled: llvm-as's bytes", needs(LLVM19), () => {
  it("straight-line arithmetic: llvm-as's bytes", () => {
    fc.assert(
      fc.property(arithmeticArb, (x) => expectLlvmAsBytes(arithmeticText(x))),
      { numRuns: 60 },
    );
  });

  it("type trees held by globals: llvm-as's bytes", () => {
    fc.assert(
      fc.property(typeTreesArb, (descs) => expectLlvmAsBytes(typeTreesText(descs))),
      { numRuns: 60 },
    );
  });

  it("modules reaching the format's thresholds: llvm-as's bytes", () => {
    fc.assert(
      fc.property(richSpecArb, (spec) => expectLlvmAsBytes(printModule(buildRich(spec)))),
      { numRuns: 20 },
    );
  });

  for (const [what, width, types, bigArray] of THRESHOLDS) {
    it(`${what}, every kind: llvm-as's bytes`, () => {
      expectLlvmAsBytes(printModule(buildRich(everythingSpec(width, types, bigArray))));
    });
  }
});
