/**
 * Every version-7 file of the corpus was written by r36867, whose Verifier had passed it: under
 * r36867's rules ours must find nothing wrong in any of them, whether the bodies are checked
 * where they lie (compact form, as a module just read) or as objects (after a caller touched
 * them), and writing each back at version 7 (which verifies) must succeed.
 */
import { describe, expect, it } from 'vitest';
import { writeModule } from '../../src/encode/write.js';
import { readModule } from '../../src/read.js';
import { verifyModule } from '../../src/verify/verify.js';
import { CORPUS_PRESENT, CORPUS_SKIP_REASON, corpusFiles, corpusStatedCount, NEEDS_CORPUS, readCorpusFile } from '../support/corpus.js';

describe.skipIf(!CORPUS_PRESENT)('the version-7 verifier over the corpus', NEEDS_CORPUS, () => {
  if (!CORPUS_PRESENT) console.warn(CORPUS_SKIP_REASON);
  const files = corpusFiles('v7');

  it('has the folder the corpus README states', () => {
    const stated = corpusStatedCount('v7');
    if (stated !== undefined) expect(files.length).toBe(stated);
    expect(files.length).toBeGreaterThan(0);
  });

  it('finds nothing wrong in any file, compact or materialized, and writes each back verified', () => {
    const failures: string[] = [];
    for (const name of files) {
      const m = readModule(readCorpusFile('v7', name));
      const compact = verifyModule(m, { bytecodeVersion: 7 });
      // Touching `blocks` turns each body into objects: the other path of the same checks.
      for (const f of m.functions) void f.blocks;
      const objects = verifyModule(m, { bytecodeVersion: 7 });
      if (compact.length + objects.length > 0) failures.push(`${name}: ${[...compact, ...objects][0]}`);
      else {
        try {
          writeModule(m, { bytecodeVersion: 7 });
        } catch (e) {
          failures.push(`${name}: ${(e as Error).message}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  }, 600_000);
});
