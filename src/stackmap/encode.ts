/**
 * Writes a model as a section of a version (its own by default). A model read from a section
 * writes back byte for byte: reserved fields and non-zero padding are kept in the model. Writing
 * at another version refuses, naming the reason, what the target layout cannot hold.
 */
import { StackMapError } from './errors.js';
import { align8, describeLayout, layoutOf } from './layout.js';
import type { Endian, StackMap, StackMapVariant, StackMapVersion } from './model.js';
import { groupRecords } from './group.js';

export interface EncodeOptions {
  /**
   * The version to write. Without it, the model's own version in its own variant (a section read
   * writes back byte for byte); with it, LLVM's layout of that version unless `variant` says
   * otherwise: asking for version 2 of an `llc -stackmap-version=2` section (the version-3 layout
   * under byte 2) gives LLVM 4.0's version 2.
   */
  readonly version?: StackMapVersion;
  /** The layout variant to write (default: see `version`). */
  readonly variant?: StackMapVariant;
  /** Byte order (default: the model's). */
  readonly endian?: Endian;
}

const U32_MAX = 0xffffffff;
const U64_MAX = (1n << 64n) - 1n;

/** The section's bytes. Throws StackMapError (offset 0) naming what the target cannot hold. */
export function encodeStackMapSection(map: StackMap, options: EncodeOptions = {}): Uint8Array {
  const version = options.version ?? map.version;
  const variant = options.variant ?? (options.version === undefined ? map.variant : 'llvm');
  const endian = options.endian ?? map.endian;
  const layout = layoutOf(version, variant);
  const target = describeLayout(version, variant);
  const refuse = (why: string): never => {
    throw new StackMapError(`cannot write ${target}: ${why}`, 0);
  };
  // Function record counts: kept when the model has them, else from the grouping rule (group.ts).
  let counts: bigint[] = [];
  if (layout.recordCount !== 'none') {
    // Not when there are records and no functions (version 0): every() of no functions is true, and
    // the records would be written belonging to none. The grouping refuses that case by name.
    if (map.functions.every((f) => f.recordCount !== undefined) && (map.functions.length > 0 || map.records.length === 0))
      counts = map.functions.map((f) => f.recordCount!);
    else {
      const grouping = groupRecords(map);
      if (!grouping.settled) throw new StackMapError(`cannot write ${target}: its records cannot be given to functions (${grouping.reason})`, 0);
      counts = grouping.counts.map(BigInt);
    }
  }
  if (layout.legacy) {
    if (map.functions.length > 0) refuse(`version 0 has no function table and this section has ${map.functions.length} functions`);
  }
  // Check every record fits before writing anything.
  let size = layout.headerSize + map.functions.length * layout.functionSize + map.constants.length * 8;
  if (layout.legacy) size = 8 + map.constants.length * 8 + 4;
  for (let i = 0; i < map.records.length; i++) {
    const r = map.records[i]!;
    if (layout.legacy) {
      if (r.id > BigInt(U32_MAX)) refuse(`record #${i}'s id ${r.id} needs more than version 0's 32 bits`);
      if (r.liveOuts.length > 0) refuse(`record #${i} has live-outs, which version 0 cannot hold`);
      if (r.locations.some((l) => l.size !== 0)) refuse(`record #${i}'s locations have sizes and version 0 has no location sizes`);
      size += 12 + 8 * r.locations.length;
      continue;
    }
    for (let j = 0; j < r.locations.length; j++) {
      const s = r.locations[j]!.size;
      if (s > layout.maxLocationSize) refuse(`record #${i}'s location #${j + 1} is ${s} bytes, above the ${layout.maxLocationSize} its one size byte holds`);
    }
    size += recordSize(layout.locationSize, layout.padLocations, r.locations.length, r.liveOuts.length);
  }
  if (layout.recordCount === 'u32') counts.forEach((c, i) => c > BigInt(U32_MAX) && refuse(`function #${i}'s record count ${c} needs more than 32 bits`));
  size += map.trailing.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const little = endian === 'little';
  let p = 0;
  const u8 = (v: number) => void (out[p++] = v & 0xff);
  const u16 = (v: number) => {
    view.setUint16(p, v & 0xffff, little);
    p += 2;
  };
  const u32 = (v: number) => {
    view.setUint32(p, v >>> 0, little);
    p += 4;
  };
  const i32 = (v: number) => {
    view.setInt32(p, v | 0, little);
    p += 4;
  };
  const u64 = (v: bigint) => {
    view.setBigUint64(p, BigInt.asUintN(64, v), little);
    p += 8;
  };
  const bytes = (b: Uint8Array | undefined, n: number) => {
    if (b && b.length === n) out.set(b, p);
    p += n;
  };
  if (layout.legacy) {
    u32(0);
    u32(map.constants.length);
    map.constants.forEach(u64);
    u32(map.records.length);
  } else {
    u8(version);
    u8(map.headerReserved.byte);
    u16(map.headerReserved.half);
    u32(map.functions.length);
    u32(map.constants.length);
    u32(map.records.length);
    map.functions.forEach((f, i) => {
      u64(f.address);
      u64(f.stackSize);
      if (layout.recordCount === 'u64') u64(counts[i]!);
      else if (layout.recordCount === 'u32') u32(Number(counts[i]!));
    });
    map.constants.forEach(u64);
  }
  for (const r of map.records) {
    if (layout.legacy) u32(Number(r.id));
    else u64(r.id);
    u32(r.instructionOffset);
    u16(r.flags);
    u16(r.locations.length);
    for (const l of r.locations) {
      u8(l.kind);
      if (layout.locationSizeField === 'u16') {
        u8(l.reserved);
        u16(l.size);
      } else if (layout.locationSizeField === 'byte') u8(l.size);
      else u8(l.reserved);
      u16(l.reg);
      if (layout.locationSizeField === 'u16') u16(l.reserved2);
      i32(l.offset);
    }
    if (layout.legacy) continue;
    if (layout.padLocations) bytes(r.locationPadding, align8(p) - p);
    u16(r.liveOutPadding);
    u16(r.liveOuts.length);
    for (const lo of r.liveOuts) {
      u16(lo.reg);
      u8(lo.reserved);
      u8(lo.size);
    }
    bytes(r.endPadding, align8(p) - p);
  }
  bytes(map.trailing, map.trailing.length);
  if (p !== size) throw new Error(`internal: wrote ${p} of ${size} bytes`);
  return out;
}

/** A record's bytes in a layout with `locationSize`-byte locations. */
export function recordSize(locationSize: number, padLocations: boolean, locations: number, liveOuts: number): number {
  const head = 16 + locationSize * locations;
  return align8((padLocations ? align8(head) : head) + 4 + 4 * liveOuts);
}

export { U64_MAX };
