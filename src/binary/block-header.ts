import { WriteRangeError } from '../errors/write-range-error.js';
import type { BinaryReader } from './reader.js';
import type { BinaryWriter } from './writer.js';
import { LONG_BLOCK_IDS, SHORT_BLOCK_IDS, type BlockKind } from '../format/format-table.js';

/**
 * Block headers and lists: the framing shared by every block decoder and encoder.
 *
 * A block header comes in two forms (which one a stream uses is the format table's
 * `longBlockHeaders`; the module block is always long, `moduleBlockHeaderIsLong`):
 *
 * - long (versions 0–2): two little-endian words, the id then the size;
 * - short (versions 3+, LLVM 1.3): one word, the id in the low 5 bits, the size in the high 27.
 *
 * In both, the size counts the block's body: not the header, and not the alignment padding that
 * LLVM 1.1–1.3 wrote after each block.
 *
 * The two id schemes (`include/llvm/Bytecode/Format.h`) are the format table's `LONG_BLOCK_IDS`
 * (0x01, 0x11–0x15, 0x31–0x33) and `SHORT_BLOCK_IDS` (1–8); they are re-exported here with the one
 * old id the table leaves out (`OLD_DEPENDENT_LIBS_BLOCK_ID`, declared by LLVM but never written).
 */

export { LONG_BLOCK_IDS as OLD_BLOCK_IDS, SHORT_BLOCK_IDS as NEW_BLOCK_IDS };
export type { BlockKind };

/** Old-scheme id LLVM declared for a dependent-libraries block (0x16); no LLVM release wrote one. */
export const OLD_DEPENDENT_LIBS_BLOCK_ID = 0x16;

export const BLOCK_HEADER_SIZE_LONG = 8;
export const BLOCK_HEADER_SIZE_SHORT = 4;
/** The largest id a short header can hold (5 bits). */
export const MAX_SHORT_BLOCK_ID = 0x1f;
/** The largest size a short header can hold (27 bits: just under 128 MiB). */
export const MAX_SHORT_BLOCK_SIZE = 0x7ff_ffff;

/** Names used in `BytecodeError.blockPath` and by the analyzer (LLVM's own names for the blocks). */
export const BLOCK_NAMES: ReadonlyMap<BlockKind, string> = new Map<BlockKind, string>([
  ['module', 'Module'],
  ['function', 'Function'],
  ['constantPool', 'ConstantPool'],
  ['symbolTable', 'SymbolTable'],
  ['moduleGlobalInfo', 'ModuleGlobalInfo'],
  ['globalTypePlane', 'GlobalTypePlane'],
  ['basicBlock', 'BasicBlock'],
  ['instructionList', 'InstructionList'],
  ['compactionTable', 'CompactionTable'],
  ['typeSymbolTable', 'TypeSymbolTable'],
]);

function invert(table: Readonly<Record<BlockKind, number | null>>): ReadonlyMap<number, BlockKind> {
  const m = new Map<number, BlockKind>();
  for (const [kind, id] of Object.entries(table) as [BlockKind, number | null][]) if (id !== null) m.set(id, kind);
  return m;
}
const OLD_ID_KIND = invert(LONG_BLOCK_IDS);
const NEW_ID_KIND = invert(SHORT_BLOCK_IDS);

/** The kind of block an old-scheme (long header) id names, or undefined if none. */
export function blockKindOfOldId(id: number): BlockKind | undefined {
  return OLD_ID_KIND.get(id);
}

/** The kind of block a new-scheme (short header, v3+) id names, or undefined if none. */
export function blockKindOfNewId(id: number): BlockKind | undefined {
  return NEW_ID_KIND.get(id);
}

/**
 * Maps an old-scheme id to the new scheme, as LLVM 1.9's reader did for versions 0–2. The old
 * BasicBlock block (0x31, LLVM 1.0) has no new id: the result is undefined for it, as for any id
 * that names no block.
 */
export function oldBlockIdToNew(id: number): number | undefined {
  const kind = OLD_ID_KIND.get(id);
  return kind === undefined ? undefined : (SHORT_BLOCK_IDS[kind] ?? undefined);
}

export interface BlockHeader {
  /** The id as stored (old scheme in long headers of v0–v2, new scheme otherwise). */
  readonly id: number;
  /** Body size in bytes (header and trailing padding excluded). */
  readonly size: number;
  /** Stream offset of the header's first byte (for error messages). */
  readonly headerOffset: number;
  /** Stream offset of the body's first byte. */
  readonly bodyOffset: number;
}

/**
 * Reads a block header at the reader's position. The size is not checked here: pass the header to
 * `reader.enterBlock(name, size, headerOffset)`, which checks it against the enclosing block.
 */
export function readBlockHeader(reader: BinaryReader, longForm: boolean): BlockHeader {
  const headerOffset = reader.pos;
  if (longForm) {
    const id = reader.uint32();
    const size = reader.uint32();
    return { id, size, headerOffset, bodyOffset: reader.pos };
  }
  const word = reader.uint32();
  return { id: word & MAX_SHORT_BLOCK_ID, size: word >>> 5, headerOffset, bodyOffset: reader.pos };
}

/** The short header word for `id` and `size`; throws if either does not fit its bits. */
export function packShortBlockHeader(id: number, size: number): number {
  if (!(Number.isInteger(id) && id >= 0 && id <= MAX_SHORT_BLOCK_ID)) {
    throw new WriteRangeError('short-form block id', `short-form block id out of range (5 bits): ${id}`);
  }
  if (!(Number.isInteger(size) && size >= 0 && size <= MAX_SHORT_BLOCK_SIZE)) {
    throw new WriteRangeError('short-form block size', `short-form block size out of range (27 bits): ${size}`);
  }
  return ((size << 5) | id) >>> 0;
}

/**
 * Writes a complete header whose size is already known. (When it is not, use
 * `BinaryWriter.beginBlock`/`endBlock`, which back-patch it.)
 */
export function writeBlockHeader(writer: BinaryWriter, id: number, size: number, longForm: boolean): void {
  if (longForm) {
    writer.uint32(id);
    writer.uint32(size);
  } else {
    writer.uint32(packShortBlockHeader(id, size));
  }
}

// ---- lists ---------------------------------------------------------------------------------------

/**
 * An `llist(x)`: a vbr32 count, then that many items. The count is checked against `limit` and
 * against the bytes left in the block (each item takes at least `minItemBytes`) before anything
 * is allocated.
 */
export function readList<T>(reader: BinaryReader, readItem: (reader: BinaryReader, index: number) => T, limit: number, what: string, minItemBytes = 1): T[] {
  const at = reader.pos;
  const count = reader.checkCount(reader.vbr32(), minItemBytes, limit, what, at);
  const items = new Array<T>(count);
  for (let i = 0; i < count; i++) items[i] = readItem(reader, i);
  return items;
}

/**
 * A `zlist(x)`: items until a vbr32 zero. Each item starts with a non-zero vbr32, which is read
 * here and passed to `readItem`. Stops with an error after `limit` items, and at the end of the
 * block (a missing terminator is an error, like any truncation).
 */
export function readZList<T>(reader: BinaryReader, readItem: (first: number, reader: BinaryReader, index: number) => T, limit: number, what: string): T[] {
  const items: T[] = [];
  for (;;) {
    const at = reader.pos;
    const first = reader.vbr32();
    if (first === 0) return items;
    if (items.length >= limit) reader.fail(`${what}: more than the limit of ${limit} entries`, at);
    items.push(readItem(first, reader, items.length));
  }
}

/** Writes an `llist(x)`: the count, then each item. */
export function writeList<T>(writer: BinaryWriter, items: readonly T[], writeItem: (writer: BinaryWriter, item: T) => void): void {
  writer.vbr32(items.length);
  for (const item of items) writeItem(writer, item);
}
