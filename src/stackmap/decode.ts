/**
 * Reads a stack map section of any version. Byte 0 is never trusted alone: a layout is taken only
 * when its counts and sizes account for the whole section (up to fewer than 8 zero bytes of
 * padding). When the version's LLVM layout does not, the known variants under that byte are tried
 * (Manticore's two version-1 layouts, the version-3 layout under byte 1 or 2), then the forks this library
 * refuses by name (LLILC's flat version 2, ykllvm's extended version 3); otherwise the error of
 * the version's own layout is thrown, at the offset where it stopped fitting.
 *
 * Bounded: every count is checked against the bytes left before anything is allocated, so memory
 * is proportional to the section and every loop consumes bytes.
 */
import { Cursor } from './cursor.js';
import { StackMapError } from './errors.js';
import { describeLayout, layoutOf, type Layout } from './layout.js';
import type { Endian, StackMap, StackMapFunction, StackMapVariant, StackMapVersion } from './model.js';
import { padLength, withRecordTable } from './record-table.js';
import { isLlilcFlatV2, isYkllvmExtendedV3 } from './forks.js';

export interface DecodeOptions {
  /** The section's byte order; without it, the one whose counts account for the section (little when both do). */
  readonly endian?: Endian;
  /** Where the section starts in the file the user gave, so that error offsets name bytes in that file. */
  readonly fileOffset?: number;
  /** Where the section is, for error messages (e.g. `['ELF section .llvm_stackmaps']`). */
  readonly path?: readonly string[];
  /**
   * True when the caller leaves `bytes` unchanged for as long as the result is used: its records
   * are then made from `bytes` itself when first asked for, not from a copy (a whole-process
   * `stackmap` run, which reads a file and prints it, saves a copy of the section).
   */
  readonly shareBytes?: boolean;
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
      return decodeInOrder(bytes, endian, base, path, options.shareBytes === true);
    } catch (e) {
      if (!(e instanceof StackMapError)) throw e;
      // A fork is named whatever the order; otherwise keep the error that got furthest.
      if (e.fork) throw e;
      if (best === undefined || e.offset > best.offset) best = e;
    }
  }
  throw best!;
}

function decodeInOrder(bytes: Uint8Array, endian: Endian, base: number, path: readonly string[], share: boolean): StackMap {
  const byte0 = bytes[0]!;
  const first = new Cursor(bytes, endian, base, path).peekU32(0)!;
  const attempt = (version: StackMapVersion, variant: StackMapVariant): StackMap | StackMapError => {
    try {
      return parse(bytes, endian, base, path, version, variant, share);
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
      return firstOf(
        () => attempt(1, 'llvm'),
        () => attempt(1, 'manticore-v1'),
        () => attempt(1, 'manticore-v1-u64'),
        () => attempt(1, 'v3-layout'),
      );
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
export function parse(
  bytes: Uint8Array,
  endian: Endian,
  base: number,
  path: readonly string[],
  version: StackMapVersion,
  variant: StackMapVariant,
  share = false,
): StackMap {
  const layout = layoutOf(version, variant);
  const c = new Cursor(bytes, endian, base, path);
  const what = describeLayout(version, variant);
  const functions: StackMapFunction[] = [];
  let constantsAt = 0;
  let numConstants: number;
  let headerReserved = { byte: 0, half: 0 };
  let numRecords: number;
  if (layout.legacy) {
    c.u32('the version 0 header');
    numConstants = c.u32('the constant count');
    if (numConstants * 8 + 4 > c.remaining) c.fail(`${what}: ${numConstants} constants do not fit in the ${c.remaining} bytes left`, 4);
    constantsAt = c.pos;
    c.pos += numConstants * 8;
    numRecords = c.u32('the record count');
    if (numRecords * layout.minRecordSize > c.remaining) c.fail(`${what}: ${numRecords} records do not fit in the ${c.remaining} bytes left`, c.pos - 4);
  } else {
    c.u8();
    headerReserved = { byte: c.u8(), half: c.u16() };
    const numFunctions = c.u32('the function count');
    numConstants = c.u32('the constant count');
    numRecords = c.u32('the record count');
    const needed = numFunctions * layout.functionSize + numConstants * 8 + numRecords * layout.minRecordSize;
    if (needed > c.remaining) {
      c.fail(
        `${what}: ${numFunctions} functions, ${numConstants} constants and ${numRecords} records need at least ${needed} bytes after the header, the section has ${c.remaining}`,
        4,
      );
    }
    for (let i = 0; i < numFunctions; i++) {
      const address = c.u64();
      const stackSize = c.u64();
      const f: StackMapFunction = { address, stackSize };
      if (layout.recordCount === 'u64') f.recordCount = c.u64();
      else if (layout.recordCount === 'u32') f.recordCount = BigInt(c.u32());
      functions.push(f);
    }
    constantsAt = c.pos;
    c.pos += numConstants * 8; // checked with the rest above
  }
  const recordPath = c.path.length;
  // Bounded: the count was checked against the bytes left, at the smallest record's size.
  const starts = new Uint32Array(numRecords);
  for (let i = 0; i < numRecords; i++) {
    starts[i] = c.pos;
    try {
      checkRecord(c, layout, what);
    } catch (e) {
      // The record's place in the path only when it is needed: building it for every record cost more than reading it.
      if (e instanceof StackMapError && c.path.length === recordPath) throw new StackMapError(e.reason, e.offset, [...c.path, `record #${i}`], e.fork);
      throw e;
    }
  }
  const trailing = bytes.subarray(c.pos);
  if (trailing.length >= 8 || !allZero(trailing)) {
    c.fail(`${what}: the records end at byte ${c.pos} but the section has ${bytes.length} bytes (the counts do not account for it)`);
  }
  if (variant === 'manticore-v1' || variant === 'manticore-v1-u64') {
    // Manticore's counts must sum to the records: the only thing telling its entries from a
    // version-1 section that happens to fit.
    let sum = 0n;
    for (const f of functions) sum += f.recordCount!;
    if (sum !== BigInt(numRecords)) c.fail(`${what}: the function record counts sum to ${sum}, not ${numRecords}`, 16);
  }
  const map: StackMap = { version, variant, endian, headerReserved, functions, constants: [], records: [], trailing: trailing.slice() };
  if (numRecords === 0 && numConstants === 0) return map;
  // Unless the caller shares them (DecodeOptions.shareBytes), a copy (a new Uint8Array: a Buffer's
  // `slice` would share): the constants and records are made from these bytes when first asked
  // for, whatever the caller has done with its own since.
  const own = share ? bytes.subarray(0, c.pos) : new Uint8Array(bytes.subarray(0, c.pos));
  return withRecordTable(map, {
    bytes: own,
    view: new DataView(own.buffer, own.byteOffset, own.byteLength),
    little: c.little,
    layout,
    starts,
    constantsAt,
    numConstants,
  });
}

/**
 * Checks one record's bytes and moves past it: each part (the head, the locations, the live-outs)
 * is checked once. Its objects are made from the bytes when asked for (record-table.ts). The
 * cursor's checks are written out here (the same tests and messages as `need`): this runs once a
 * record, mostly before V8 has optimized it, and calls cost there.
 */
function checkRecord(c: Cursor, layout: Layout, what: string): void {
  const v = c.view;
  const le = c.little;
  const end = c.end;
  let p = c.pos;
  const headSize = layout.legacy ? 12 : 16;
  if (headSize > end - p) c.need(headSize, 'a record header');
  const numLocations = v.getUint16(p + headSize - 2, le);
  p += headSize;
  const locations = numLocations * layout.locationSize;
  if (locations > end - p) {
    c.pos = p;
    c.fail(`${what}: ${numLocations} locations do not fit in the ${end - p} bytes left`, p - 2);
  }
  p += locations;
  if (layout.legacy) {
    c.pos = p;
    return;
  }
  if (layout.padLocations) {
    const pad = padLength(p);
    if (pad > end - p) {
      c.pos = p;
      c.need(pad, 'the padding after the locations');
    }
    p += pad;
  }
  if (4 > end - p) {
    c.pos = p;
    c.need(4, 'the live-out count');
  }
  const numLiveOuts = v.getUint16(p + 2, le);
  p += 4;
  if (numLiveOuts * 4 > end - p) {
    c.pos = p;
    c.fail(`${what}: ${numLiveOuts} live-outs do not fit in the ${end - p} bytes left`, p - 2);
  }
  p += numLiveOuts * 4;
  const pad = padLength(p);
  if (pad > end - p) {
    c.pos = p;
    c.need(pad, 'the padding at the end of the record');
  }
  c.pos = p + pad;
}
