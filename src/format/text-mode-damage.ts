/**
 * Forensics for one well-known kind of damage: a bytecode file that went through a text-mode
 * (CR-LF) conversion, which turns every 0x0D into 0x0A and every 0x0D 0x0A pair into one 0x0A.
 * Five of the six files LLVM kept as backward-compatibility test data were damaged this way
 * (docs/format.md §15.6).
 *
 * This never repairs anything: which 0x0A bytes were 0x0D is unknowable. It only says whether a
 * decoding error should carry the hint "looks like a text-mode transfer". Pure function over bytes;
 * no allocation proportional to the input beyond a counting pass.
 */
import { BytecodeError } from '../errors/bytecode-error.js';
import { formatFor, normalizeTypeId, type FormatRow } from './format-table.js';

export type TextModeEvidence =
  /** The module (or a block) declares more bytes than exist: one lost byte per collapsed pair. */
  | 'sizeShortfall'
  /**
   * Compressed data (which looks random: about one byte in 256 is 0x0D) holds not one 0x0D, and
   * it failed to decompress.
   */
  | 'compressedWithoutCR'
  /** The global type table stops making sense (a derived-type tag turned into a primitive one). */
  | 'typeTableAnomaly'
  /** The decoder's first error sits on or just after a 0x0A byte. */
  | 'errorOnLineFeed';

export interface TextModeDamage {
  /** `likely`: no 0x0D anywhere plus concrete evidence; `possible`: no 0x0D in a file large
   * enough that a sound one would contain some; `none`: not this kind of damage. */
  readonly verdict: 'likely' | 'possible' | 'none';
  readonly crCount: number;
  readonly lfCount: number;
  /** Bytes the module header declares beyond the end of the input (0 when none are missing). */
  readonly missingBytes: number;
  readonly evidence: readonly TextModeEvidence[];
  /** For compressed data: how many bytes were examined (the counts are of those bytes). */
  readonly compressedBytes?: number;
}

/**
 * Sizes above which a sound file of that kind always contained a 0x0D in the corpus: from v2 on
 * 0x0D is the function type tag (every module with a function has one); before, it is rarer.
 */
const SOUND_SIZE_WITH_CR_NEW = 605;
const SOUND_SIZE_WITH_CR_OLD = 1024;
/** How far before an error offset a line feed still counts as "the value just read". */
const ERROR_WINDOW = 8;

/**
 * Examines `bytes[moduleStart..]`, where the module block header (u32 id, u32 size) begins.
 * `errorOffset`, if given, is the decoder's first error position in the same coordinates.
 */
export function detectTextModeDamage(bytes: Uint8Array, moduleStart: number, errorOffset?: number): TextModeDamage {
  let crCount = 0;
  let lfCount = 0;
  for (let i = moduleStart; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x0d) crCount++;
    else if (b === 0x0a) lfCount++;
  }
  const available = bytes.length - moduleStart;
  const declared = available >= 8 ? 8 + readU32(bytes, moduleStart + 4) : available;
  const missingBytes = Math.max(0, declared - available);
  if (crCount > 0 || lfCount === 0) {
    return { verdict: 'none', crCount, lfCount, missingBytes, evidence: [] };
  }

  const evidence: TextModeEvidence[] = [];
  if (missingBytes > 0 && missingBytes <= lfCount) evidence.push('sizeShortfall');

  const version = available > 8 ? (bytes[moduleStart + 8] ?? 0) >> 4 : -1;
  const row = formatFor(version);
  if (row && typeTableAnomaly(bytes, moduleStart, row)) evidence.push('typeTableAnomaly');

  if (errorOffset !== undefined) {
    for (let i = Math.max(moduleStart, errorOffset - ERROR_WINDOW); i <= errorOffset && i < bytes.length; i++) {
      if (bytes[i] === 0x0a) {
        evidence.push('errorOnLineFeed');
        break;
      }
    }
  }

  const bigEnough = available >= (row && row.typeTypePlaneId === null ? SOUND_SIZE_WITH_CR_NEW : SOUND_SIZE_WITH_CR_OLD);
  const verdict = evidence.length > 0 ? 'likely' : bigEnough ? 'possible' : 'none';
  return { verdict, crCount, lfCount, missingBytes, evidence };
}

/**
 * Chances that sound compressed data of a given size holds no 0x0D at all, below which that
 * absence makes the damage `likely` (one in a million: 3,530 bytes or more) or `possible` (one in
 * a hundred: 1,177 bytes or more). Compressed bytes are close to uniform, so each byte is 0x0D
 * with chance 1/256: a 165 KB bzip2 stream should hold about 640.
 */
const LIKELY_CHANCE = 1e-6;
const POSSIBLE_CHANCE = 1e-2;

/**
 * The same diagnosis for the compressed bytes of an `llvc1` (zlib) or `llvc2` (bzip2) file that
 * failed to decompress: there is no module header to check, but a CR-LF conversion leaves
 * compressed data without a single 0x0D, which sound compressed data of any size has.
 */
export function detectCompressedTextModeDamage(data: Uint8Array): TextModeDamage {
  let crCount = 0;
  let lfCount = 0;
  for (let i = 0; i < data.length; i++) {
    const b = data[i];
    if (b === 0x0d) crCount++;
    else if (b === 0x0a) lfCount++;
  }
  const chanceIfSound = (255 / 256) ** data.length;
  const verdict = crCount > 0 || lfCount === 0 ? 'none' : chanceIfSound <= LIKELY_CHANCE ? 'likely' : chanceIfSound <= POSSIBLE_CHANCE ? 'possible' : 'none';
  return { verdict, crCount, lfCount, missingBytes: 0, evidence: verdict === 'none' ? [] : ['compressedWithoutCR'], compressedBytes: data.length };
}

/**
 * `e`, an error from unwrapping `file`'s container, with the text-mode hint added when `file` is
 * compressed (`llvc1`/`llvc2`) and its compressed bytes show that damage.
 */
export function withCompressedTextModeDiagnosis(e: BytecodeError, file: Uint8Array): BytecodeError {
  const compressed = file.length > 5 && file[0] === 0x6c && file[1] === 0x6c && file[2] === 0x76 && file[3] === 0x63 && (file[4] === 0x31 || file[4] === 0x32);
  if (!compressed) return e;
  const hint = textModeHint(detectCompressedTextModeDamage(file.subarray(5)));
  return hint ? new BytecodeError(e.reason + hint, e.offset, e.blockPath) : e;
}

/** The hint to append to an error message when the verdict is not `none`. */
export function textModeHint(d: TextModeDamage): string {
  if (d.verdict === 'none') return '';
  if (d.compressedBytes !== undefined) {
    const expected = Math.round(d.compressedBytes / 256);
    return (
      `; its ${d.compressedBytes} bytes of compressed data contain no 0x0D byte, where about ${expected} are expected, and ${d.lfCount} 0x0A bytes: ` +
      `it ${d.verdict === 'likely' ? 'looks like it went' : 'may have gone'} through a text-mode (CR-LF) conversion`
    );
  }
  const shorter = d.missingBytes > 0 ? ` and is ${d.missingBytes} byte(s) shorter than its header declares` : '';
  return (
    `; the file contains no 0x0D bytes and ${d.lfCount} 0x0A bytes${shorter}: ` +
    `it ${d.verdict === 'likely' ? 'looks like it went' : 'may have gone'} through a text-mode (CR-LF) conversion`
  );
}

function readU32(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
}

/**
 * Walks the module's first block, which every writer made the global type table, and reports
 * whether it stops making sense: an unknown or primitive entry tag, a reference beyond the table,
 * or running past the block. Sound corpus files never trigger this (see its test).
 */
function typeTableAnomaly(b: Uint8Array, moduleStart: number, row: FormatRow): boolean {
  const moduleEnd = Math.min(b.length, moduleStart + 8 + readU32(b, moduleStart + 4));
  let pos = moduleStart + 8;
  const vbr = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (pos >= end || shift > 35) throw anomaly;
      const byte = b[pos++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(byte & 0x80)) return value;
    }
  };
  let end = moduleEnd;
  const anomaly = new Error('internal error: text-mode scan anomaly (caught below, never escapes)');
  try {
    vbr(); // version word
    if (row.hasAlignment) pos += (4 - ((pos - moduleStart) % 4)) % 4; // aligned within the module stream
    let id: number;
    let size: number;
    if (row.longBlockHeaders) {
      id = readU32(b, pos);
      size = readU32(b, pos + 4);
      pos += 8;
    } else {
      const word = readU32(b, pos);
      id = word & 0x1f;
      size = word >>> 5;
      pos += 4;
    }
    if (id !== row.blockIds.globalTypePlane) return true;
    end = pos + size;
    if (end > moduleEnd) return true;
    if (size === 0) return false;
    const count = vbr();
    if (row.globalTypesHavePlaneId && vbr() !== row.typeTypePlaneId) return true;
    const limit = 13 + count; // normalized ids: primitives < 13, then this table's types
    const rawTypeId = (): number | 'typeType' => {
      const raw = vbr();
      return normalizeTypeId(row, !row.has32BitTypes && raw === 0x00ffffff ? vbr() : raw);
    };
    /** A reference to a type: a primitive or one of this table's entries. */
    const typeId = (): number => {
      const id = rawTypeId();
      if (id === 'typeType' || id >= limit) throw anomaly;
      return id;
    };
    for (let i = 0; i < count; i++) {
      const tag = rawTypeId();
      switch (tag) {
        case 13: {
          // function
          typeId();
          const n = vbr();
          for (let k = 0; k < n; k++) typeId();
          break;
        }
        case 14: // struct: ids until void
          while (typeId() !== 0) {
            /* element */
          }
          break;
        case 15: // array
        case 18: // packed
          typeId();
          vbr();
          break;
        case 16: // pointer
          typeId();
          break;
        case 17: // opaque
          break;
        default: // a primitive tag or an unknown one: never written by a sound writer
          return true;
      }
    }
    return false;
  } catch (e) {
    if (e === anomaly) return true;
    throw e;
  }
}
