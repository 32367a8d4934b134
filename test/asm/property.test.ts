/**
 * Property: a module built with the construction API, printed, assembles back to the same listing;
 * and, with LLVM 1.9's `llvm-as` beside the project, to the bytes `llvm-as` writes for that text —
 * or to bytes that differ from them only in the order of a symbol table's type planes, which
 * `llvm-as` took from the heap addresses its allocator happened to give the types (a global of
 * type `sbyte` can list after one of type `[0 x sbyte ()*]` made later). Both counts are printed. Random straight-line arithmetic (every integer and floating-point type, clashing names,
 * casts, selects, shifts) and random type trees held by globals.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { ModuleBuilder } from '../../src/build/index.js';
import { writeModule } from '../../src/encode/write.js';
import { printModule } from '../../src/print/index.js';
import { differsOnlyInSymbolOrder } from '../../src/tools/conformance-asm.js';
import { buildArithmetic, makeType, stepArb, typeDescArb, TYPE_NAMES } from '../support/random-modules.js';

const LLVM_AS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/llvm-1.9/bin/llvm-as');
const HAVE_LLVM = existsSync(LLVM_AS);
if (!HAVE_LLVM) console.warn(`LLVM 1.9's llvm-as not found at ${LLVM_AS}: the byte comparisons with it are skipped`);

/** `llvm-as` of a text, uncompressed below 64 KiB as it wrote every small module. */
function llvmAs(text: string): Buffer {
  return execFileSync(LLVM_AS, ['-f', '-o', '-'], { input: text, maxBuffer: 1 << 26 });
}

const tally = { identical: 0, planeOrderOnly: 0 };

function check(text: string): void {
  const m = parseAssembly(text);
  expect(printModule(m)).toBe(text);
  if (!HAVE_LLVM) return;
  const ours = writeModule(m, { bytecodeVersion: 6, compression: 'auto' });
  const theirs = llvmAs(text);
  if (Buffer.from(ours).equals(theirs)) tally.identical++;
  else {
    expect(differsOnlyInSymbolOrder(ours, new Uint8Array(theirs))).toBe(true);
    tally.planeOrderOnly++;
  }
}

afterAll(() => {
  if (HAVE_LLVM) console.log(`assembler vs llvm-as on built modules: ${tally.identical} identical, ${tally.planeOrderOnly} differing only in symbol-table plane order`);
});

describe('modules built in code, printed, then assembled', () => {
  it('straight-line arithmetic: the same listing, and llvm-as\'s bytes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TYPE_NAMES), fc.constantFrom(...TYPE_NAMES), fc.integer({ min: 1, max: 4 }), fc.array(stepArb, { maxLength: 30 }), (a, b, params, steps) => {
        check(printModule(buildArithmetic(a, b, params, steps)));
      }),
      { numRuns: HAVE_LLVM ? 60 : 150 },
    );
  });

  it('type trees held by globals: the same listing, and llvm-as\'s bytes', () => {
    fc.assert(
      fc.property(fc.array(typeDescArb, { minLength: 1, maxLength: 4 }), (descs) => {
        const mb = new ModuleBuilder();
        descs.forEach((d, i) => {
          const ty = makeType(mb, d);
          mb.addGlobal(`g${i}`, ty, { initializer: mb.constants.zero(ty) });
        });
        check(printModule(mb.build()));
      }),
      { numRuns: HAVE_LLVM ? 60 : 150 },
    );
  });
});
