/**
 * The version word after the module block header (docs/format.md §3), in every layout it has had,
 * and which versions this project reads.
 *
 * - `version << 4 | flags` from LLVM 1.0 to LLVM trunk of 2007-01-25 (versions 0–6 and early 7);
 * - a bare `7` from 2007-01-26 until the bytecode format was removed (2007-05-06), when the
 *   endianness and pointer size moved into a data-layout string.
 *
 * A bare `7` cannot be a version-0 word: its flags would say "big-endian" (bit 0) and "endianness
 * unspecified" (bit 2) at once, which no writer ever set together (LLVM 1.0/1.1 set bit 0 only
 * for a big-endian module, bit 2 only for one without endianness). Reading it as version 0 is how
 * late version-7 files were once misread.
 */
import { BytecodeError } from '../errors/bytecode-error.js';

export interface VersionWord {
  /** The bytecode version the word names. */
  readonly version: number;
  /** `flagged`: version << 4 | flags; `bare`: late version 7's plain `7` (no flags). */
  readonly layout: 'flagged' | 'bare';
  /** The flag bits (`VERSION_WORD_FLAGS`); 0 for a bare word. */
  readonly flags: number;
}

/** The newest version LLVM ever wrote; no file of a higher number exists. */
export const NEWEST_EXISTING_VERSION = 7;

/** Versions this project reads (the format table also has rows for 2, 4 and 7). */
export function isReadableVersion(version: number): boolean {
  return version >= 0 && version <= 6;
}

/**
 * Whether the reader decodes a file with this version word: versions 0–6, and version 7 in the
 * bare layout that LLVM trunk wrote from 2007-01-26 to the end (read as r36867 wrote it; see
 * docs/format.md §14). A flagged version-7 word is an earlier stage, refused by name.
 */
export function isReadableVersionWord(v: VersionWord): boolean {
  return isReadableVersion(v.version) || (v.version === 7 && v.layout === 'bare');
}

/** Splits a version word read from a file. */
export function parseVersionWord(word: number): VersionWord {
  if (word === 7) return { version: 7, layout: 'bare', flags: 0 };
  return { version: Math.floor(word / 16), layout: 'flagged', flags: word & 15 };
}

/**
 * Why a file of this version word cannot be read, naming the version (and, for version 7, the
 * stage its layout shows), or undefined when it can be.
 */
export function unreadableVersionReason(v: VersionWord): string | undefined {
  if (isReadableVersion(v.version)) return undefined;
  if (v.version > NEWEST_EXISTING_VERSION) {
    return `bytecode version ${v.version} never existed (LLVM wrote versions 0 to ${NEWEST_EXISTING_VERSION}); this is not a bytecode file LLVM wrote`;
  }
  // Only version 7 is left (docs/format.md §14). The decoder reads its bare-word layout
  // (isReadableVersionWord); a flagged word is a stage before 2007-01-26, whose layouts differ.
  if (v.layout === 'flagged') {
    return `bytecode version ${v.version} with a flagged version word was written by LLVM trunk between 2006-11-08 and 2007-01-25 (LLVM 2.0 development), in a layout earlier than the one this reader decodes (2007-01-26 to 2007-05-06); it is not supported`;
  }
  return `bytecode version ${v.version} (LLVM 2.0 development, 2006-11 to 2007-05; a bare version word, as written from 2007-01-26) is not supported yet`;
}

/**
 * A file of a version this project does not read. A `BytecodeError` like any other, and its own
 * class so that no damage diagnosis (such as the text-mode hint) is added to it: the bytes are
 * not damaged, only newer (or invented).
 *
 * @category Errors
 */
export class UnsupportedVersionError extends BytecodeError {
  readonly version: number;

  /** `reason` overrides the version word's own (a stage recognised by what follows the word). */
  constructor(v: VersionWord, offset: number, blockPath: readonly string[], reason?: string) {
    super(reason ?? unreadableVersionReason(v) ?? `bytecode version ${v.version}`, offset, blockPath);
    this.version = v.version;
  }
}

/**
 * Reads the version word of a module stream (`llvm`, the module block header, then the word at
 * offset 12) without checking anything else, so that a version refusal comes before any other
 * complaint about the bytes. Undefined when the stream is too short to hold a word.
 */
export function peekVersionWord(stream: Uint8Array): VersionWord | undefined {
  let word = 0;
  for (let i = 12, shift = 0; i < stream.length && shift < 35; i++, shift += 7) {
    const b = stream[i]!;
    word += (b & 0x7f) * 2 ** shift;
    if (!(b & 0x80)) return parseVersionWord(word);
  }
  return undefined;
}

/**
 * What a version-7 file that r36867's layout does not fit may be: a file of the same bare version
 * word written between 2007-01-26 and 2007-04, when the layout still changed (docs/format.md §14).
 * Appended to the reason of a damaged bare-word version-7 file.
 */
export const EARLIER_V7_STAGE_HINT =
  " (if LLVM trunk wrote this file before 2007-05, it may use an earlier version-7 layout than the one read here, r36867's; such files are not supported)";
