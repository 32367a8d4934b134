/**
 * `linkModules` against LLVM 1.9's `llvm-link` over 240 sets of 2–5 corpus files (versions 3, 5
 * and 6; tools/link-scoreboard.ts chooses them: the linker's own tests in pairs, files of one
 * test directory together, random sets). Where llvm-link refused, we refuse with its reason; where
 * it linked, we link too, and every byte difference is the symbol tables' plane order, which LLVM
 * took from heap addresses (docs/link.md): written in llvm-link's order, ours is its output byte
 * for byte. Tagged with the corpus and LLVM 1.9 (llvm-link from LLVM_BYTECODE_LLVM19, as the
 * scoreboard finds it) and skipped, counted by cause, without them.
 */
import { describe, expect, it } from 'vitest';
import { locateCorpus } from '../../tools/corpus-location.js';
import { chooseLinkSets, DEFAULT_LLVM_LINK, formatScoreboard, runScoreboard } from '../../tools/link-scoreboard.js';
import { NEEDS_CORPUS } from '../support/corpus.js';
import { LLVM19, needs } from '../support/tools.js';

const corpus = locateCorpus();

/** What the scoreboard showed when this test was written; it may only get better. */
const IDENTICAL_AT_LEAST = 45;

describe('link against llvm-link 1.9', needs(NEEDS_CORPUS, LLVM19), () => {
  it('agrees on 240 sets: same refusals, same listings, bytes identical up to plane order', { timeout: 300_000 }, async () => {
    const results = await runScoreboard(chooseLinkSets(corpus.root, 240), DEFAULT_LLVM_LINK);
    console.log(formatScoreboard(results));
    const bad = results.filter((r) => r.outcome === 'mismatch' || (r.outcome === 'differing' && !r.reason!.startsWith('symbol-table plane order')));
    expect(bad.map((r) => `${r.outcome} ${r.files.join(' ')}: ${r.reason}`)).toEqual([]);
    expect(results.filter((r) => r.outcome === 'both refuse').length).toBeGreaterThan(20);
    expect(results.filter((r) => r.outcome === 'identical').length).toBeGreaterThanOrEqual(IDENTICAL_AT_LEAST);
  });
});
