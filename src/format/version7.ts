/**
 * Version 7 as LLVM trunk r36867 (2007-05-06, the last revision that wrote bytecode) laid it out:
 * the numbering tables that differ wholesale from versions 0–6, kept here so that the format
 * table's version-7 row can point at them (docs/format.md §14, docs/version7-graph.md).
 *
 * Everything here was read off r36867's reader (lib/Bytecode/Reader/Reader.cpp), its
 * include/llvm/Type.h, Instruction.def and Bytecode/Format.h, and checked against the 1,537 files
 * of the corpus that revision's `llvm-as` wrote.
 *
 * Why its own file: these tables are rows' data, too long to sit inline in the format table; the
 * version-7 row (format-table.ts) points at them.
 */
import type { BlockIdTable, OpcodeName, PseudoOpcode, TypeDefinitionCodes } from './format-table.js';

/**
 * Type ids (Type::TypeID at r36867, after the 2007-01-12 renumbering). Ids 0–3 are the
 * primitives; 4 and up are derived types whose definitions follow the id in a type list.
 * Id 7 (packed struct) exists only in bytecode: in memory it is a struct with a packed flag.
 */
export const V7_TYPE_IDS = Object.freeze({
  void: 0,
  float: 1,
  double: 2,
  label: 3,
  integer: 4,
  function: 5,
  struct: 6,
  packedStruct: 7,
  array: 8,
  pointer: 9,
  opaque: 10,
  vector: 11,
} as const);

/** The type-definition codes of the version-7 row (`FormatRow.typeCodes`), from `V7_TYPE_IDS`. */
export const V7_TYPE_CODES: TypeDefinitionCodes = Object.freeze({
  primitivesBelow: V7_TYPE_IDS.integer,
  function: V7_TYPE_IDS.function,
  struct: V7_TYPE_IDS.struct,
  array: V7_TYPE_IDS.array,
  pointer: V7_TYPE_IDS.pointer,
  opaque: V7_TYPE_IDS.opaque,
  packed: V7_TYPE_IDS.vector,
  packedStruct: V7_TYPE_IDS.packedStruct,
  integer: V7_TYPE_IDS.integer,
  functionHasParamAttributes: true,
});

/** The highest primitive type id (label); derived type slots start right after it. */
export const V7_LAST_PRIMITIVE_TYPE_ID = 3;
/** The first derived type slot: slot 4 is the module type pool's first entry. */
export const V7_FIRST_DERIVED_TYPE_SLOT = 4;

/**
 * Type slots r36867's reader assumed (Reader.h): its writer put `i1`, `i8`, `i16`, `i32`, `i64`
 * first in every module's type pool, so that the operands whose type the instruction format does
 * not give (a branch or select condition, an alloca size, a vector index, a getelementptr index)
 * can be read from these planes.
 */
export const V7_FIXED_TYPE_SLOTS = Object.freeze({ int1: 4, int8: 5, int16: 6, int32: 7, int64: 8 } as const);

/** Block ids (Format.h at r36867): the 1.3 scheme without compaction tables, plus the type symbol table. */
export const V7_BLOCK_IDS: BlockIdTable = Object.freeze({
  module: 0x01,
  function: 0x02,
  constantPool: 0x03,
  symbolTable: 0x04,
  moduleGlobalInfo: 0x05,
  globalTypePlane: 0x06,
  basicBlock: null,
  instructionList: 0x07,
  compactionTable: null,
  typeSymbolTable: 0x09,
});

/**
 * Instruction and constant-expression opcodes at r36867 (Instruction.def): shifts are binary
 * operators (16–18, since 2007-02-02), the twelve casts are 28–39, `icmp`/`fcmp` 40/41. 45 and 46
 * are LLVM's internal user opcodes, never written.
 */
export const OPCODES_V7_R36867: readonly (OpcodeName | undefined)[] = Object.freeze([
  undefined,
  'ret',
  'br',
  'switch',
  'invoke',
  'unwind',
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
  'shl',
  'lshr',
  'ashr',
  'and',
  'or',
  'xor',
  'malloc',
  'free',
  'alloca',
  'load',
  'store',
  'getelementptr',
  'trunc',
  'zext',
  'sext',
  'fptoui',
  'fptosi',
  'uitofp',
  'sitofp',
  'fptrunc',
  'fpext',
  'ptrtoint',
  'inttoptr',
  'bitcast',
  'icmp',
  'fcmp',
  'phi',
  'call',
  'select',
  'userop1',
  'userop2',
  'va_arg',
  'extractelement',
  'insertelement',
  'shufflevector',
] satisfies readonly (OpcodeName | undefined)[]);

/** The first and last binary operator (add … xor): two operands of the instruction's type. */
export const V7_FIRST_BINARY_OPCODE = 7;
export const V7_LAST_BINARY_OPCODE = 21;

/**
 * r36867's pseudo-opcodes: 58 is a call whose last operand is `cc << 1 | tail`; 59–61 are
 * tail/fastcc calls; 62/63 are a load/store whose last operand is `log2(align) + 1 << 1 | volatile`
 * (version 7 gave them alignment; before, they only meant volatile). r36867 wrote no invoke
 * pseudo-opcodes: every invoke's last operand is its calling convention.
 */
export const PSEUDO_OPCODES_V7: ReadonlyMap<number, PseudoOpcode> = new Map<number, PseudoOpcode>([
  [58, 'callWithCC'],
  [59, 'tailCallFastCC'],
  [60, 'callFastCC'],
  [61, 'tailCallC'],
  [62, 'volatileLoad'],
  [63, 'volatileStore'],
]);

/** Linkage codes of global variables and function blocks (0–7), as r36867 read them. */
export const V7_LINKAGES = Object.freeze(['external', 'weak', 'appending', 'internal', 'linkonce', 'dllimport', 'dllexport', 'extern_weak'] as const);

/** Visibility codes (GlobalValue::VisibilityTypes). */
export const V7_VISIBILITIES = Object.freeze(['default', 'hidden', 'protected'] as const);

/** An alias's two-bit linkage code. */
export const V7_ALIAS_LINKAGES = Object.freeze(['external', 'internal', 'weak'] as const);
