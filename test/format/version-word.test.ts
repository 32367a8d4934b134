/**
 * The version word in every layout it has had (issue 18, item 3; issue 20, item 7): no file is
 * ever taken for another version, and a refusal names the version without any damage diagnosis.
 * Version 7 (LLVM 2.0 development) wrote `7 << 4 | flags` until 2007-01-25 (an earlier stage,
 * refused by name) and a bare `7` from 2007-01-26 (read as r36867 wrote it); no version above 7
 * ever existed.
 */
import { describe, expect, it } from 'vitest';
import { analyzeBytes } from '../../src/analyze/index.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { parseVersionWord, peekVersionWord, UnsupportedVersionError, unreadableVersionReason } from '../../src/format/version-word.js';
import { readModule } from '../../src/read.js';
import { CORPUS_PRESENT, CORPUS_SKIP_REASON, corpusFiles, NEEDS_CORPUS, readCorpusFile } from '../support/corpus.js';

const LLVM = [0x6c, 0x6c, 0x76, 0x6d];
const u32 = (n: number): number[] => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24];

/** `llvm`, a module block of `body`, where `declared` may claim more bytes than the body has. */
function stream(body: number[], declared = body.length): Uint8Array {
  return new Uint8Array([...LLVM, ...u32(1), ...u32(declared), ...body]);
}

function refusal(bytes: Uint8Array): UnsupportedVersionError {
  let error: unknown;
  try {
    readModule(bytes);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(UnsupportedVersionError);
  return error as UnsupportedVersionError;
}

const EARLY_7 =
  'bytecode version 7 with a flagged version word was written by LLVM trunk between 2006-11-08 and 2007-01-25 (LLVM 2.0 development), in a layout earlier than the one this reader decodes (2007-01-26 to 2007-05-06); it is not supported';

describe('parseVersionWord', () => {
  it('splits version << 4 | flags, as every writer until 2007-01-25 wrote it', () => {
    expect(parseVersionWord(0x6c)).toEqual({ version: 6, layout: 'flagged', flags: 12 });
    expect(parseVersionWord(0x00)).toEqual({ version: 0, layout: 'flagged', flags: 0 });
    expect(parseVersionWord(0x7c)).toEqual({ version: 7, layout: 'flagged', flags: 12 });
    expect(parseVersionWord(0x8c)).toEqual({ version: 8, layout: 'flagged', flags: 12 });
  });

  it("takes a bare 7 for late version 7: as version 0 its flags would say big-endian and 'no endianness' at once", () => {
    expect(parseVersionWord(7)).toEqual({ version: 7, layout: 'bare', flags: 0 });
    // Every other small word is a version-0 word whose flags some writer could have set.
    for (const w of [0, 1, 2, 3, 4, 6, 8, 9, 12]) expect(parseVersionWord(w).version).toBe(0);
  });

  it('gives no reason to refuse versions 0 to 6', () => {
    for (let v = 0; v <= 6; v++) expect(unreadableVersionReason(parseVersionWord(v * 16 + 12))).toBeUndefined();
  });

  it('reads the word at offset 12 without checking the block around it', () => {
    expect(peekVersionWord(stream([0x07], 5000))).toEqual({ version: 7, layout: 'bare', flags: 0 });
    expect(peekVersionWord(stream([0x80, 0x01]))).toEqual({ version: 8, layout: 'flagged', flags: 0 });
    expect(peekVersionWord(stream([]))).toBeUndefined();
  });
});

describe('a file of a version we do not read', () => {
  it('early version 7 (2006-11-08 to 2007-01-25) is refused naming it', () => {
    const e = refusal(stream([0x7c, 0x00, 0x00, 0x00, 0x00]));
    expect(e.reason).toBe(EARLY_7);
    expect(e.version).toBe(7);
    expect(e.offset).toBe(12);
    expect(e.blockPath).toEqual(['Module']);
  });

  it('late version 7 (bare word, 2007-01-26 on) is decoded as version 7, never as version 0', () => {
    // An empty module block after the bare word: a version-7 module with nothing in it.
    expect(readModule(stream([0x07])).source?.bytecodeVersion).toBe(7);
    // A damaged one stops as version 7 damage (a block header cut short), not as a version-0 file.
    let error: unknown;
    try {
      readModule(stream([0x07, 0x66, 0x04, 0x00]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BytecodeError);
    expect(error).not.toBeInstanceOf(UnsupportedVersionError);
    expect((error as BytecodeError).offset).toBe(13);
  });

  it('in any container', () => {
    const s = stream([0x07]);
    expect(readModule(new Uint8Array([...LLVM.slice(0, 3), 0x63, 0x30, ...s.subarray(4)])).source).toMatchObject({ bytecodeVersion: 7, signature: 'llvc0' });
  });

  it('is refused before its sizes are judged, and never with the text-mode hint', () => {
    // Claims 300 bytes, holds 4, has no 0x0D and a few 0x0A: every sign of a text-mode transfer.
    expect(refusal(stream([0x7c, 0x0a, 0x0a, 0x0a], 300)).reason).toBe(EARLY_7);
    expect(refusal(stream([0x7c, 0x0a, 0x0a, 0x0a], 300)).message).not.toMatch(/text-mode/);
  });

  it('a version above 7 never existed: refused naming it', () => {
    // The word is a vbr: from version 8 on it takes two bytes (0x8c 0x01 = 140 = 8 << 4 | 12).
    for (const [word, version] of [
      [[0x8c, 0x01], 8],
      [[0xfc, 0x01], 15],
      [[0x80, 0x80, 0x04], 4096],
    ] as const) {
      const e = refusal(stream([...word, 0x00]));
      expect(e.reason).toBe(`bytecode version ${version} never existed (LLVM wrote versions 0 to 7); this is not a bytecode file LLVM wrote`);
      expect(e).toBeInstanceOf(BytecodeError);
    }
  });

  it('the analyzer says the same for early version 7, without a damage diagnosis (it walks late version 7: test/analyze/version7.test.ts)', () => {
    const a = analyzeBytes(stream([0x7c, 0x0a, 0x0a, 0x0a], 300));
    expect(a.error?.reason).toBe(EARLY_7);
    expect(a.error?.offset).toBe(12);
    expect(analyzeBytes(stream([0x9c, 0x01])).error?.reason).toMatch(/^bytecode version 9 never existed/);
  });
});

describe.skipIf(!CORPUS_PRESENT)(`every real version-7 file (${CORPUS_PRESENT ? 'corpus present' : CORPUS_SKIP_REASON})`, NEEDS_CORPUS, () => {
  const files = corpusFiles('v7');

  it('the folder holds the version-7 files', () => {
    expect(files.length).toBeGreaterThan(1000);
  });

  it('each is read as version 7 (all were written by the last revision, 2007-05-06: the bare word)', () => {
    const versions = new Map<string, number>();
    for (const name of files) {
      let version: string;
      try {
        version = String(readModule(readCorpusFile('v7', name)).source?.bytecodeVersion);
      } catch (e) {
        version = `${(e as Error).name}: ${(e as Error).message}`;
      }
      versions.set(version, (versions.get(version) ?? 0) + 1);
    }
    expect([...versions]).toEqual([['7', files.length]]);
  });

  it('the analyzer walks each one as r36867 did, without error (test/analyze/version7.test.ts)', () => {
    const reasons = new Map<string, number>();
    for (const name of files) {
      const reason = analyzeBytes(readCorpusFile('v7', name)).error?.reason ?? 'analyzed';
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    expect([...reasons]).toEqual([['analyzed', files.length]]);
  });
});
