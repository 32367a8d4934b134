/**
 * The CompactionTable block as versions 1–6 store it (docs/format.md §10; version 7 retired it):
 * from version 2 on, a count and that many type ids (the function's numbering of the module's
 * types); then planes to the end of the block, each `[word]` whose low two bits are the entry
 * count (3: the count is the rest of the word and a type id follows; else the rest is the type
 * id), then the entries' module slots. In versions 0–1 the type list is the plane of the type
 * type. The ids are read as `types.ts` reads one (`TYPE_TYPE` for the type type's plane).
 *
 * Read here for the graph builder (`function-block.ts`) and the analyzer (`analyze/walker.ts`):
 * what the entries mean, and which counts, types and slots a reader refused with which words, is
 * the consumer's, through the hooks below, called in the order its reader read.
 */
import { normalizeTypeId, type FormatRow } from '../format/format-table.js';
import type { BytecodeReader } from './reader.js';
import { readTypeId, TYPE_TYPE } from './types.js';

export interface CompactionReading {
  /** Version 2+: the compacted types' count (at `at`), checked as the reader did: returns it. */
  typeCount(n: number, at: number): number;
  /** A list of `count` compacted types begins (the version 2+ list, or versions 0–1's type-type plane). */
  types(count: number, at: number): void;
  /** The list's `i`th type id, read at `at`. */
  type(i: number, id: number, at: number): void;
  /** The list's ids are all read. */
  typesEnd(count: number): void;
  /** A plane's header is read (before the list or the entries it announces). */
  planeHeader?(count: number, at: number): void;
  /** A plane of `count` module values of type `planeId` begins. */
  valuePlane(count: number, planeId: number, at: number): void;
  /** Its `i`th entry: a module slot, read at `at`. */
  entry(i: number, slot: number, at: number): void;
  /** The plane's entries are all read. */
  valuePlaneEnd?(count: number, planeId: number, at: number): void;
}

/** Reads a compaction table's body (the reader inside the block) as `row`'s version stores it. */
export function readCompactionTable(r: BytecodeReader, row: FormatRow, c: CompactionReading): void {
  if (!row.typeDerivedFromValue) {
    const at = r.pos;
    readTypeList(r, row, c, c.typeCount(r.vbr32(), at), at);
  }
  while (r.pos < r.end) {
    const at = r.pos;
    const word = r.vbr32();
    let count = word & 3;
    let planeId: number;
    if (count === 3) {
      count = word >>> 2;
      planeId = readTypeId(r, row);
    } else {
      const n = normalizeTypeId(row, word >>> 2);
      planeId = n === 'typeType' ? TYPE_TYPE : n;
    }
    c.planeHeader?.(count, at);
    if (planeId === TYPE_TYPE) {
      readTypeList(r, row, c, count, at);
      continue;
    }
    c.valuePlane(count, planeId, at);
    for (let i = 0; i < count; i++) {
      const slotAt = r.pos;
      c.entry(i, r.vbr32(), slotAt);
    }
    c.valuePlaneEnd?.(count, planeId, at);
  }
}

function readTypeList(r: BytecodeReader, row: FormatRow, c: CompactionReading, count: number, at: number): void {
  c.types(count, at);
  for (let i = 0; i < count; i++) {
    const typeAt = r.pos;
    c.type(i, readTypeId(r, row), typeAt);
  }
  c.typesEnd(count);
}
