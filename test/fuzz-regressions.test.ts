/**
 * Every input the fuzzer ever found to misbehave (saved in test/fuzz-regressions/) is replayed
 * through every consumer: each may only end in the typed error. (No time is asserted: the fuzzer's
 * `check` adds a CPU-time limit for new inputs, which a test would fail whenever the machine is
 * busy; here each consumer runs through `checkOne`, which judges the outcome alone.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkOne, consumers } from '../tools/fuzz-check.js';
import { CORPUS_PRESENT, NEEDS_CORPUS, readCorpusFile } from './support/corpus.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fuzz-regressions');
const files = readdirSync(DIR).filter((n) => n.endsWith('.bc'));

/** The first consumer's failure on `input`, or undefined when every one ended well. */
function outcome(input: Uint8Array): string | undefined {
  for (const c of consumers) {
    const failure = checkOne(c, input);
    if (failure !== undefined) return failure;
  }
  return undefined;
}

describe('fuzz regressions', () => {
  it('replays every input saved in the folder', () => {
    // Anything saved there but its README and the assembler's, stack maps' and upgrade's folders
    // (replayed by their own tests: upgrade/ by test/tools/fuzz-upgrade.test.ts) is a .bc replayed below: an input saved under another name would never run.
    const saved = readdirSync(DIR).filter((n) => n !== 'README.md' && n !== 'asm' && n !== 'stackmap' && n !== 'upgrade');
    expect(saved.sort()).toEqual([...files].sort());
    expect(files.length).toBeGreaterThan(0);
  });
  for (const name of files) {
    it(name, () => {
      expect(outcome(new Uint8Array(readFileSync(join(DIR, name))))).toBeUndefined();
    });
  }
});

/**
 * Corpus files the fuzzer found a consumer mishandling as they are (unmutated): replayed from the
 * corpus (never copied into the project), when it is present.
 */
const CORPUS_REGRESSIONS = ['v7/Linker__ConstantGlobals1.bc', 'v7/Transforms__ConstantMerge__2003-10-28-MergeExternalConstants.bc'];

describe.skipIf(!CORPUS_PRESENT)('fuzz regressions found on unmutated corpus files', NEEDS_CORPUS, () => {
  for (const path of CORPUS_REGRESSIONS) {
    it(path, () => {
      const [folder, name] = path.split('/') as [string, string];
      expect(outcome(readCorpusFile(folder, name))).toBeUndefined();
    });
  }
});
