/**
 * The format table: every difference between bytecode versions, in one place.
 *
 * Decoders and encoders never compare version numbers themselves; they ask the row for the
 * file's version (`formatFor(version)`) and consult its fields. A field's comment says what it
 * changes and which LLVM release introduced the change. Versions 2 and 4 were never released
 * (they existed only between releases in LLVM's repository); version 7 is LLVM 2.0's development
 * format, read as version 6 plus its own differences where known.
 */
export interface FormatRow {
  readonly version: number;
  /** The LLVM release(s) that wrote this version. */
  readonly writtenBy: string;
  /** The release whose `llvm-dis` dialect is this version's native syntax. */
  readonly nativeDialect: '1.0' | '1.1' | '1.2' | '1.3' | '1.4' | '1.8' | '1.9' | '2.0';

  /** Version 0: the module global info block's layout differs (LLVM 1.0/1.1). */
  readonly inconsistentModuleGlobalInfo: boolean;
  /** Version 0: zero values of primitive types are written explicitly in constant pools. */
  readonly explicitPrimitiveZeros: boolean;
  /** Versions 0–1: getelementptr struct indices are `ubyte` and sequential indices `long`. */
  readonly restrictedGEPTypes: boolean;
  /** Versions 0–1: types are Values, written in a "type type" plane that shifts slot numbers. */
  readonly typeDerivedFromValue: boolean;
  /** Versions 0–2: block headers are two 32-bit words (id, size) with the old block ids. */
  readonly longBlockHeaders: boolean;
  /** Versions 0–2: type slot numbers are vbr_uint32 (later: limited to 24 bits). */
  readonly has32BitTypes: boolean;
  /** Versions 0–2: no dependent-libraries list and no target triple in the module block. */
  readonly noDependentLibraries: boolean;
  /** Versions 0–3: blocks and some strings are padded to 32 bits with 0xAB bytes. */
  readonly hasAlignment: boolean;
  /** Versions 0–4: no `undef` constant. */
  readonly noUndefValue: boolean;
  /** Versions 0–4: functions in the module global info carry no flags word. */
  readonly noFlagsForFunctions: boolean;
  /** Versions 0–4: `unreachable` is absent from the opcode numbering (opcodes ≥ 6 shift by one). */
  readonly noUnreachableInst: boolean;
  /** Versions 0–5: signless `div`/`rem` (one opcode each), upgraded by operand type on reading. */
  readonly signlessInstructions: boolean;
}

function row(version: number, writtenBy: string, nativeDialect: FormatRow['nativeDialect']): FormatRow {
  return Object.freeze({
    version,
    writtenBy,
    nativeDialect,
    inconsistentModuleGlobalInfo: version <= 0,
    explicitPrimitiveZeros: version <= 0,
    restrictedGEPTypes: version <= 1,
    typeDerivedFromValue: version <= 1,
    longBlockHeaders: version <= 2,
    has32BitTypes: version <= 2,
    noDependentLibraries: version <= 2,
    hasAlignment: version <= 3,
    noUndefValue: version <= 4,
    noFlagsForFunctions: version <= 4,
    noUnreachableInst: version <= 4,
    signlessInstructions: version <= 5,
  });
}

/** The table itself, one row per bytecode version. */
export const FORMAT_TABLE: readonly FormatRow[] = Object.freeze([
  row(0, 'LLVM 1.0, 1.1', '1.1'),
  row(1, 'LLVM 1.2', '1.2'),
  row(2, 'unreleased (between LLVM 1.2 and 1.3)', '1.3'),
  row(3, 'LLVM 1.3', '1.3'),
  row(4, 'unreleased (between LLVM 1.3 and 1.4)', '1.4'),
  row(5, 'LLVM 1.4 – 1.8', '1.8'),
  row(6, 'LLVM 1.9', '1.9'),
  row(7, 'LLVM 2.0 development (2006-11 – 2007-05)', '2.0'),
]);

export const NEWEST_VERSION = 7;

/** The row for `version`, or undefined when the version is unknown. */
export function formatFor(version: number): FormatRow | undefined {
  return FORMAT_TABLE[version];
}
