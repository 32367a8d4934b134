/**
 * The format table: every layout's sizes in one place (README of ../shared/stackmaps and LLVM's
 * StackMaps.cpp of each release). Decoder, encoder and converter read these and nothing else.
 */
import type { StackMapVariant, StackMapVersion } from './model.js';

export interface Layout {
  /** Bytes of the header before the function table (version 0: the u32 0 and the constant count). */
  readonly headerSize: number;
  /** Bytes per function entry (0: version 0 has none). */
  readonly functionSize: 0 | 16 | 20 | 24;
  /** Whether function entries carry a record count, and its width. */
  readonly recordCount: 'none' | 'u32' | 'u64';
  /** Bytes per location: 8 (versions 0–2) or 12 (version 3). */
  readonly locationSize: 8 | 12;
  /** Where a location's size is: byte 1 (versions 1–2), a u16 at 2 (version 3), nowhere (version 0). */
  readonly locationSizeField: 'none' | 'byte' | 'u16';
  /** Version 0: 32-bit ids, no live-outs, no padding. */
  readonly legacy: boolean;
  /** Version 3: locations padded to 8 before the live-outs. */
  readonly padLocations: boolean;
  /** Smallest record, for bounding counts before anything is allocated. */
  readonly minRecordSize: number;
  /** The largest location size the layout can hold. */
  readonly maxLocationSize: number;
}

const V0: Layout = {
  headerSize: 8,
  functionSize: 0,
  recordCount: 'none',
  locationSize: 8,
  locationSizeField: 'none',
  legacy: true,
  padLocations: false,
  minRecordSize: 12,
  maxLocationSize: 0,
};
const V1: Layout = {
  headerSize: 16,
  functionSize: 16,
  recordCount: 'none',
  locationSize: 8,
  locationSizeField: 'byte',
  legacy: false,
  padLocations: false,
  minRecordSize: 24,
  maxLocationSize: 255,
};
const V2: Layout = { ...V1, functionSize: 24, recordCount: 'u64' };
const V3: Layout = { ...V2, locationSize: 12, locationSizeField: 'u16', padLocations: true, maxLocationSize: 65535 };
const MANTICORE: Layout = { ...V1, functionSize: 20, recordCount: 'u32' };

/** The layout of a version written in a variant (see StackMapVariant). */
export function layoutOf(version: StackMapVersion, variant: StackMapVariant): Layout {
  if (variant === 'v3-layout') return V3;
  if (variant === 'manticore-v1') return MANTICORE;
  if (variant === 'manticore-v1-u64') return V2;
  return [V0, V1, V2, V3][version]!;
}

/** Names for messages. */
export function describeLayout(version: StackMapVersion, variant: StackMapVariant): string {
  if (variant === 'manticore-v1') return "ManticoreProject's version 1 (20-byte function entries with a u32 record count)";
  if (variant === 'manticore-v1-u64') return "ManticoreProject's version 1 (24-byte function entries with a u64 record count)";
  if (variant === 'v3-layout') return `the version-3 layout labelled version ${version} (llc -stackmap-version=${version} of LLVM 5.0 onwards)`;
  return `version ${version}`;
}

export const align8 = (n: number): number => (n + 7) & ~7;
