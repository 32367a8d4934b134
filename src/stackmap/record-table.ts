/**
 * A decoded section's records and constants kept as they were read: where each record starts in
 * the section's bytes, every part already checked by the decoder. The objects of the model
 * (`StackMapRecord`, its locations and live-outs; the constants' bigints) are made on the first
 * read of `map.records` (`map.constants`), then kept as a plain array the caller may change like
 * any other.
 *
 * Why: a section of 24,000 records has some 100,000 locations, and making their objects cost a
 * whole `stackmap --syntax readobj` process half its time (mostly the collector moving objects that
 * all survive). The readobj printer reads the table instead (readobj-records.ts), so a listing makes
 * no object per record; anything else that reads `records` gets the objects, as before.
 */
import type { Layout } from './layout.js';
import type { StackMap, StackMapLiveOut, StackMapLocation, StackMapRecord } from './model.js';

export interface RecordTable {
  /** The section's bytes. */
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly little: boolean;
  readonly layout: Layout;
  /** Record i's first byte in `bytes`. */
  readonly starts: Uint32Array;
  /** Where the constants (u64 each) start in `bytes`, and how many. */
  readonly constantsAt: number;
  readonly numConstants: number;
}

/** The tables of maps whose records have not been made yet. */
const tables = new WeakMap<StackMap, RecordTable>();
/** The tables of maps whose constants have not been made yet. */
const constantTables = new WeakMap<StackMap, RecordTable>();

/**
 * `map` (whose `records` and `constants` are placeholders) with each made from `table` on first
 * read. The properties stay enumerable and in their places, so a copy, a comparison or JSON sees
 * them.
 */
export function withRecordTable(map: StackMap, table: RecordTable): StackMap {
  lazyProperty(map, 'records', tables, table, () => materialize(table));
  lazyProperty(map, 'constants', constantTables, table, () => Array.from({ length: table.numConstants }, (_, i) => constantAt(table, i)));
  return map;
}

function lazyProperty<K extends 'records' | 'constants'>(
  map: StackMap,
  key: K,
  pending: WeakMap<StackMap, RecordTable>,
  table: RecordTable,
  make: () => StackMap[K],
): void {
  const settle = (value: StackMap[K]): void => {
    Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
    pending.delete(map);
  };
  Object.defineProperty(map, key, {
    enumerable: true,
    configurable: true,
    get(): StackMap[K] {
      const value = make();
      settle(value);
      return value;
    },
    set: settle,
  });
  pending.set(map, table);
}

/** The table `map.records` would be made from, while they have not been made (else undefined). */
export function recordTableOf(map: StackMap): RecordTable | undefined {
  return tables.get(map);
}

/** The table `map.constants` would be made from, while they have not been made (else undefined). */
export function constantTableOf(map: StackMap): RecordTable | undefined {
  return constantTables.get(map);
}

/** The number of constants, without making them. */
export function constantCountOf(map: StackMap): number {
  return constantTables.get(map)?.numConstants ?? map.constants.length;
}

/** Constant i of the table. */
export function constantAt(t: RecordTable, i: number): bigint {
  return t.view.getBigUint64(t.constantsAt + 8 * i, t.little);
}

/** The number of records, without making them. */
export function recordCountOf(map: StackMap): number {
  return tables.get(map)?.starts.length ?? map.records.length;
}

/** Record i's instruction offset, without making the records. */
export function instructionOffsets(map: StackMap): number[] {
  const t = tables.get(map);
  if (t === undefined) return map.records.map((r) => r.instructionOffset);
  const idSize = t.layout.legacy ? 4 : 8;
  return Array.from(t.starts, (s) => t.view.getUint32(s + idSize, t.little));
}

function materialize(t: RecordTable): StackMapRecord[] {
  const records: StackMapRecord[] = new Array(t.starts.length);
  for (let i = 0; i < t.starts.length; i++) records[i] = recordAt(t, t.starts[i]!);
  return records;
}

/** The record at `p` (checked by the decoder: no bound is tested here). */
function recordAt(t: RecordTable, p: number): StackMapRecord {
  const { bytes, view: v, little: le, layout } = t;
  const id = layout.legacy ? BigInt(v.getUint32(p, le)) : v.getBigUint64(p, le);
  p += layout.legacy ? 4 : 8;
  const instructionOffset = v.getUint32(p, le);
  const flags = v.getUint16(p + 4, le);
  const numLocations = v.getUint16(p + 6, le);
  p += 8;
  const size = layout.locationSize;
  const locations: StackMapLocation[] = new Array(numLocations);
  const field = layout.locationSizeField;
  for (let i = 0; i < numLocations; i++, p += size) {
    const kind = bytes[p]!;
    if (field === 'u16') {
      locations[i] = {
        kind,
        size: v.getUint16(p + 2, le),
        reg: v.getUint16(p + 4, le),
        offset: v.getInt32(p + 8, le),
        reserved: bytes[p + 1]!,
        reserved2: v.getUint16(p + 6, le),
      };
    } else if (field === 'byte') {
      locations[i] = { kind, size: bytes[p + 1]!, reg: v.getUint16(p + 2, le), offset: v.getInt32(p + 4, le), reserved: 0, reserved2: 0 };
    } else {
      locations[i] = { kind, size: 0, reg: v.getUint16(p + 2, le), offset: v.getInt32(p + 4, le), reserved: bytes[p + 1]!, reserved2: 0 };
    }
  }
  const record: StackMapRecord = { id, instructionOffset, flags, locations, liveOuts: [], liveOutPadding: 0 };
  if (layout.legacy) return record;
  if (layout.padLocations) {
    const pad = padding(bytes, p);
    if (pad) record.locationPadding = pad;
    p += padLength(p);
  }
  record.liveOutPadding = v.getUint16(p, le);
  const numLiveOuts = v.getUint16(p + 2, le);
  p += 4;
  const liveOuts: StackMapLiveOut[] = new Array(numLiveOuts);
  for (let i = 0; i < numLiveOuts; i++, p += 4) liveOuts[i] = { reg: v.getUint16(p, le), reserved: bytes[p + 2]!, size: bytes[p + 3]! };
  record.liveOuts = liveOuts;
  const pad = padding(bytes, p);
  if (pad) record.endPadding = pad;
  return record;
}

/** Bytes from `p` to the next multiple of 8 (positions count from the section's start). */
export const padLength = (p: number): number => (8 - (p % 8)) % 8;

/** The padding at `p` when its bytes are not all zero (kept for writing back). */
function padding(bytes: Uint8Array, p: number): Uint8Array | undefined {
  const end = p + padLength(p);
  for (let i = p; i < end; i++) if (bytes[i] !== 0) return bytes.slice(p, end);
  return undefined;
}
