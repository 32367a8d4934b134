/**
 * Malformed input never hurts the reader: every truncation, bit flip and absurd count of real
 * files ends in a `BytecodeError` (or, rarely, a module that happens to be valid), without
 * unbounded allocation. The fuzz tool (`npm run fuzz`) explores much further and holds each input
 * to a CPU-time limit; no time is asserted here, as a test's time depends on what else runs beside
 * it. This is the deterministic floor that runs with every `npm test`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { readModule } from '../../src/read.js';
import { unwrapContainer } from '../../src/container/index.js';
import { CORPUS_PRESENT, readCorpusFile, NEEDS_CORPUS } from '../support/corpus.js';

/** Small real files of every version, chosen for variety (globals, calls, phis, compaction, …). */
const SAMPLES: readonly [string, string][] = [
  ['v0', 'Feature__recursivetype.bc'],
  ['v1', 'Transforms__GCSE__2002-05-14-OperandSwap.bc'],
  ['v3', 'Feature__varargs.bc'],
  ['v5', 'Feature__globalvars.bc'],
  ['v6', 'Feature__globalvars.bc'],
  ['v6', 'Transforms__SimplifyCFG__2006-10-29-InvokeCrash.bc'],
];

/** Reads `bytes`; returns 'ok' or 'error' and fails the test on anything but a BytecodeError. */
function outcome(bytes: Uint8Array): 'ok' | 'error' {
  try {
    readModule(bytes, { limits: { maxDecompressedSize: 1 << 20 } });
    return 'ok';
  } catch (e) {
    if (e instanceof BytecodeError) {
      expect(e.offset).toBeGreaterThanOrEqual(0);
      return 'error';
    }
    throw e;
  }
}

/** The uncompressed form of a sample (`llvm` + stream), so damage hits the structure, not bzip2. */
function plain(folder: string, name: string): Uint8Array {
  return unwrapContainer(readCorpusFile(folder, name)).stream.slice();
}

describe.skipIf(!CORPUS_PRESENT)('malformed input', NEEDS_CORPUS, () => {
  for (const [folder, name] of SAMPLES) {
    it(`${folder}/${name}: every truncation gives a BytecodeError`, () => {
      const bytes = plain(folder, name);
      expect(outcome(bytes)).toBe('ok');
      for (let n = 0; n < bytes.length; n++) expect(outcome(bytes.subarray(0, n))).toBe('error');
    });

    it(`${folder}/${name}: random bit flips give a module or a BytecodeError`, () => {
      const bytes = plain(folder, name);
      fc.assert(
        fc.property(fc.array(fc.nat(bytes.length * 8 - 1), { minLength: 1, maxLength: 4 }), (bits) => {
          const damaged = bytes.slice();
          for (const bit of bits) damaged[bit >> 3]! ^= 1 << (bit & 7);
          expect(['ok', 'error']).toContain(outcome(damaged));
        }),
        { numRuns: 300, seed: 20061107 },
      );
    });

    it(`${folder}/${name}: huge vbr counts at every position give a module or a BytecodeError`, () => {
      const bytes = plain(folder, name);
      // Overwrite five bytes with the largest 32-bit vbr (ff ff ff ff 0f) at each offset.
      for (let at = 8; at + 5 <= bytes.length; at++) {
        const damaged = bytes.slice();
        damaged.set([0xff, 0xff, 0xff, 0xff, 0x0f], at);
        expect(['ok', 'error']).toContain(outcome(damaged));
      }
    });
  }

  it('names the bytes of an unknown signature', () => {
    expect(() => readModule(new TextEncoder().encode('llvx0123'))).toThrowError(BytecodeError);
    expect(() => readModule(new Uint8Array([0xde, 0xad, 0xbe, 0xef]))).toThrowError(/de ad be ef|0xde|DE AD/i);
  });

  it('refuses version 7 by name rather than guessing', () => {
    // llvm, module block (id 1, size 1), version word 7 << 4.
    const bytes = new Uint8Array([0x6c, 0x6c, 0x76, 0x6d, 1, 0, 0, 0, 1, 0, 0, 0, 0x70]);
    expect(() => readModule(bytes)).toThrowError(/version 7/);
  });
});

describe('constants that contain themselves', () => {
  it('a cast whose operand is the cast itself is refused with the pool offset', async () => {
    const { assemble, block, vbr } = await import('../support/assemble.js');
    // Version 6: no types; empty globals; a pool with `int cast (int <itself> to int)`.
    const CAST = 32;
    const file = assemble([
      block(1, true, [
        vbr(6 << 4),
        block(6, false, []),
        block(5, false, [vbr(0), vbr(0), vbr(0), vbr(0)]),
        block(3, false, [vbr(1), vbr(7), vbr(2), vbr(CAST), vbr(1), vbr(7)]),
      ]),
    ]);
    let error: unknown;
    try {
      readModule(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BytecodeError);
    expect((error as BytecodeError).reason).toMatch(/contains itself/);
    expect((error as BytecodeError).blockPath).toEqual(['Module', 'ConstantPool']);
  });
});
