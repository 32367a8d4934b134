/**
 * The format table: every difference between bytecode versions, in one place.
 *
 * Decoders and encoders never compare version numbers themselves; they ask the row for the
 * file's version (`formatFor(version)`) and consult its fields. A field's comment says what it
 * changes and which LLVM release introduced the change. Versions 2 and 4 were never released
 * (they existed only between releases in LLVM's repository); version 7 is LLVM 2.0's development
 * format, read as version 6 plus its own differences where known.
 *
 * `docs/format.md` explains every field in prose (§16 is this table as a grid). Dates are those of
 * the LLVM trunk commits that made the change.
 */

import { OPCODES_V7_R36867, PSEUDO_OPCODES_V7, V7_BLOCK_IDS, V7_FIRST_DERIVED_TYPE_SLOT, V7_TYPE_CODES, V7_TYPE_IDS } from './version7.js';

/** The kinds of block a bytecode stream can contain. */
export type BlockKind =
  | 'module'
  | 'function'
  | 'constantPool'
  | 'symbolTable'
  | 'moduleGlobalInfo'
  | 'globalTypePlane'
  | 'basicBlock'
  | 'instructionList'
  | 'compactionTable'
  /** Version 7 (2007-01-06): type names in a block of their own. */
  | 'typeSymbolTable';

/** Block ids of one numbering scheme; `null` where the scheme has no such block. */
export type BlockIdTable = Readonly<Record<BlockKind, number | null>>;

/**
 * v0–v2: the original ids (LLVM 1.0–1.2), always used with long headers. `basicBlock` (0x31) was
 * written only by LLVM 1.0 before 2003-12-01; LLVM 1.1 already wrote one `instructionList` per
 * function, but v0 readers must accept both.
 */
export const LONG_BLOCK_IDS: BlockIdTable = Object.freeze({
  module: 0x01,
  function: 0x11,
  constantPool: 0x12,
  symbolTable: 0x13,
  moduleGlobalInfo: 0x14,
  globalTypePlane: 0x15,
  basicBlock: 0x31,
  instructionList: 0x32,
  compactionTable: 0x33,
  typeSymbolTable: null,
});

/** v3+: five-bit ids (LLVM 1.3, 2004-07-25) packed with a 27-bit size into one word. */
export const SHORT_BLOCK_IDS: BlockIdTable = Object.freeze({
  module: 0x01,
  function: 0x02,
  constantPool: 0x03,
  symbolTable: 0x04,
  moduleGlobalInfo: 0x05,
  globalTypePlane: 0x06,
  basicBlock: null,
  instructionList: 0x07,
  compactionTable: 0x08,
  typeSymbolTable: null,
});

/**
 * Instruction and constant-expression opcodes by the names LLVM's own `llvm-dis` printed.
 * `div`/`rem` are the signless forms of v0–v5 (upgraded by operand type when read as 1.9);
 * `vanext`/`vaarg` are the pre-LLVM-1.6 varargs instructions; `va_arg` is the 1.6+ one.
 */
export type OpcodeName =
  | 'ret'
  | 'br'
  | 'switch'
  | 'invoke'
  | 'unwind'
  | 'unreachable'
  | 'add'
  | 'sub'
  | 'mul'
  | 'div'
  | 'rem'
  | 'udiv'
  | 'sdiv'
  | 'fdiv'
  | 'urem'
  | 'srem'
  | 'frem'
  | 'and'
  | 'or'
  | 'xor'
  | 'seteq'
  | 'setne'
  | 'setle'
  | 'setge'
  | 'setlt'
  | 'setgt'
  | 'malloc'
  | 'free'
  | 'alloca'
  | 'load'
  | 'store'
  | 'getelementptr'
  | 'phi'
  | 'cast'
  | 'call'
  | 'shl'
  | 'shr'
  | 'lshr'
  | 'ashr'
  | 'select'
  | 'userop1'
  | 'userop2'
  | 'vanext'
  | 'vaarg'
  | 'va_arg'
  | 'extractelement'
  | 'insertelement'
  | 'shufflevector'
  | 'icmp'
  | 'fcmp'
  | 'trunc'
  | 'zext'
  | 'sext'
  | 'fptoui'
  | 'fptosi'
  | 'uitofp'
  | 'sitofp'
  | 'fptrunc'
  | 'fpext'
  | 'ptrtoint'
  | 'inttoptr'
  | 'bitcast';

/** Builds an opcode table: index = opcode number in the file, entry = its meaning. */
function opcodeTable(first: number, names: readonly OpcodeName[]): readonly (OpcodeName | undefined)[] {
  const table: (OpcodeName | undefined)[] = new Array<OpcodeName | undefined>(first).fill(undefined);
  table.push(...names);
  return Object.freeze(table);
}

const TERMINATORS_OLD: readonly OpcodeName[] = ['ret', 'br', 'switch', 'invoke', 'unwind'];
const SETCC: readonly OpcodeName[] = ['seteq', 'setne', 'setle', 'setge', 'setlt', 'setgt'];
const MEMORY: readonly OpcodeName[] = ['malloc', 'free', 'alloca', 'load', 'store', 'getelementptr'];

/** v0 (LLVM 1.0/1.1): no `select` yet; 33 and 34 are internal user opcodes never written. */
export const OPCODES_V0 = opcodeTable(1, [
  ...TERMINATORS_OLD,
  'add',
  'sub',
  'mul',
  'div',
  'rem',
  'and',
  'or',
  'xor',
  ...SETCC,
  ...MEMORY,
  'phi',
  'cast',
  'call',
  'shl',
  'shr',
  'vanext',
  'vaarg',
  'userop1',
  'userop2',
]);

/** v1–v4 (LLVM 1.2, 1.3 and the unreleased v2/v4): `select` = 33 (added 2004-03-12). */
export const OPCODES_V1 = opcodeTable(1, [
  ...TERMINATORS_OLD,
  'add',
  'sub',
  'mul',
  'div',
  'rem',
  'and',
  'or',
  'xor',
  ...SETCC,
  ...MEMORY,
  'phi',
  'cast',
  'call',
  'shl',
  'shr',
  'vanext',
  'vaarg',
  'select',
  'userop1',
  'userop2',
]);

/**
 * v5 (LLVM 1.4–1.8): `unreachable` = 6 shifts everything after it by one (2004-10-16); old
 * vanext/vaarg (32, 33) were dropped in LLVM 1.6 for `va_arg` = 37; vector ops 38–40 from 1.7.
 */
export const OPCODES_V5 = opcodeTable(1, [
  ...TERMINATORS_OLD,
  'unreachable',
  'add',
  'sub',
  'mul',
  'div',
  'rem',
  'and',
  'or',
  'xor',
  ...SETCC,
  ...MEMORY,
  'phi',
  'cast',
  'call',
  'shl',
  'shr',
  'vanext',
  'vaarg',
  'select',
  'userop1',
  'userop2',
  'va_arg',
  'extractelement',
  'insertelement',
  'shufflevector',
]);

/**
 * v6 (LLVM 1.9): `div` → udiv/sdiv/fdiv (2006-10-26) and `rem` → urem/srem/frem (2006-11-02),
 * renumbering everything from 10. (Files written between those two dates have `rem` = 13 and are
 * not covered by this table; none is known to exist.)
 */
export const OPCODES_V6 = opcodeTable(1, [
  ...TERMINATORS_OLD,
  'unreachable',
  'add',
  'sub',
  'mul',
  'udiv',
  'sdiv',
  'fdiv',
  'urem',
  'srem',
  'frem',
  'and',
  'or',
  'xor',
  ...SETCC,
  ...MEMORY,
  'phi',
  'cast',
  'call',
  'shl',
  'shr',
  'select',
  'userop1',
  'userop2',
  'va_arg',
  'extractelement',
  'insertelement',
  'shufflevector',
]);

/**
 * v7 as first numbered (2006-11-08): `shr` → lshr/ashr. Later v7 revisions renumbered again
 * (12 cast opcodes, icmp/fcmp, shifts as binary operators); see docs/format.md §14. The version-7
 * row uses the final numbering (`OPCODES_V7_R36867`, format/version7.ts); this table documents
 * the first stage, which is not read.
 */
export const OPCODES_V7 = opcodeTable(1, [
  ...TERMINATORS_OLD,
  'unreachable',
  'add',
  'sub',
  'mul',
  'udiv',
  'sdiv',
  'fdiv',
  'urem',
  'srem',
  'frem',
  'and',
  'or',
  'xor',
  ...SETCC,
  ...MEMORY,
  'phi',
  'cast',
  'call',
  'shl',
  'lshr',
  'ashr',
  'select',
  'userop1',
  'userop2',
  'va_arg',
  'extractelement',
  'insertelement',
  'shufflevector',
]);

/** Opcode numbers above every real opcode that encode a variant of load/store/call/invoke. */
export type PseudoOpcode =
  | 'invokeWithCC' // 56: invoke; last operand is the calling convention
  | 'invokeFastCC' // 57: invoke, fastcc
  | 'callWithCC' // 58: call; last operand is cc << 1 | tail
  | 'tailCallFastCC' // 59
  | 'callFastCC' // 60
  | 'tailCallC' // 61
  | 'volatileLoad' // 62
  | 'volatileStore'; // 63

/** The instruction each pseudo-opcode is a variant of (its class is that instruction's, graph/opcodes.ts). */
export const PSEUDO_OPCODE_BASE: Readonly<Record<PseudoOpcode, OpcodeName>> = Object.freeze({
  invokeWithCC: 'invoke',
  invokeFastCC: 'invoke',
  callWithCC: 'call',
  tailCallFastCC: 'call',
  callFastCC: 'call',
  tailCallC: 'call',
  volatileLoad: 'load',
  volatileStore: 'store',
});

/** v0–v4: only volatile load/store (since LLVM 1.0). */
const PSEUDO_OPCODES_OLD: ReadonlyMap<number, PseudoOpcode> = new Map<number, PseudoOpcode>([
  [62, 'volatileLoad'],
  [63, 'volatileStore'],
]);

/** v5+: calling conventions and tail calls (LLVM 1.5, 2005-05) added 56–61. */
const PSEUDO_OPCODES_CC: ReadonlyMap<number, PseudoOpcode> = new Map<number, PseudoOpcode>([
  [56, 'invokeWithCC'],
  [57, 'invokeFastCC'],
  [58, 'callWithCC'],
  [59, 'tailCallFastCC'],
  [60, 'callFastCC'],
  [61, 'tailCallC'],
  [62, 'volatileLoad'],
  [63, 'volatileStore'],
]);

/** How getelementptr index operands carry their type (docs/format.md §11.4). */
export type GepIndexEncoding =
  /** v0–v1: struct indices are `ubyte` slots, sequential indices `long` slots. */
  | 'restricted'
  /** v2–v6: struct indices `uint`; sequential slot << 2 | (0 uint, 1 int, 2 ulong, 3 long). */
  | 'twoBitType'
  /** v7: every index is a value of its own type, written as it is (nothing is rewritten). */
  | 'asTyped';

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
  /**
   * Versions 4–6: the releases kept a module's dependent libraries as a set (LLVM from 2004-09-11,
   * inside version 4, to 2007-02-04, inside version 7): their reader and `llvm-as` dropped a
   * library named again. LLVM 1.3's and r36867's kept the list as it was.
   */
  readonly uniqueDependentLibraries: boolean;
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

  // ---- Fields added from the format archaeology (docs/format.md) --------------------------------

  /**
   * Block ids (all versions): the old long-header scheme for v0–v2, the five-bit scheme from LLVM
   * 1.3 (v3, 2004-07-25) on. Use `blockKindFor` to map an id read from a file.
   */
  readonly blockIds: BlockIdTable;
  /**
   * All versions: the module block's own header is always the long form (u32 id = 1, u32 size),
   * even in versions whose other blocks use the short form. (A constant `true`; it is a field so
   * that code reading the module header says why it reads two words.)
   */
  readonly moduleBlockHeaderIsLong: boolean;
  /**
   * Versions 0–7 (until LLVM trunk 2007-01-26): the version word is `version << 4 | flags`
   * (bit 0 big-endian, bit 1 64-bit pointers, bit 2 no endianness, bit 3 no pointer size).
   * Late v7 writes a bare `7` (not representable in this one-row table; see format.md §3).
   */
  readonly versionWordHasFlags: boolean;
  /**
   * Versions 0–1: the type id of the "type type" plane (12), i.e. the plane id that announces
   * types in constant pools, symbol tables, compaction tables and the global type block; `null`
   * from v2 on (LLVM 1.3 removed the type type; 12 became `label`).
   */
  readonly typeTypePlaneId: number | null;
  /** First derived type id: 14 in v0–v1 (because of the type type), 13 from v2 (LLVM 1.3) on. */
  readonly firstDerivedTypeId: number;
  /** Type id of `label`: 13 in v0–v1, 12 from v2 on. Its plane numbers basic blocks in symbol tables. */
  readonly labelTypeId: number;
  /**
   * Versions 0–1: the global type block repeats the type-type plane id (a vbr, always 12) after
   * the count; LLVM 1.9 reads and ignores it.
   */
  readonly globalTypesHavePlaneId: boolean;
  /** Versions 0–3: the byte used for 32-bit alignment padding (`0xAB`); `null` when nothing is padded. */
  readonly alignmentFill: number | null;
  /**
   * Versions 0 and 3: the ModuleGlobalInfo block's size includes its trailing alignment padding
   * (v0: LLVM 1.1's writer padded inside the block, fixed in 1.2 by PR73; v3: LLVM 1.3 pads after
   * the target triple). Every other block is padded outside its size.
   */
  readonly mgiPaddedInside: boolean;
  /** Versions 1+: the module constant pool may begin with a strings plane (type id 0) (LLVM 1.2). */
  readonly hasStringsPlane: boolean;
  /**
   * Versions 1+: writers leave out an empty constant pool or symbol table block (LLVM 1.2,
   * 2004-01). LLVM 1.0/1.1 wrote both even when empty. (Readers accept either.)
   */
  readonly elidesEmptyBlocks: boolean;
  /**
   * Version 0: LLVM 1.0/1.1's writer numbered each function's constants in a constant pool of
   * its own; from LLVM 1.2 every constant is numbered at module level and functions get
   * compaction tables instead (see src/encode/legacy-slot-calculator.ts).
   */
  readonly perFunctionConstantPools: boolean;
  /** Versions 1–6: functions may carry a compaction table (LLVM 1.2; removed in v7 2007-01-30). */
  readonly hasCompactionTables: boolean;
  /** Version 0: a function may be a sequence of BasicBlock blocks (LLVM 1.0, before 2003-12-01). */
  readonly mayHaveBasicBlockBlocks: boolean;
  /**
   * Versions 0–4: every function, declarations included, has a Function block (a declaration's
   * holds only its linkage). From v5 (2004-11-15) declarations have none and are flagged with
   * bit 4 of the function word instead.
   */
  readonly declarationsHaveFunctionBlocks: boolean;
  /**
   * All versions: a Function block holding only the linkage word (no constant pool, instructions
   * or symbol table) makes the function a declaration, whatever its function word said. Every
   * release's reader accepted one (LLVM 1.1's materializeFunction, r10516; LLVM 1.2's, r12532;
   * 1.3's ParseFunctionBody, r15874; 1.4's, r18763; 1.8's, r29324; 1.9's, r31488; and version
   * 7's until the reader was removed in 2007-05): it read the linkage, found
   * no blocks and so no basic blocks. Versions 0–4 write one for every declaration; in version 5,
   * LLVM's writer still did so from 2004-10-16 (version 5's function flags) until 2004-11-15
   * (bit 4), so real version-5 files hold them. The reader records such a block
   * (`Function.linkageOnlyBlock`) so that the writer gives it back.
   */
  readonly emptyFunctionBodyIsDeclaration: boolean;
  /**
   * Versions 4+: after the target triple ModuleGlobalInfo may hold section names and then a module
   * inline-asm string, each present only if bytes remain (LLVM 1.6/1.7, 2005-11 and 2006-01).
   * LLVM 1.9 looks for them in any unpadded version.
   */
  readonly hasSectionNames: boolean;
  /** Versions 5+: the stream may be wrapped as `llvc0`/`llvc1`/`llvc2` (LLVM 1.4, 2004-11-06). */
  readonly mayBeCompressed: boolean;
  /**
   * Writer policy: whether the reference writer compressed unasked (LLVM 1.4–1.9's `llvm-as`:
   * `llvc0`/`llvc2` by size). Version 7's `llvm-as` (r36867) wrote `llvm` unless given
   * `-disable-compression=false`, so `compression: 'auto'` means none there.
   */
  readonly compressesByDefault: boolean;
  /**
   * Versions 6+: linkage codes 5–7 (dllimport, dllexport, extern_weak) exist, and a function
   * declaration's extension word carries dllimport/extern_weak in bits 11–12 (LLVM 1.9,
   * 2006-09). LLVM 1.8's writer knew only codes 0–4.
   */
  readonly hasDllLinkages: boolean;
  /**
   * Versions 5+: packed (vector) types exist (trunk 2004-08-20, i.e. inside unreleased v4; first
   * released in LLVM 1.4, v5); also module inline asm and
   * `asm` callees (LLVM 1.7), and alignment on globals, functions, malloc and alloca (LLVM 1.7).
   * LLVM 1.3's writer (v3) had none of them.
   */
  readonly hasPackedAndAttributes: boolean;
  /**
   * Versions 5+: a constant expression's operand count is written plus one, so that `1` can
   * mean `undef` (LLVM 1.4, 2004-10-16, with `undef`). v0–v4 write the plain count.
   */
  readonly constantExprCountPlusOne: boolean;
  /**
   * Version 3 (LLVM 1.3): the compaction-table block always starts with the compacted-type count,
   * so every function body has one, even an empty one. LLVM 1.2 elided an empty block; LLVM 1.4+
   * writers skip it when it would hold nothing.
   */
  readonly alwaysWritesCompactionTable: boolean;
  /**
   * Byte order of float/double constants: the writing host's in v0–v2 (LLVM wrote the raw
   * in-memory bytes), little-endian from v3 (LLVM 1.3, bug 401). All known files are little-endian.
   */
  readonly floatByteOrder: 'host' | 'little';
  /** How getelementptr indices carry their type (v0–1 restricted; v2+ two low bits). */
  readonly gepIndexEncoding: GepIndexEncoding;
  /** Opcode numbering of instructions and constant expressions, as written in this version. */
  readonly opcodes: readonly (OpcodeName | undefined)[];
  /** Pseudo-opcodes (volatile load/store since v0; calling-convention calls/invokes since v5). */
  readonly pseudoOpcodes: ReadonlyMap<number, PseudoOpcode>;
  /**
   * Versions 0–3: a long-form (format 0) instruction is followed by alignment padding. (Same
   * versions as `hasAlignment`; spelled out because it is the one padding inside a block body.)
   */
  readonly longInstructionsPadded: boolean;
  /**
   * Which type planes begin with an implicit null value at slot 0 (never written, but counted):
   * v0 (LLVM 1.0/1.1) only derived-type planes — primitive zeros are explicit constants (see
   * `explicitPrimitiveZeros`); v1+ (LLVM 1.2, 2004-01-17) every plane but void and label. Opaque
   * planes: LLVM 1.9's reader gives them no null, LLVM 1.1–1.3's writers reserved one; no real
   * value has an opaque type, so the difference never shows.
   */
  readonly implicitNullPlanes: 'derived' | 'allButVoidLabelOpaque';
  /**
   * How types are numbered and what the module's blocks hold. `llvm1` (versions 0–6): signed and
   * unsigned primitive integers (type ids 0–12), planes of the 1.x layout; decoded by
   * `decode/module-block.ts`. `llvm2` (version 7 as r36867 wrote it): void 0, float 1, double 2,
   * label 3, then derived types including integers of any width (format/version7.ts), a type
   * symbol table, data layout, aliases; decoded by `decode/v7/`.
   */
  readonly typeIdScheme: 'llvm1' | 'llvm2';
  /**
   * Versions 3–6: a type id of `0x00ffffff` is an escape, the real id following as another vbr
   * (LLVM 1.3 limited type ids to 24 bits); `null` where every type id is a plain vbr (versions
   * 0–2, whose type ids are 32-bit, and version 7, whose reader at r36867 read a plain vbr).
   */
  readonly typeIdEscape: number | null;
  /**
   * The codes a type definition starts with (docs/format.md §5.3; version 7's §14), in the
   * numbering `normalizeTypeId` gives (so v0–v1's ids above the type-type plane are one lower
   * than stored). Read by the one type-definition reader, `decode/type-records.ts`.
   */
  readonly typeCodes: TypeDefinitionCodes;

  // ---- What the writer reads of version 7's differences (each a fact of r36867's writer) ----------

  /**
   * The type id written before each definition in a type list, by the kind of type (before the
   * type-type shift of versions 0–1, which `encode/context.ts` `fileTypeId` applies). Versions
   * 0–6: LLVM 1.3's ids (void 0 … label 12, derived 13–18); version 7: r36867's
   * (`V7_TYPE_IDS`). A kind the version lacks has no id.
   */
  readonly typeIds: TypeIdTable;
  /** The first type slot the global type block defines: 13 (LLVM 1.x's FirstDerivedTyID), 4 in version 7. */
  readonly firstWrittenTypeSlot: number;
  /**
   * Version 7 (its integer types have no sign): `i1`…`iN` instead of `bool`, `sbyte`…`ulong`. A
   * 1.x module becomes version 7 only through llvm-upgrade's conversion (src/convert).
   */
  readonly signlessIntegers: boolean;
  /** Version 7: a function type ends with its parameter-attribute list (count, then index and attributes). */
  readonly hasParameterAttributes: boolean;
  /**
   * Version 7: globals and functions have a visibility (a global's in its extension word, a
   * function's in its block's linkage word, bits 16+).
   */
  readonly hasVisibility: boolean;
  /** Version 7: a global variable's word has a thread_local bit (bit 5; the type slot moves up to bit 6). */
  readonly hasThreadLocal: boolean;
  /** Version 7: the data layout string follows the target triple in the module global info. */
  readonly hasDataLayout: boolean;
  /** Version 7: aliases follow the module inline asm, ended by a zero type id. */
  readonly hasAliases: boolean;
  /**
   * Versions 4–6 as written by LLVM 1.4–1.6: the module global info may end after the triple or
   * the section names (`Module.globalInfoEnd`), which a writer of these versions gives back.
   * r36867 always wrote every field.
   */
  readonly honoursGlobalInfoEnd: boolean;
  /**
   * Versions 0–6: a declaration read from a linkage-only function block (`Function.linkageOnlyBlock`)
   * gets its block back. r36867's writer wrote no block for any declaration.
   */
  readonly writesLinkageOnlyBlocks: boolean;
  /**
   * Version 7: a scope's value names were one `StringMap`: a name names one value whatever its
   * type, and (without a recorded layout) names come in its hash order, not sorted.
   */
  readonly valueNamesInStringMap: boolean;
  /**
   * Whose `SlotCalculator` numbered the values, which decides how function bodies are written:
   * `llvm1.1` (version 0: a constant pool per function), `llvm1.9` (versions 1–6: module-level
   * constants, compaction tables) or `r36867` (version 7: no function pools or compaction tables,
   * pre-order types, function values appended to the module's planes).
   */
  readonly slotNumbering: 'llvm1.1' | 'llvm1.9' | 'r36867';
  /**
   * Version 7: every invoke's last field is its calling convention (r36867 wrote no invoke
   * pseudo-opcodes); versions 5–6 write it only for conventions other than C and fastcc.
   */
  readonly invokeCarriesCallingConv: boolean;
  /**
   * Version 7: a load or store with an alignment or `volatile` is written with the pseudo-opcode
   * (62/63) and a last field `(log2(alignment) + 1) << 1 | volatile`; a malloc/alloca alignment is
   * written in format 0 as well. Versions 0–6: the pseudo-opcode means volatile, with no field.
   */
  readonly loadStoreAlignment: boolean;
}

/** A type kind whose id a type list writes (see `FormatRow.typeIds`). */
export type TypeIdKind =
  | 'void'
  | 'bool'
  | 'ubyte'
  | 'sbyte'
  | 'ushort'
  | 'short'
  | 'uint'
  | 'int'
  | 'ulong'
  | 'long'
  | 'float'
  | 'double'
  | 'label'
  | 'integer'
  | 'function'
  | 'struct'
  | 'packedStruct'
  | 'array'
  | 'pointer'
  | 'opaque'
  | 'packed';

/** Type ids by kind (see `FormatRow.typeIds`); a kind the version lacks is absent. */
export type TypeIdTable = Readonly<Partial<Record<TypeIdKind, number>>>;

/** LLVM 1.3–1.9's type ids (versions 0–1 shift those from 12 on by one: the type type). */
const LLVM1_TYPE_IDS: TypeIdTable = Object.freeze({
  void: 0,
  bool: 1,
  ubyte: 2,
  sbyte: 3,
  ushort: 4,
  short: 5,
  uint: 6,
  int: 7,
  ulong: 8,
  long: 9,
  float: 10,
  double: 11,
  label: 12,
  function: 13,
  struct: 14,
  array: 15,
  pointer: 16,
  opaque: 17,
  packed: 18,
});

/**
 * A version's type-definition codes (`FormatRow.typeCodes`): codes below `primitivesBelow` name a
 * primitive type; `null` marks a kind the version does not have.
 */
export interface TypeDefinitionCodes {
  /** Codes 0 to this, exclusive, are the primitives (13 in versions 0–6, 4 in version 7). */
  readonly primitivesBelow: number;
  readonly function: number;
  readonly struct: number;
  readonly array: number;
  readonly pointer: number;
  readonly opaque: number;
  /** The packed type of 1.x, version 7's vector. */
  readonly packed: number;
  /** Version 7: a struct with the packed flag (`<{ … }>`). */
  readonly packedStruct: number | null;
  /** Version 7: an integer type, its width following as a vbr. */
  readonly integer: number | null;
  /** Version 7: a function type ends with its parameter attributes (a count, then index/attribute pairs). */
  readonly functionHasParamAttributes: boolean;
}

/** Versions 0–6's type codes (LLVM 1.x's `Type::TypeID`, after the type-type shift): the writer's ids, read back. */
const LLVM1_TYPE_CODES: TypeDefinitionCodes = Object.freeze({
  primitivesBelow: 13,
  function: LLVM1_TYPE_IDS.function!,
  struct: LLVM1_TYPE_IDS.struct!,
  array: LLVM1_TYPE_IDS.array!,
  pointer: LLVM1_TYPE_IDS.pointer!,
  opaque: LLVM1_TYPE_IDS.opaque!,
  packed: LLVM1_TYPE_IDS.packed!,
  packedStruct: null,
  integer: null,
  functionHasParamAttributes: false,
});

/** r36867's type ids by kind (`V7_TYPE_IDS`; a graph's `packed` type is its vector). */
const LLVM2_TYPE_IDS: TypeIdTable = Object.freeze({
  void: V7_TYPE_IDS.void,
  float: V7_TYPE_IDS.float,
  double: V7_TYPE_IDS.double,
  label: V7_TYPE_IDS.label,
  integer: V7_TYPE_IDS.integer,
  function: V7_TYPE_IDS.function,
  struct: V7_TYPE_IDS.struct,
  packedStruct: V7_TYPE_IDS.packedStruct,
  array: V7_TYPE_IDS.array,
  pointer: V7_TYPE_IDS.pointer,
  opaque: V7_TYPE_IDS.opaque,
  packed: V7_TYPE_IDS.vector,
});

/** The bits of the version word below the version number (see `versionWordHasFlags`). */
export const VERSION_WORD_FLAGS = Object.freeze({ bigEndian: 1, pointer64: 2, noEndianness: 4, noPointerSize: 8 });

/**
 * Each id table turned around (id to kind), made once per table: the readers ask for every block
 * of every file, and a batch reads thousands of small files.
 */
const kindsById = new WeakMap<BlockIdTable, ReadonlyMap<number, BlockKind>>();

/** Returns which kind of block `id` is under `row`'s numbering, or undefined when unknown. */
export function blockKindFor(row: FormatRow, id: number): BlockKind | undefined {
  let kinds = kindsById.get(row.blockIds);
  if (kinds === undefined) {
    const byId = new Map<number, BlockKind>();
    // The first kind listed with an id wins, as the search this replaces found it.
    for (const kind of Object.keys(row.blockIds) as BlockKind[]) {
      const kindId = row.blockIds[kind];
      if (kindId !== null && !byId.has(kindId)) byId.set(kindId, kind);
    }
    kinds = byId;
    kindsById.set(row.blockIds, kinds);
  }
  return kinds.get(id);
}

function opcodesFor(version: number): readonly (OpcodeName | undefined)[] {
  if (version <= 0) return OPCODES_V0;
  if (version <= 4) return OPCODES_V1;
  if (version === 5) return OPCODES_V5;
  if (version === 6) return OPCODES_V6;
  return OPCODES_V7_R36867;
}

function row(version: number, writtenBy: string, nativeDialect: FormatRow['nativeDialect']): FormatRow {
  const typeDerivedFromValue = version <= 1;
  return Object.freeze({
    version,
    writtenBy,
    nativeDialect,
    inconsistentModuleGlobalInfo: version <= 0,
    explicitPrimitiveZeros: version <= 0,
    restrictedGEPTypes: version <= 1,
    typeDerivedFromValue,
    longBlockHeaders: version <= 2,
    has32BitTypes: version <= 2,
    noDependentLibraries: version <= 2,
    uniqueDependentLibraries: version >= 4 && version <= 6,
    hasAlignment: version <= 3,
    noUndefValue: version <= 4,
    noFlagsForFunctions: version <= 4,
    noUnreachableInst: version <= 4,
    signlessInstructions: version <= 5,

    blockIds: version <= 2 ? LONG_BLOCK_IDS : version >= 7 ? V7_BLOCK_IDS : SHORT_BLOCK_IDS,
    moduleBlockHeaderIsLong: true,
    // Version 7 is read as r36867 wrote it: the bare version word of 2007-01-26 on.
    versionWordHasFlags: version <= 6,
    typeTypePlaneId: typeDerivedFromValue ? 12 : null,
    firstDerivedTypeId: typeDerivedFromValue ? 14 : 13,
    labelTypeId: typeDerivedFromValue ? 13 : 12,
    globalTypesHavePlaneId: typeDerivedFromValue,
    alignmentFill: version <= 3 ? 0xab : null,
    mgiPaddedInside: version === 0 || version === 3,
    hasStringsPlane: version >= 1,
    elidesEmptyBlocks: version >= 1,
    perFunctionConstantPools: version <= 0,
    hasCompactionTables: version >= 1 && version <= 6,
    mayHaveBasicBlockBlocks: version <= 0,
    declarationsHaveFunctionBlocks: version <= 4,
    emptyFunctionBodyIsDeclaration: true,
    hasSectionNames: version >= 4,
    mayBeCompressed: version >= 5,
    compressesByDefault: version >= 5 && version <= 6,
    hasDllLinkages: version >= 6,
    hasPackedAndAttributes: version >= 5,
    constantExprCountPlusOne: version >= 5,
    alwaysWritesCompactionTable: version === 3,
    floatByteOrder: version <= 2 ? 'host' : 'little',
    gepIndexEncoding: version <= 1 ? 'restricted' : version >= 7 ? 'asTyped' : 'twoBitType',
    opcodes: opcodesFor(version),
    pseudoOpcodes: version >= 7 ? PSEUDO_OPCODES_V7 : version >= 5 ? PSEUDO_OPCODES_CC : PSEUDO_OPCODES_OLD,
    longInstructionsPadded: version <= 3,
    implicitNullPlanes: version <= 0 ? 'derived' : 'allButVoidLabelOpaque',
    typeIdScheme: version >= 7 ? 'llvm2' : 'llvm1',
    typeIdEscape: version >= 3 && version <= 6 ? 0x00ff_ffff : null,
    typeCodes: version >= 7 ? V7_TYPE_CODES : LLVM1_TYPE_CODES,
    typeIds: version >= 7 ? LLVM2_TYPE_IDS : LLVM1_TYPE_IDS,
    firstWrittenTypeSlot: version >= 7 ? V7_FIRST_DERIVED_TYPE_SLOT : 13,
    signlessIntegers: version >= 7,
    hasParameterAttributes: version >= 7,
    hasVisibility: version >= 7,
    hasThreadLocal: version >= 7,
    hasDataLayout: version >= 7,
    hasAliases: version >= 7,
    honoursGlobalInfoEnd: version <= 6,
    writesLinkageOnlyBlocks: version <= 6,
    valueNamesInStringMap: version >= 7,
    slotNumbering: version <= 0 ? 'llvm1.1' : version >= 7 ? 'r36867' : 'llvm1.9',
    invokeCarriesCallingConv: version >= 7,
    loadStoreAlignment: version >= 7,
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

/**
 * Maps a type id as written in `row`'s version to the v2+ numbering used by the graph
 * (the type-type shift of v0–v1): ids above 12 drop by one; 12 itself is the type-type plane and
 * is reported as `'typeType'`. Later versions return the id unchanged.
 */
export function normalizeTypeId(row: FormatRow, id: number): number | 'typeType' {
  const typeType = row.typeTypePlaneId;
  if (typeType === null) return id;
  if (id === typeType) return 'typeType';
  return id > typeType ? id - 1 : id;
}

/**
 * The v5 opcode number of an opcode read from a file of `row`'s version, before the v6 split
 * (the "unreachable shift"): v0–v4 opcodes 6..61 move up by one; pseudo-opcodes 62/63 do not.
 * Constant expressions use `shiftConstantExprOpcode` instead (LLVM shifts those unconditionally).
 */
export function shiftInstructionOpcode(row: FormatRow, opcode: number): number {
  return row.noUnreachableInst && opcode >= 6 && opcode < 62 ? opcode + 1 : opcode;
}

/** As `shiftInstructionOpcode`, for constant expressions (every opcode there is ≥ 6). */
export function shiftConstantExprOpcode(row: FormatRow, opcode: number): number {
  return row.noUnreachableInst ? opcode + 1 : opcode;
}

/**
 * Whether the plane of (normalized) type id `typeId` begins with an implicit null value at slot 0,
 * which shifts every written slot of that plane by one (docs/format.md §7). `isOpaque` is asked
 * because opaque types are derived ids but have no null value in LLVM 1.9's reader.
 */
export function hasImplicitNull(row: FormatRow, typeId: number, isOpaque: boolean): boolean {
  if (isOpaque) return false;
  if (row.implicitNullPlanes === 'derived') return typeId >= NORMALIZED_FIRST_DERIVED_TYPE_ID;
  return typeId !== NORMALIZED_VOID_TYPE_ID && typeId !== NORMALIZED_LABEL_TYPE_ID;
}

/** After `normalizeTypeId`, ids follow the v2–v6 numbering in every version. */
export const NORMALIZED_VOID_TYPE_ID = 0;
export const NORMALIZED_LABEL_TYPE_ID = 12;
export const NORMALIZED_FIRST_DERIVED_TYPE_ID = 13;

/** What an opcode number read from a file means. */
export type DecodedOpcode =
  | { readonly kind: 'instruction'; readonly name: OpcodeName }
  | { readonly kind: 'pseudo'; readonly pseudo: PseudoOpcode }
  | { readonly kind: 'unknown' };

/**
 * Decodes an instruction opcode (`expression` false) or constant-expression opcode (`true`) read
 * from a file of `row`'s version. Pseudo-opcodes (instructions only) are checked first. Real
 * opcodes are named by the row's own table, which already encodes the unreachable shift (v0–v4
 * tables are v5's shifted down by one; the test suite checks this against
 * `shiftInstructionOpcode`), so v0's 33 (a user opcode) is correctly not v1's `select`.
 * `div`/`rem` come back signless for v0–v5: resolve them with `resolveSignless` once the operand
 * type is known.
 */
export function decodeOpcode(row: FormatRow, raw: number, expression: boolean): DecodedOpcode {
  if (!expression) {
    const pseudo = row.pseudoOpcodes.get(raw);
    if (pseudo !== undefined) return { kind: 'pseudo', pseudo };
  }
  const name = row.opcodes[raw];
  if (name === undefined || name === 'userop1' || name === 'userop2') return { kind: 'unknown' };
  return { kind: 'instruction', name };
}

/** The operand class that decides how a signless `div`/`rem` is upgraded. */
export type SignlessOperandClass = 'float' | 'signed' | 'unsigned';

/**
 * LLVM 1.9's upgrade of v0–v5 `div`/`rem` (2006-10-26/11-02): float/double → f*, signed integers
 * → s*, everything else → u*. For packed types pass the element's class (LLVM 1.9 itself used the
 * raw type number and so turned float-vector division into `udiv`, then aborted).
 */
export function resolveSignless(name: 'div' | 'rem', operand: SignlessOperandClass): OpcodeName {
  if (name === 'div') return operand === 'float' ? 'fdiv' : operand === 'signed' ? 'sdiv' : 'udiv';
  return operand === 'float' ? 'frem' : operand === 'signed' ? 'srem' : 'urem';
}
