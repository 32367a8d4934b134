/**
 * Every documented limit (docs/limits.md) is enforced: a real file that exceeds a deliberately
 * small limit stops with a BytecodeError that names it, and the default limits read it fine.
 */
import { describe, expect, it } from 'vitest';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { DEFAULT_LIMITS, type Limits } from '../../src/limits.js';
import { readModule } from '../../src/read.js';
import { CORPUS_PRESENT, readCorpusFile, NEEDS_CORPUS } from '../support/corpus.js';

/** For each limit: a small value, a corpus file that exceeds it, and words the error must contain. */
const CASES: readonly [keyof Limits, number, string, string, RegExp][] = [
  ['maxInputSize', 100, 'v6', 'Feature__globalvars.bc', /more than the limit of 100 bytes \(maxInputSize\)/],
  ['maxDecompressedSize', 1000, 'v6', 'Large__big-bf.bc', /1000|limit|cap/i],
  ['maxBlockDepth', 2, 'v6', 'Feature__globalvars.bc', /deeper than the limit of 2/],
  ['maxTypes', 15, 'v6', 'Large__big-bf.bc', /limit/],
  ['maxTypeMembers', 1, 'v6', 'Feature__globalvars.bc', /limit of 1\b/],
  ['maxConstantsPerPlane', 1, 'v6', 'Large__big-bf.bc', /limit of 1\b/],
  ['maxValuesPerPlane', 3, 'v6', 'Large__big-bf.bc', /limit of 3\b/],
  ['maxInstructionsPerFunction', 10, 'v6', 'Large__big-bf.bc', /limit of 10\b/],
  ['maxBasicBlocksPerFunction', 2, 'v6', 'Large__big-bf.bc', /limit of 2\b/],
  ['maxOperandsPerInstruction', 1, 'v6', 'Large__big-bf.bc', /limit of 1\b/],
  ['maxStringLength', 1, 'v6', 'Feature__globalvars.bc', /limit of 1\b/],
  ['maxFunctions', 1, 'v6', 'Large__big-bf.bc', /limit of 1 functions/],
  ['maxGlobals', 1, 'v6', 'Feature__globalvars.bc', /limit of 1 global/],
  ['maxSymbolTableEntries', 1, 'v6', 'Feature__globalvars.bc', /limit of 1\b/],
  ['maxCompactionTableEntries', 0, 'v5', 'CodeGen__Generic__2006-06-28-SimplifySetCCCrash.bc', /limit of 0\b/],
  ['maxDependentLibraries', 0, 'v6', 'Feature__properties.bc', /limit of 0\b/],
  ['maxIntegerBits', 64, 'v7', 'Transforms__InstCombine__apint-and2.bc', /from 1 to 64, the limit/],
];

/** Limits of the archive reader, enforced on hand-made archives in test/archive/read-archive.test.ts. */
const ARCHIVE_LIMITS: readonly (keyof Limits)[] = ['maxArchiveMembers', 'maxArchiveNameLength'];

describe.skipIf(!CORPUS_PRESENT)('documented limits are enforced', NEEDS_CORPUS, () => {
  it('covers every limit', () => {
    expect(new Set([...CASES.map((c) => c[0]), ...ARCHIVE_LIMITS])).toEqual(new Set(Object.keys(DEFAULT_LIMITS)));
  });
  for (const [limit, value, folder, name, message] of CASES) {
    it(`${limit} = ${value} stops ${folder}/${name}`, () => {
      const bytes = readCorpusFile(folder, name);
      expect(() => readModule(bytes)).not.toThrow();
      let error: unknown;
      try {
        readModule(bytes, { limits: { [limit]: value } });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(BytecodeError);
      expect((error as Error).message).toMatch(message);
    });
  }
});
