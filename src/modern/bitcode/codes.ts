/**
 * The numbers of LLVM's bitcode (LLVMBitCodes.h's enums, docs/BitCodeFormat.rst): block ids,
 * record codes and the encodings of linkage, casts, binary operators, predicates and attribute
 * kinds. Only what the writer uses; every one of these has been stable since LLVM 3.x (the later
 * ones note the first release that reads them).
 */

export const BLOCK = {
  MODULE: 8,
  PARAMATTR: 9,
  PARAMATTR_GROUP: 10,
  CONSTANTS: 11,
  FUNCTION: 12,
  IDENTIFICATION: 13,
  VALUE_SYMTAB: 14,
  METADATA: 15,
  TYPE: 17,
} as const;

export const MODULE_CODE = { VERSION: 1, TRIPLE: 2, DATALAYOUT: 3, ASM: 4, SECTIONNAME: 5, GLOBALVAR: 7, FUNCTION: 8, GCNAME: 11, ALIAS: 14 } as const;
export const IDENTIFICATION_CODE = { STRING: 1, EPOCH: 2 } as const;
export const PARAMATTR_CODE = { ENTRY: 2, GROUP_ENTRY: 3 } as const;

export const TYPE_CODE = {
  NUMENTRY: 1,
  VOID: 2,
  FLOAT: 3,
  DOUBLE: 4,
  LABEL: 5,
  OPAQUE: 6,
  INTEGER: 7,
  HALF: 10,
  ARRAY: 11,
  VECTOR: 12,
  X86_FP80: 13,
  FP128: 14,
  METADATA: 16,
  STRUCT_ANON: 18,
  STRUCT_NAME: 19,
  STRUCT_NAMED: 20,
  FUNCTION: 21,
  /** A typed pointer: [pointee type, address space] (LLVM 13 and 14's output; every release reads it). */
  POINTER: 8,
  /** LLVM 15 onwards (14 behind -opaque-pointers). */
  OPAQUE_POINTER: 25,
} as const;

export const CST_CODE = {
  SETTYPE: 1,
  NULL: 2,
  UNDEF: 3,
  INTEGER: 4,
  WIDE_INTEGER: 5,
  FLOAT: 6,
  AGGREGATE: 7,
  CE_BINOP: 10,
  CE_CAST: 11,
  /** The getelementptr with an explicit source type first (LLVM 3.7+); LLVM 19 calls it CE_GEP_OLD and still reads it. */
  CE_GEP: 12,
  CE_SELECT: 13,
  CE_EXTRACTELT: 14,
  CE_INSERTELT: 15,
  CE_SHUFFLEVEC: 16,
  CE_CMP: 17,
  CE_SHUFVEC_EX: 19,
  CE_INBOUNDS_GEP: 20,
  DATA: 22,
  /** LLVM 12 onwards. */
  POISON: 26,
  /**
   * Inline asm whose type is a typed pointer to its function type: [flags, asm, constraints], the
   * form LLVM 13 and 14 write (flags: side effect, align stack, dialect, unwind). LLVM 15 on call
   * it INLINEASM_OLD3 and still read it.
   */
  INLINEASM_TYPED: 28,
  /** Inline asm with its function type (LLVM 15 onwards, what opaque pointers need). */
  INLINEASM: 30,
} as const;

export const FUNC_CODE = {
  DECLAREBLOCKS: 1,
  BINOP: 2,
  CAST: 3,
  EXTRACTELT: 6,
  INSERTELT: 7,
  SHUFFLEVEC: 8,
  RET: 10,
  BR: 11,
  SWITCH: 12,
  INVOKE: 13,
  UNREACHABLE: 15,
  PHI: 16,
  ALLOCA: 19,
  LOAD: 20,
  VAARG: 23,
  EXTRACTVAL: 26,
  INSERTVAL: 27,
  CMP2: 28,
  VSELECT: 29,
  CALL: 34,
  RESUME: 39,
  GEP: 43,
  STORE: 44,
  LANDINGPAD: 47,
} as const;

export const VST_CODE = { ENTRY: 1, BBENTRY: 2 } as const;
export const METADATA_CODE = { STRING_OLD: 1, NODE: 3, NAME: 4, NAMED_NODE: 10 } as const;

export const LINKAGE: ReadonlyMap<string, number> = new Map([
  ['external', 0],
  ['appending', 2],
  ['internal', 3],
  ['extern_weak', 7],
  ['common', 8],
  ['private', 9],
  ['available_externally', 12],
  ['weak', 16],
  ['weak_odr', 17],
  ['linkonce', 18],
  ['linkonce_odr', 19],
]);

export const CAST: ReadonlyMap<string, number> = new Map(
  ['trunc', 'zext', 'sext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'fptrunc', 'fpext', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast'].map((c, i) => [
    c,
    i,
  ]),
);

/** Binary operators; the floating-point ones share the integer codes (the type tells them apart). */
export const BINOP: ReadonlyMap<string, number> = new Map([
  ['add', 0],
  ['fadd', 0],
  ['sub', 1],
  ['fsub', 1],
  ['mul', 2],
  ['fmul', 2],
  ['udiv', 3],
  ['sdiv', 4],
  ['fdiv', 4],
  ['urem', 5],
  ['srem', 6],
  ['frem', 6],
  ['shl', 7],
  ['lshr', 8],
  ['ashr', 9],
  ['and', 10],
  ['or', 11],
  ['xor', 12],
]);

export const PREDICATE: ReadonlyMap<string, number> = new Map([
  ...['false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'uno', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'true'].map((p, i) => [`f${p}`, i] as const),
  ...['eq', 'ne', 'ugt', 'uge', 'ult', 'ule', 'sgt', 'sge', 'slt', 'sle'].map((p, i) => [`i${p}`, 32 + i] as const),
]);

/** Attribute kinds (ATTR_KIND_*). */
export const ATTRIBUTE_KIND: ReadonlyMap<string, number> = new Map([
  ['align', 1],
  ['alwaysinline', 2],
  ['byval', 3],
  ['inreg', 5],
  ['naked', 7],
  ['nest', 8],
  ['noalias', 9],
  ['nobuiltin', 10],
  ['nocapture', 11],
  ['noinline', 14],
  ['noreturn', 17],
  ['nounwind', 18],
  ['optsize', 19],
  ['readnone', 20],
  ['readonly', 21],
  ['returns_twice', 23],
  ['signext', 24],
  ['sret', 29],
  ['zeroext', 34],
  ['builtin', 35],
  ['cold', 36],
  ['inalloca', 38],
  ['nonnull', 39],
  ['dereferenceable', 41],
  ['dereferenceable_or_null', 42],
  ['willreturn', 61],
  ['nofree', 62],
  ['nosync', 63],
  ['preallocated', 65],
  ['noundef', 68],
  ['byref', 69],
  ['elementtype', 77],
]);

/** The index of the function's own attributes in a PARAMATTR group (0 is the return value, 1… the parameters). */
export const FUNCTION_INDEX = 0xffffffff;
