/**
 * A block's frame, read as the format table's row says: the header (long or short form), the
 * kind its id names in the row's numbering, and where header and body are. Every walk of the
 * block tree reads its blocks here (the module-graph builder, version 7's reader, the
 * analyzer); each then checks the frame as the reader it follows did.
 */
import { readBlockHeader } from '../binary/block-header.js';
import type { BinaryReader } from '../binary/reader.js';
import { blockKindFor, type BlockKind, type FormatRow } from '../format/format-table.js';

export interface BlockFrame {
  /** The id as stored (old scheme in the long headers of versions 0–2). */
  readonly id: number;
  /** What the id names in the row's numbering (undefined: no block of the row). */
  readonly kind: BlockKind | undefined;
  /** The body's size in bytes, as the header claims it (not checked here). */
  readonly size: number;
  /** Stream offset of the header's first byte. */
  readonly headerOffset: number;
  /** Bytes of the header: 8 long, 4 short. */
  readonly headerSize: number;
}

/** Reads the block header at the reader's position; the size is the caller's to check. */
export function readBlockFrame(r: BinaryReader, row: FormatRow): BlockFrame {
  const h = readBlockHeader(r, row.longBlockHeaders);
  return { id: h.id, kind: blockKindFor(row, h.id), size: h.size, headerOffset: h.headerOffset, headerSize: h.bodyOffset - h.headerOffset };
}
