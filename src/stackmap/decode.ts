/**
 * Reads a stack map section of any version. Byte 0 is never trusted alone: a layout is taken only
 * when its counts and sizes account for the whole section (up to fewer than 8 zero bytes of
 * padding). When the version's LLVM layout does not, the known variants under that byte are tried
 * (Manticore's version 1, the version-3 layout under byte 1 or 2), then the forks this library
 * refuses by name (LLILC's flat version 2, ykllvm's extended version 3); otherwise the error of
 * the version's own layout is thrown, at the offset where it stopped fitting.
 *
 * Bounded: every count is checked against the bytes left before anything is allocated, so memory
 * is proportional to the section and every loop consumes bytes.
 */
import { Cursor } from './cursor.js';
import { StackMapError } from './errors.js';
import { describeLayout, layoutOf, type Layout } from './layout.js';
import type { Endian, StackMap, StackMapFunction, StackMapLiveOut, StackMapLocation, StackMapRecord, StackMapVariant, StackMapVersion } from './model.js';
import { isLlilcFlatV2, isYkllvmExtendedV3 } from './forks.js';

export interface DecodeOptions {
  /** The section's byte order; without it, the one whose counts account for the section (little when both do). */
  readonly endian?: Endian;
  /** Where the section starts in the file the user gave, so that error offsets name bytes in that file. */
  readonly fileOffset?: number;
  /** Where the section is, for error messages (e.g. `['ELF section .llvm_stackmaps']`). */
  readonly path?: readonly string[];
}

export const LLILC_FORK = "LLILC's flat version 2 (the 2015 RFC's offset-indexed tables)";
export const YKLLVM_FORK = "ykllvm's extended version 3 (live variables of several locations)";

/** Decodes one stack map section (its bytes only). Throws StackMapError. */
export function decodeStackMapSection(bytes: Uint8Array, options: DecodeOptions = {}): StackMap {
  const base = options.fileOffset ?? 0;
  const path = options.path ?? [];
  if (bytes.length < 4) throw new StackMapError(`a stack map section needs at least a 4-byte header, this one has ${bytes.length} bytes`, base, path);
  const orders: Endian[] = options.endian ? [options.endian] : ['little', 'big'];
  let best: StackMapError | undefined;
  for (const endian of orders) {
    try {
      return decodeInOrder(bytes, endian, base, path);
    } catch (e) {
      if (!(e instanceof StackMapError)) throw e;
      // A fork is named whatever the order; otherwise keep the error that got furthest.
      if (e.fork) throw e;
      if (best === undefined || e.offset > best.offset) best = e;
    }
  }
  throw best!;
}

function decodeInOrder(bytes: Uint8Array, endian: Endian, base: number, path: readonly string[]): StackMap {
  const byte0 = bytes[0]!;
  const first = new Cursor(bytes, endian, base, path).peekU32(0)!;
  const attempt = (version: StackMapVersion, variant: StackMapVariant): StackMap | StackMapError => {
    try {
      return parse(bytes, endian, base, path, version, variant);
    } catch (e) {
      if (e instanceof StackMapError) return e;
      throw e;
    }
  };
  const firstOf = (...tries: Array<() => StackMap | StackMapError>): StackMap => {
    let error: StackMapError | undefined;
    for (const t of tries) {
      const r = t();
      if (!(r instanceof StackMapError)) return r;
      if (r.fork) throw r;
      error ??= r;
    }
    throw error!;
  };
  if (first === 0) return firstOf(() => attempt(0, 'llvm'));
  switch (byte0) {
    case 1:
      return firstOf(() => attempt(1, 'llvm'), () => attempt(1, 'manticore-v1'), () => attempt(1, 'v3-layout'));
    case 2:
      return firstOf(
        () => attempt(2, 'llvm'),
        () => attempt(2, 'v3-layout'),
        () => (isLlilcFlatV2(bytes, endian) ? new StackMapError(`this is ${LLILC_FORK}: not read`, base, path, LLILC_FORK) : forkThrow()),
      );
    case 3:
      return firstOf(
        () => attempt(3, 'llvm'),
        () => (isYkllvmExtendedV3(bytes, endian) ? new StackMapError(`this is ${YKLLVM_FORK}: not read`, base, path, YKLLVM_FORK) : forkThrow()),
      );
    default:
      throw new StackMapError(`byte 0 is ${byte0}: not a stack map version LLVM wrote (0 to 3)`, base, path);
  }
}

/** A placeholder result for a fork probe that did not match (the first error is reported). */
function forkThrow(): StackMapError {
  return new StackMapError('no layout fits', 0);
}

function allZero(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
}

/** Reads the section as exactly this layout, or throws where it stops fitting. */
export function parse(bytes: Uint8Array, endian: Endian, base: number, path: readonly string[], version: StackMapVersion, variant: StackMapVariant): StackMap {
  const layout = layoutOf(version, variant);
  const c = new Cursor(bytes, endian, base, path);
  const what = describeLayout(version, variant);
  const functions: StackMapFunction[] = [];
  const constants: bigint[] = [];
  const records: StackMapRecord[] = [];
  let headerReserved = { byte: 0, half: 0 };
  let numRecords: number;
  if (layout.legacy) {
    c.u32('the version 0 header');
    const numConstants = c.u32('the constant count');
    if (numConstants * 8 + 4 > c.remaining) c.fail(`${what}: ${numConstants} constants do not fit in the ${c.remaining} bytes left`, 4);
    for (let i = 0; i < numConstants; i++) constants.push(c.u64());
    numRecords = c.u32('the record count');
    if (numRecords * layout.minRecordSize > c.remaining) c.fail(`${what}: ${numRecords} records do not fit in the ${c.remaining} bytes left`, c.pos - 4);
  } else {
    c.u8();
    headerReserved = { byte: c.u8(), half: c.u16() };
    const numFunctions = c.u32('the function count');
    const numConstants = c.u32('the constant count');
    numRecords = c.u32('the record count');
    const needed = numFunctions * layout.functionSize + numConstants * 8 + numRecords * layout.minRecordSize;
    if (needed > c.remaining) {
      c.fail(`${what}: ${numFunctions} functions, ${numConstants} constants and ${numRecords} records need at least ${needed} bytes after the header, the section has ${c.remaining}`, 4);
    }
    for (let i = 0; i < numFunctions; i++) {
      const address = c.u64();
      const stackSize = c.u64();
      const f: StackMapFunction = { address, stackSize };
      if (layout.recordCount === 'u64') f.recordCount = c.u64();
      else if (layout.recordCount === 'u32') f.recordCount = BigInt(c.u32());
      functions.push(f);
    }
    for (let i = 0; i < numConstants; i++) constants.push(c.u64());
  }
  for (let i = 0; i < numRecords; i++) {
    c.path.push(`record #${i}`);
    records.push(readRecord(c, layout, what));
    c.path.pop();
  }
  const trailing = bytes.subarray(c.pos);
  if (trailing.length >= 8 || !allZero(trailing)) {
    c.fail(`${what}: the records end at byte ${c.pos} but the section has ${bytes.length} bytes (the counts do not account for it)`);
  }
  if (variant === 'manticore-v1') {
    // Manticore's counts must sum to the records: the only thing telling its 20-byte entries from
    // a version-1 section that happens to fit.
    let sum = 0n;
    for (const f of functions) sum += f.recordCount!;
    if (sum !== BigInt(numRecords)) c.fail(`${what}: the function record counts sum to ${sum}, not ${numRecords}`, 16);
  }
  return { version, variant, endian, headerReserved, functions, constants, records, trailing: trailing.slice() };
}

function readRecord(c: Cursor, layout: Layout, what: string): StackMapRecord {
  const start = c.pos;
  const id = layout.legacy ? BigInt(c.u32('a record id')) : c.u64('a record id');
  const instructionOffset = c.u32('an instruction offset');
  const flags = c.u16();
  const numLocations = c.u16('a location count');
  if (numLocations * layout.locationSize > c.remaining) c.fail(`${what}: ${numLocations} locations do not fit in the ${c.remaining} bytes left`, c.pos - 2);
  const locations: StackMapLocation[] = new Array(numLocations);
  for (let i = 0; i < numLocations; i++) {
    const kind = c.u8();
    let size = 0;
    let reserved = 0;
    let reserved2 = 0;
    if (layout.locationSizeField === 'u16') {
      reserved = c.u8();
      size = c.u16();
    } else if (layout.locationSizeField === 'byte') size = c.u8();
    else reserved = c.u8();
    const reg = c.u16();
    if (layout.locationSizeField === 'u16') reserved2 = c.u16();
    const offset = c.i32();
    locations[i] = { kind, size, reg, offset, reserved, reserved2 };
  }
  const record: StackMapRecord = { id, instructionOffset, flags, locations, liveOuts: [], liveOutPadding: 0 };
  if (layout.legacy) return record;
  if (layout.padLocations) {
    const pad = c.padTo(8, 'the padding after the locations');
    if (!allZero(pad)) record.locationPadding = pad.slice();
  }
  record.liveOutPadding = c.u16('the padding before the live-outs');
  const numLiveOuts = c.u16('a live-out count');
  if (numLiveOuts * 4 > c.remaining) c.fail(`${what}: ${numLiveOuts} live-outs do not fit in the ${c.remaining} bytes left`, c.pos - 2);
  const liveOuts: StackMapLiveOut[] = new Array(numLiveOuts);
  for (let i = 0; i < numLiveOuts; i++) liveOuts[i] = { reg: c.u16(), reserved: c.u8(), size: c.u8() };
  record.liveOuts = liveOuts;
  const pad = c.padTo(8, 'the padding at the end of the record');
  if (!allZero(pad)) record.endPadding = pad.slice();
  void start;
  return record;
}
