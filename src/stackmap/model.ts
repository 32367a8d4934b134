/**
 * The stack map model: one section of any version, with everything a byte-exact write needs
 * (reserved fields and padding bytes kept as read). Built by `decodeStackMapSection`, written by
 * `encodeStackMapSection`; plain data (bigints for the 64-bit fields), so a caller may build one.
 */

export type Endian = 'little' | 'big';

/** The section versions LLVM wrote: 0 (3.4), 1 (3.5–3.9), 2 (4.0), 3 (5.0 onwards). */
export type StackMapVersion = 0 | 1 | 2 | 3;

/**
 * How the section is laid out when that is not simply its version's LLVM layout:
 * - `'llvm'`: the layout LLVM's release of that version wrote;
 * - `'manticore-v1'`: ManticoreProject/llvm's version 1 as its reader (StackMapParser.h) reads it:
 *   function entries with a u32 record count (20-byte entries);
 * - `'manticore-v1-u64'`: ManticoreProject/llvm's version 1 as its writer (StackMaps.cpp) emits it:
 *   LLVM 4.0's 24-byte function entries with a u64 record count, under version byte 1;
 * - `'v3-layout'`: the version-3 layout under version byte 1 or 2, as `llc -stackmap-version=1|2`
 *   of LLVM 5.0 onwards writes (it cannot write the old layouts).
 */
export type StackMapVariant = 'llvm' | 'manticore-v1' | 'manticore-v1-u64' | 'v3-layout';

/** Location kinds (every version): 1 Register, 2 Direct, 3 Indirect, 4 Constant, 5 ConstantIndex. */
export const LocationKind = {
  Register: 1,
  Direct: 2,
  Indirect: 3,
  Constant: 4,
  ConstantIndex: 5,
} as const;

export const LOCATION_KIND_NAMES: Readonly<Record<number, string>> = {
  1: 'Register',
  2: 'Direct',
  3: 'Indirect',
  4: 'Constant',
  5: 'ConstantIndex',
};

export interface StackMap {
  version: StackMapVersion;
  variant: StackMapVariant;
  endian: Endian;
  /** Header byte 1 and the u16 after it (reserved, 0 as LLVM wrote them). Version 0: the u32's upper bytes are 0 by definition; kept as 0. */
  headerReserved: { byte: number; half: number };
  /** Function entries (none in version 0). */
  functions: StackMapFunction[];
  /** The large-constant pool (u64; ConstantIndex locations index it). */
  constants: bigint[];
  records: StackMapRecord[];
  /**
   * Zero bytes after the last record (fewer than 8; a container's padding), kept so the section
   * writes back byte for byte. LLVM writes none; anything else after the records is an error.
   */
  trailing: Uint8Array;
}

export interface StackMapFunction {
  /** The function's address: 0 in a relocatable object (the relocation names the symbol). */
  address: bigint;
  /** Frame size; UINT64_MAX for a variable-sized or realigned frame. */
  stackSize: bigint;
  /** Versions 2 and 3 (and Manticore's 1): the number of records that belong to the function. */
  recordCount?: bigint;
}

export interface StackMapRecord {
  /** Patch point id (u64; u32 in version 0). UINT64_MAX with no locations marks a record LLVM could not encode. */
  id: bigint;
  /** Offset of the call site from the start of its function. */
  instructionOffset: number;
  /** The u16 after the offset (reserved flags, 0 as LLVM wrote it). */
  flags: number;
  locations: StackMapLocation[];
  /** None in version 0. */
  liveOuts: StackMapLiveOut[];
  /** The u16 before the live-out count (versions 1–3; 0 as LLVM wrote it). */
  liveOutPadding: number;
  /** Version 3: the bytes aligning the locations to 8 (kept only when not all zero). */
  locationPadding?: Uint8Array;
  /** The bytes aligning the record to 8 (kept only when not all zero). */
  endPadding?: Uint8Array;
}

export interface StackMapLocation {
  /** 1 Register, 2 Direct, 3 Indirect, 4 Constant, 5 ConstantIndex (others kept as read; `check` reports them). */
  kind: number;
  /** Size in bytes: version 3's u16 field, versions 1–2's byte 1. Version 0 has none: 0. */
  size: number;
  /** DWARF register number. */
  reg: number;
  /** Offset (Direct, Indirect), small constant (Constant, sign-extended i32) or constant index (ConstantIndex, as i32). */
  offset: number;
  /** Version 3's byte 1 and version 0's byte 1 (reserved, 0). */
  reserved: number;
  /** Version 3's u16 after the register (reserved, 0). */
  reserved2: number;
}

export interface StackMapLiveOut {
  reg: number;
  /** The byte between the register and the size (reserved, 0). */
  reserved: number;
  size: number;
}
