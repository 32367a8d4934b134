/**
 * Nothing a file can cause is an "internal error": a damaged file whose function type returns
 * itself prints with `dis`, and `upgrade` and `rewrite` refuse it in one ordinary error line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeError, run } from '../../src/cli/run.js';
import { InvalidModuleError } from '../../src/verify/verify.js';
import { PrintError } from '../../src/print/print-error.js';
import { CORPUS_PRESENT, NEEDS_CORPUS, readCorpusFile } from '../support/corpus.js';
import { memoryIo } from './memory-io.js';

/** A version 5 file (shrunk by the fuzzer) whose `%test` has type `\1 ()`: it returns itself. */
const SELF_RETURNING = new Uint8Array(readFileSync(new URL('../fuzz-regressions/fuzz-777-346477.bc', import.meta.url)));

async function cli(argv: string[], files: Record<string, Uint8Array>) {
  const io = memoryIo(files);
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err() };
}

/** The issue's file: three bits of LLVM 1.2's `InstCombine/set.bc` type table flipped, so that
 * `bool (uint)` (type slot 17) returns itself. */
function damagedV1(): Uint8Array {
  const bytes = readCorpusFile('v1', 'Transforms__InstCombine__set.bc').slice();
  expect(bytes[0x25]).toBe(0x01); // the return type of slot 17: bool
  bytes[0x25] ^= 0x13; // now slot 17 itself
  return bytes;
}

describe('a function type that returns itself', () => {
  const cases: [string, () => Uint8Array, string][] = [['fuzz-777-346477.bc', () => SELF_RETURNING, '\\1 () %test()']];
  if (CORPUS_PRESENT) cases.push(['damaged-set.bc', damagedV1, '\\1 (uint) %test7(uint %A)']);
  else it.skip('the damaged version 1 corpus file (reference corpus absent)', NEEDS_CORPUS, () => undefined);

  for (const [name, bytes, shown] of cases) {
    it(`${name}: dis prints it, upgrade and rewrite refuse it in one ordinary line`, async () => {
      const files = { [name]: bytes() };
      const dis = await cli(['dis', name], files);
      expect(dis.code).toBe(0);
      expect(dis.out).toContain(shown);

      const upgrade = await cli(['upgrade', name], files);
      expect(upgrade.code).toBe(1);
      expect(upgrade.out).toBe('');
      expect(upgrade.err).toMatch(
        new RegExp(`^llvm-bytecode: error: ${name}: type \\\\1 \\(.*\\) contains itself other than through a pointer, which LLVM 16 cannot express\\n$`),
      );

      const rewrite = await cli(['rewrite', name, '-o', 'out.bc'], files);
      expect(rewrite.code).toBe(1);
      expect(rewrite.err).toMatch(new RegExp(`^llvm-bytecode: error: ${name}: invalid module: [^\\n]+\\n$`));
      expect(rewrite.err).not.toContain('internal error');
    });
  }
});

describe('describeError', () => {
  it("reports the verifier's and the printer's refusals as ordinary errors", () => {
    expect(describeError(new InvalidModuleError(['function @f: bad']))).toBe('invalid module: function @f: bad');
    expect(describeError(new PrintError('too big'))).toBe('too big');
  });
});
