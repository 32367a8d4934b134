/**
 * The analyzer against LLVM 1.9's `llvm-bcanalyzer` on every corpus file (r36867's for the
 * version-7 folder, which LLVM 1.9 cannot read): each figure of our
 * summary is compared with `NAME.bca.txt`, a scoreboard is printed per folder, and the results
 * are held to a ratchet (they may improve, never regress).
 */
import { describe, expect, it } from 'vitest';
import { analyzeBytes, dumpAnalysis, formatAnalysis } from '../../src/analyze/index.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { CORPUS_PRESENT, CORPUS_SKIP_REASON, corpusFiles, readCorpusFile, readCorpusText, NEEDS_CORPUS } from '../support/corpus.js';
import { compareFigures, parseBca } from './bca.js';

interface Score {
  total: number;
  /** Files whose whole summary text is byte-identical to LLVM's. */
  identical: number;
  /** Files whose every figure agrees once functions are matched by name (order aside). */
  figuresAgree: number;
  /** Files where LLVM printed nothing (it aborted on an assertion). */
  noReference: number;
  perFigure: Map<string, number>;
}

/**
 * The ratchet: what the analyzer achieved when this test was written. `identical` counts files
 * whose summary text is byte-identical; `figuresAgree` files where every figure matches once
 * functions are paired by name (the files in between differ only in the order LLVM listed
 * functions: heap addresses, docs/analyze.md "Known differences").
 */
const RATCHET: Record<string, { identical: number; figuresAgree: number }> = {
  v0: { identical: 553, figuresAgree: 553 },
  v1: { identical: 574, figuresAgree: 574 },
  v3: { identical: 619, figuresAgree: 621 },
  v5: { identical: 1087, figuresAgree: 1088 },
  v6: { identical: 1211, figuresAgree: 1212 },
  historical: { identical: 1, figuresAgree: 1 },
  // Version 7 against r36867's llvm-bcanalyzer (its own layout, see version7.test.ts). The 187
  // files in between list their functions in another order: heap addresses of r36867's reader.
  v7: { identical: 1350, figuresAgree: 1537 },
};

function scoreFolder(folder: string): Score {
  const score: Score = { total: 0, identical: 0, figuresAgree: 0, noReference: 0, perFigure: new Map() };
  for (const name of corpusFiles(folder)) {
    const reference = readCorpusText(folder, name, '.bca.txt');
    const bytes = readCorpusFile(folder, name);
    const analysis = analyzeBytes(bytes, { moduleId: name });
    if (reference === undefined) continue;
    if (reference === '') {
      score.noReference++;
      continue;
    }
    score.total++;
    const ours = formatAnalysis(analysis);
    if (ours === reference) {
      score.identical++;
      score.figuresAgree++;
      continue;
    }
    const bad = compareFigures(parseBca(ours), parseBca(reference)).filter((f) => f !== 'function order');
    if (bad.length === 0) score.figuresAgree++;
    for (const f of bad) score.perFigure.set(f, (score.perFigure.get(f) ?? 0) + 1);
    if (!bad.length) score.perFigure.set('function order', (score.perFigure.get('function order') ?? 0) + 1);
  }
  return score;
}

describe.skipIf(!CORPUS_PRESENT)('analyzer vs llvm-bcanalyzer 1.9 (corpus)', NEEDS_CORPUS, () => {
  if (!CORPUS_PRESENT) console.warn(CORPUS_SKIP_REASON);

  for (const folder of Object.keys(RATCHET)) {
    it(`${folder}: every figure agrees with *.bca.txt (ratchet)`, () => {
      const s = scoreFolder(folder);
      const lines = [...s.perFigure].sort((a, b) => b[1] - a[1]).map(([k, v]) => `    ${String(v).padStart(5)}  ${k}`);
      console.log(
        `[analyze] ${folder}: ${s.identical}/${s.total} identical text, ${s.figuresAgree}/${s.total} all figures agree` +
          (s.noReference ? `, ${s.noReference} without reference (LLVM aborted)` : '') +
          (lines.length ? `\n  disagreements (files):\n${lines.join('\n')}` : ''),
      );
      const r = RATCHET[folder]!;
      expect(s.identical).toBeGreaterThanOrEqual(r.identical);
      expect(s.figuresAgree).toBeGreaterThanOrEqual(r.figuresAgree);
    }, 120_000);
  }

  it('damaged historical files give a typed stop, never a crash', () => {
    for (const name of corpusFiles('historical')) {
      const bytes = readCorpusFile('historical', name);
      const a = analyzeBytes(bytes, { moduleId: name });
      if (name === 'constexpr.ll.bc-13') {
        expect(a.error).toBeNull();
        continue;
      }
      expect(a.error, name).not.toBeNull();
      expect(a.error!.reason).not.toMatch(/^internal error/);
      expect(a.error!.reason).toMatch(/text-mode/);
      // --dump reports as far as it got, then where and why it stopped.
      const dump = dumpAnalysis(bytes, { moduleId: name });
      expect(dump).toContain(`stopped at offset ${a.error!.offset}`);
    }
  });

  it('every truncation of a corpus file stops with a typed error', () => {
    const bytes = readCorpusFile('v6', corpusFiles('v6')[0]!);
    for (let n = 0; n < bytes.length; n += 3) {
      const a = analyzeBytes(bytes.subarray(0, n));
      expect(a.error === null || !a.error.reason.startsWith('internal error'), `cut at ${n}`).toBe(true);
    }
    const a = analyzeBytes(bytes.subarray(0, 20));
    expect(a.error).not.toBeNull();
    void BytecodeError;
  });
});
