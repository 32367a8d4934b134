import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_PRESENT, CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';

import { analyzeBytes } from '../../src/analyze/index.js';
import { wrapContainer } from '../../src/container/index.js';
import { writeModule } from '../../src/encode/write.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { detectCompressedTextModeDamage, detectTextModeDamage, textModeHint } from '../../src/format/text-mode-damage.js';
import { readModule } from '../../src/read.js';
import { ModuleBuilder } from '../../src/build/index.js';

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

/**
 * What a text-mode (CR-LF → LF) transfer does to bytes: every 0x0D 0x0A pair becomes 0x0A and every
 * other 0x0D becomes 0x0A. `from` keeps a prefix (the `llvc1`/`llvc2` signature) as it was.
 */
function textModeTransfer(bytes: Uint8Array, from = 0): Uint8Array {
  const out: number[] = Array.from(bytes.subarray(0, from));
  for (let i = from; i < bytes.length; i++) {
    if (bytes[i] === 0x0d) {
      out.push(0x0a);
      if (bytes[i + 1] === 0x0a) i++;
    } else {
      out.push(bytes[i]!);
    }
  }
  return Uint8Array.from(out);
}

function readError(bytes: Uint8Array): BytecodeError {
  try {
    readModule(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(BytecodeError);
    return e as BytecodeError;
  }
  throw new Error('the damaged file was read');
}

/** A module whose zlib stream is large (8,000 pseudo-random bytes in a global do not compress). */
function incompressibleModuleStream(): Uint8Array {
  const mb = new ModuleBuilder();
  let x = 20041115;
  const noise = Array.from({ length: 8000 }, () => String.fromCharCode((x = (x * 1103515245 + 12345) >>> 0) >>> 24)).join('');
  const data = mb.constants.string(noise);
  mb.addGlobal('noise', data.type, { initializer: data, constant: true, linkage: 'internal' });
  return writeModule(mb.build(), { bytecodeVersion: 6, compression: 'none' });
}

describe('text-mode damage of compressed files (llvc1, llvc2)', () => {
  it('judges compressed bytes by their missing 0x0D alone: about one byte in 256 should be one', () => {
    const sound = Uint8Array.from({ length: 5000 }, (_, i) => (i * 197 + 13) & 255);
    expect(detectCompressedTextModeDamage(sound).verdict).toBe('none');
    const converted = textModeTransfer(sound);
    const d = detectCompressedTextModeDamage(converted);
    expect(d).toMatchObject({ verdict: 'likely', crCount: 0, evidence: ['compressedWithoutCR'], compressedBytes: converted.length });
    // Small compressed data may lack a 0x0D by chance: at most "possible", then nothing.
    expect(detectCompressedTextModeDamage(converted.subarray(0, 2000)).verdict).toBe('possible');
    expect(detectCompressedTextModeDamage(converted.subarray(0, 500)).verdict).toBe('none');
  });

  it('a hand-made llvc1 (zlib) file that went through a text-mode transfer says so, with its evidence', () => {
    const sound = wrapContainer(incompressibleModuleStream(), 'zlib');
    expect(readModule(sound).globals.length).toBe(1);
    expect(sound.length).toBeGreaterThan(5000);
    const damaged = textModeTransfer(sound, 5);
    const e = readError(damaged);
    const lf = damaged.subarray(5).filter((b) => b === 0x0a).length;
    expect(e.reason).toMatch(/^zlib data is corrupt/);
    expect(e.reason).toContain(
      `; its ${damaged.length - 5} bytes of compressed data contain no 0x0D byte, where about ${Math.round((damaged.length - 5) / 256)} are expected, ` +
        `and ${lf} 0x0A bytes: it looks like it went through a text-mode (CR-LF) conversion`,
    );
    expect(analyzeBytes(damaged).error?.reason).toBe(e.reason);
  });

  it('compressed data damaged otherwise gets no such hint', () => {
    const sound = wrapContainer(incompressibleModuleStream(), 'zlib');
    expect(readError(sound.subarray(0, sound.length - 100)).reason).not.toMatch(/text-mode/);
    const flipped = sound.slice();
    flipped[2000] ^= 0x40;
    expect(readError(flipped).reason).not.toMatch(/text-mode/);
  });

  describe.skipIf(!haveCorpus)('real llvc2 (bzip2) files, damaged', NEEDS_CORPUS, () => {
    for (const [folder, name] of [
      ['v6', 'Large__big-bf.bc'],
      ['v5', 'Bytecode__slow.bc'],
    ] as const) {
      it(`${folder}/${name}: "bzip2 data is corrupt" says it looks like a text-mode transfer, with its evidence`, () => {
        const sound = new Uint8Array(readFileSync(join(CORPUS, folder, name)));
        expect(String.fromCharCode(...sound.subarray(0, 5))).toBe('llvc2');
        const damaged = textModeTransfer(sound, 5);
        const e = readError(damaged);
        expect(e.reason).toMatch(
          /^bzip2 data is corrupt .*; its \d+ bytes of compressed data contain no 0x0D byte, where about \d+ are expected, and \d+ 0x0A bytes: it looks like it went through a text-mode \(CR-LF\) conversion$/,
        );
        expect(e.reason).toContain(`its ${damaged.length - 5} bytes of compressed data`);
        expect(analyzeBytes(damaged).error?.reason).toBe(e.reason);
      });
    }
  });
});
