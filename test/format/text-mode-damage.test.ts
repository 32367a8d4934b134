import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CORPUS_PRESENT, CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';

import { detectTextModeDamage, textModeHint } from '../../src/format/text-mode-damage.js';

const CORPUS = CORPUS_ROOT;
const haveCorpus = CORPUS_PRESENT;

/** Where the module block starts: after `llvm`, or after `llvc0`; null for bzip2 files. */
function moduleStart(bytes: Uint8Array): number | null {
  const sig = String.fromCharCode(...bytes.subarray(0, 4));
  if (sig === 'llvm') return 4;
  if (sig === 'llvc' && bytes[4] === 0x30) return 5;
  return null;
}

describe('text-mode damage detection on synthetic input', () => {
  it('says none when the input contains a carriage return', () => {
    const bytes = Uint8Array.from([1, 0, 0, 0, 4, 0, 0, 0, 0x0d, 0x0a, 0, 0]);
    expect(detectTextModeDamage(bytes, 0).verdict).toBe('none');
  });

  it('counts a size shortfall as evidence when line feeds could explain it', () => {
    // Declares 8 body bytes, has 7 (one collapsed CR-LF pair), no 0x0D, two 0x0A.
    const bytes = Uint8Array.from([1, 0, 0, 0, 8, 0, 0, 0, 0x6c, 0x0a, 0, 0x0a, 0, 0, 0]);
    const d = detectTextModeDamage(bytes, 0);
    expect(d.missingBytes).toBe(1);
    expect(d.evidence).toContain('sizeShortfall');
    expect(d.verdict).toBe('likely');
    expect(textModeHint(d)).toMatch(/1 byte\(s\) shorter .* text-mode \(CR-LF\) conversion/);
  });

  it('counts an error right after a line feed as evidence', () => {
    // Version word 0xF0 (unknown version 15) keeps the type-table check out of the way.
    const bytes = Uint8Array.from([1, 0, 0, 0, 7, 0, 0, 0, 0xf0, 0x0a, 0x0a, 0, 0, 0, 0]);
    expect(detectTextModeDamage(bytes, 0, 11).evidence).toEqual(['errorOnLineFeed']);
    expect(detectTextModeDamage(bytes, 0).evidence).toEqual([]);
  });
});

describe.skipIf(!haveCorpus)('text-mode damage detection on real files', NEEDS_CORPUS, () => {
  const damaged = ['memcpy.ll.bc-16', 'old-intrinsics.ll.bc-16', 'signed-intrinsics.ll.bc-16', 'slow.bc-13', 'ver6.ll.bc'];

  it('finds concrete evidence in each of the five damaged historical files', () => {
    for (const name of damaged) {
      const bytes = readFileSync(join(CORPUS, 'historical', name));
      const d = detectTextModeDamage(bytes, moduleStart(bytes)!);
      expect(d.crCount, name).toBe(0);
      expect(d.verdict, `${name}: ${JSON.stringify(d)}`).toBe('likely');
    }
    const old = readFileSync(join(CORPUS, 'historical', 'old-intrinsics.ll.bc-16'));
    expect(detectTextModeDamage(old, 5).missingBytes).toBe(1);
  });

  it('does not accuse the sound historical file (small, no 0x0D, but well-formed)', () => {
    const bytes = readFileSync(join(CORPUS, 'historical', 'constexpr.ll.bc-13'));
    expect(detectTextModeDamage(bytes, 4).verdict).toBe('none');
  });

  it('never says "likely" for a sound corpus file, and its type-table walk accepts all of them', () => {
    let checked = 0;
    for (const folder of ['v0', 'v1', 'v3', 'v5', 'v6']) {
      for (const name of readdirSync(join(CORPUS, folder)).filter((n) => n.endsWith('.bc'))) {
        const bytes = readFileSync(join(CORPUS, folder, name));
        const start = moduleStart(bytes);
        if (start === null) continue;
        const d = detectTextModeDamage(bytes, start);
        expect(d.verdict, `${folder}/${name}`).not.toBe('likely');
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(4000);
  });
});
