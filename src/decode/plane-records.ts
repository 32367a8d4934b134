/**
 * The plane records of constant pools and symbol tables as every version stores them
 * (docs/format.md §9, §12): planes of `[count][type id]`, each followed by its `count` records; in
 * a symbol table those are `[slot][name]` entries, which v2+'s named types and version 7's type
 * symbol table also list alone after a count. What a plane's records mean, and which counts and
 * names a reader refused, is the consumer's: the analyzer (both walks) and the graph builder's
 * pools (`constant-pool.ts`, `v7/constants.ts`) and version-7 symbol tables read the planes here
 * and check them as their reader did, through the hooks below, in the order that reader read.
 *
 * The version 0–6 graph builder's symbol tables (`symbol-table.ts`) read the same records in
 * their own loop: they intern names straight from the bytes and resolve slots to value codes as
 * they go, on every entry of every function's table (a module of many small functions).
 */
import type { BytecodeReader } from './reader.js';

/** One `[slot][name]` entry, at stream offset `at`. */
export type SymbolEntryVisitor = (slot: number, name: string, at: number) => void;

/** How a consumer reads and checks a plane's header, and then reads the plane. */
export interface PlaneReading {
  /** A plane's record count, just read (before the plane's type id): checked, or not, as the reader did. */
  count?(n: number, at: number): void;
  /** The plane's type id: a plain VBR, or a type id as the version stores one. */
  planeId(r: BytecodeReader): number;
  /** Reads the plane's `count` records (its header at `at`). */
  plane(count: number, planeId: number, at: number): void;
}

/** Planes to the end of the block (a constant pool's, after a function pool's own types). */
export function readPlanes(r: BytecodeReader, reading: PlaneReading): void {
  while (r.pos < r.end) {
    const at = r.pos;
    const n = r.vbr32();
    reading.count?.(n, at);
    reading.plane(n, reading.planeId(r), at);
  }
}

/** How a consumer reads and checks the parts of a symbol table its reader read its own way. */
export interface SymbolPlaneReading {
  /** A plane's entry count, just read (before the plane's type id): checked, or not, as the reader did. */
  count?(n: number, at: number): void;
  /** The plane's type id: a plain VBR, or a type id as the version stores one. */
  planeId(r: BytecodeReader): number;
  /** A plane begins: `count` entries of plane `planeId`, the plane's record at `at`. */
  plane?(count: number, planeId: number, at: number): void;
  /** One entry's name (the reader's own length check, if any). */
  name(r: BytecodeReader): string;
  entry: SymbolEntryVisitor;
}

/** `n` entries of `[slot][name]` (a list whose count the consumer read and checked). */
export function readSymbolEntries(r: BytecodeReader, n: number, name: (r: BytecodeReader) => string, entry: SymbolEntryVisitor): void {
  for (let i = 0; i < n; i++) {
    const at = r.pos;
    const slot = r.vbr32();
    entry(slot, name(r), at);
  }
}

/** Planes of named values to the end of the block. */
export function readSymbolPlanes(r: BytecodeReader, reading: SymbolPlaneReading): void {
  readPlanes(r, {
    count: reading.count,
    planeId: reading.planeId,
    plane: (n, planeId, at) => {
      reading.plane?.(n, planeId, at);
      readSymbolEntries(r, n, reading.name, reading.entry);
    },
  });
}

/** A name as a length-prefixed string, without a reader's own limit. */
export function plainName(r: BytecodeReader): string {
  return r.string();
}
