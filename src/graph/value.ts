/**
 * Values of the module graph: constants, global variables, functions, arguments, basic blocks
 * and instructions, as plain objects with a `kind` tag. Operands refer to other values directly
 * (no slot numbers: those belong to the bytes). Names are optional; an unnamed value is printed
 * with a number, as LLVM did.
 */
import type { FunctionType, PointerType, Type } from './type.js';

// ---------------------------------------------------------------------------------------------
// Constants

/**
 * `true`/`false`: of type `bool` (v0–v6), or of version 7's `i1` (`integerType(1)`).
 *
 * @category Graph
 */
export interface ConstantBool {
  readonly kind: 'bool';
  type: Type;
  value: boolean;
}

/**
 * An integer constant of any integer type. `value` is the exact value as the type reads it:
 * signed types hold the signed value (-128 … 127 for sbyte), unsigned types the unsigned one,
 * and version 7's signless integers (`i8`, `i17`, `i128`, …, never `i1`) the signed reading of
 * their bits (-128 … 127 for `i8`), which is how LLVM 2.0 printed them.
 *
 * @category Graph
 */
export interface ConstantInt {
  readonly kind: 'int';
  type: Type;
  value: bigint;
}

/**
 * A float or double constant. `value` is the number; `bits` are the raw IEEE bits as stored in
 * the file (32 bits for float, 64 for double), kept so that NaN payloads survive a round trip.
 *
 * @category Graph
 */
export interface ConstantFP {
  readonly kind: 'fp';
  type: Type;
  value: number;
  bits: bigint;
}

/**
 * `null` of a pointer type.
 *
 * @category Graph
 */
export interface ConstantNull {
  readonly kind: 'null';
  type: Type;
}

/**
 * `zeroinitializer`: the all-zero value of an aggregate (struct, array, packed) type.
 *
 * @category Graph
 */
export interface ConstantZero {
  readonly kind: 'zeroinitializer';
  type: Type;
}

/** @category Graph */
export interface ConstantUndef {
  readonly kind: 'undef';
  type: Type;
}

/**
 * An array, struct or packed constant, element by element.
 *
 * @category Graph
 */
export interface ConstantAggregate {
  readonly kind: 'array' | 'struct' | 'packed';
  type: Type;
  elements: Constant[];
}

/**
 * A constant expression. `opcode` uses instruction opcode names (`cast`, `getelementptr`,
 * `add`, `seteq`, `select`, `shl`, `extractelement`, …). For `cast` and version 7's twelve casts
 * (`trunc` … `bitcast`) the target type is `type`. Version 7's `icmp`/`fcmp` carry `predicate`.
 *
 * @category Graph
 */
export interface ConstantExpr {
  readonly kind: 'expr';
  type: Type;
  opcode: Opcode;
  operands: Constant[];
  /** `icmp`/`fcmp` only (version 7): the comparison. */
  predicate?: Predicate;
}

/**
 * Inline assembly used as a callee. Its type is a pointer to the function type.
 *
 * @category Graph
 */
export interface InlineAsm {
  readonly kind: 'inlineasm';
  type: PointerType;
  asm: string;
  constraints: string;
  hasSideEffects: boolean;
}

/** @category Graph */
export type Constant =
  | ConstantBool
  | ConstantInt
  | ConstantFP
  | ConstantNull
  | ConstantZero
  | ConstantUndef
  | ConstantAggregate
  | ConstantExpr
  | InlineAsm
  | GlobalValue
  | GlobalAlias;

// ---------------------------------------------------------------------------------------------
// Version 7: comparison predicates

/** `icmp` predicates with LLVM's numbers (ICmpInst::Predicate, 32 … 41), by the name LLVM 2.0 printed. */
export const INT_PREDICATES = Object.freeze({ eq: 32, ne: 33, ugt: 34, uge: 35, ult: 36, ule: 37, sgt: 38, sge: 39, slt: 40, sle: 41 } as const);
/** `fcmp` predicates with LLVM's numbers (FCmpInst::Predicate, 0 … 15), by the name LLVM 2.0 printed. */
export const FLOAT_PREDICATES = Object.freeze({
  false: 0,
  oeq: 1,
  ogt: 2,
  oge: 3,
  olt: 4,
  ole: 5,
  one: 6,
  ord: 7,
  uno: 8,
  ueq: 9,
  ugt: 10,
  uge: 11,
  ult: 12,
  ule: 13,
  une: 14,
  true: 15,
} as const);
/** @category Graph */
export type IntPredicate = keyof typeof INT_PREDICATES;
/** @category Graph */
export type FloatPredicate = keyof typeof FLOAT_PREDICATES;
/**
 * The comparison of an `icmp` (an `IntPredicate`) or `fcmp` (a `FloatPredicate`). The names
 * overlap (`ugt` is both an integer and an unordered float predicate): the opcode says which.
 *
 * @category Graph
 */
export type Predicate = IntPredicate | FloatPredicate;

// ---------------------------------------------------------------------------------------------
// Globals

/** @category Graph */
export type Linkage = 'external' | 'linkonce' | 'weak' | 'appending' | 'internal' | 'dllimport' | 'dllexport' | 'extern_weak';

/**
 * Version 7's symbol visibility (GlobalValue::VisibilityTypes); absent means `default`.
 *
 * @category Graph
 */
export type Visibility = 'default' | 'hidden' | 'protected';

/**
 * A global variable. Its `type` is a pointer to `valueType`.
 *
 * @category Graph
 */
export interface GlobalVariable {
  readonly kind: 'global';
  type: PointerType;
  valueType: Type;
  name?: string;
  linkage: Linkage;
  isConstant: boolean;
  /** Absent for an external declaration. */
  initializer?: Constant;
  /** Alignment in bytes; 0 means unspecified. */
  alignment: number;
  section?: string;
  /** Version 7: visibility; absent means `default` (always absent on v0–v6). */
  visibility?: Visibility;
  /** Version 7: `thread_local`; absent means false (always absent on v0–v6). */
  isThreadLocal?: boolean;
}

/**
 * Version 7 (from 2007-04): a second name for a global value or a constant expression over one
 * (`@a = alias weak i32* @b`). Its `type` is the aliasee's type. The file gives an alias no
 * visibility, so one read from a file has none.
 *
 * @category Graph
 */
export interface GlobalAlias {
  readonly kind: 'alias';
  type: PointerType;
  name?: string;
  /** The only linkages an alias could have in the file (two bits). */
  linkage: 'external' | 'internal' | 'weak';
  /** A global variable, function, alias, or a constant expression (e.g. a bitcast) of one. */
  aliasee: Constant;
  visibility?: Visibility;
}

/**
 * A function of the module. Its `type` is a pointer to `functionType`.
 *
 * Named `IRFunction` so that it does not shadow JavaScript's global `Function` where it is
 * imported; {@link Function} is the same type under its older name.
 *
 * @category Graph
 */
export interface IRFunction {
  readonly kind: 'function';
  type: PointerType;
  functionType: FunctionType;
  name?: string;
  linkage: Linkage;
  /** LLVM calling convention number: 0 = C (ccc), 1 = csretcc, 8 = fastcc, 9 = coldcc, 64+ = x86 ones. */
  callingConv: number;
  /** Alignment in bytes; 0 means unspecified. */
  alignment: number;
  section?: string;
  /** Version 7: visibility; absent means `default` (always absent on v0–v6). */
  visibility?: Visibility;
  /** True for a declaration (no body). */
  isDeclaration: boolean;
  /**
   * A declaration whose file, of version 5 or later, gave it a Function block holding only its
   * linkage instead of flagging it as a declaration (LLVM's writer did so between 2004-10-16 and
   * 2004-11-15; see format-table.ts `emptyFunctionBodyIsDeclaration`). The writer reproduces
   * that block, and leaves the function word unflagged, for versions 5 and later.
   */
  linkageOnlyBlock?: boolean;
  args: Argument[];
  /**
   * The body's basic blocks. On a function read from a file this (like `layout`) is an own
   * enumerable accessor that builds the objects from the decoded body on first access, get or
   * set (graph/compact-body.ts); reading and assigning it work as on a plain property.
   */
  blocks: BasicBlock[];
  /** Names in the function's symbol table, in file order, for faithful rewriting (see Module.layout). */
  layout?: SymbolTableLayout;
}

/**
 * The same type as {@link IRFunction}, under the name this package first gave it. Importing it
 * shadows JavaScript's global `Function` in that module: prefer `IRFunction` in new code.
 *
 * @category Graph
 */
export type Function = IRFunction;

/**
 * A global variable or function. Version 7's aliases are global values too in LLVM, but they are
 * kept out of this union so that code written for versions 0–6 about "globals" need not handle
 * them; they are constants (`Constant` includes `GlobalAlias`), as in LLVM, so that an
 * initializer, an aliasee or an operand can be one.
 *
 * @category Graph
 */
export type GlobalValue = GlobalVariable | Function;

// ---------------------------------------------------------------------------------------------
// Function bodies

/** @category Graph */
export interface Argument {
  readonly kind: 'argument';
  type: Type;
  name?: string;
  index: number;
}

/** @category Graph */
export interface BasicBlock {
  readonly kind: 'block';
  type: Type; // always label
  name?: string;
  instructions: Instruction[];
}

/** @category Graph */
export type Opcode =
  | 'ret'
  | 'br'
  | 'switch'
  | 'invoke'
  | 'unwind'
  | 'unreachable'
  | 'add'
  | 'sub'
  | 'mul'
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
  | 'select'
  | 'userop1'
  | 'userop2'
  | 'vaarg'
  | 'vanext'
  | 'extractelement'
  | 'insertelement'
  | 'shufflevector'
  // Version 7 (LLVM 2.0 development): shr split in two, integer/float comparisons, twelve casts.
  | 'lshr'
  | 'ashr'
  | 'icmp'
  | 'fcmp'
  | CastOpcode;

/**
 * Version 7's twelve casts, which replaced `cast` (2006-11-27). The target type is the result type.
 *
 * @category Graph
 */
export type CastOpcode = 'trunc' | 'zext' | 'sext' | 'fptoui' | 'fptosi' | 'uitofp' | 'sitofp' | 'fptrunc' | 'fpext' | 'ptrtoint' | 'inttoptr' | 'bitcast';

/** The twelve casts in LLVM's numbering order (r36867's opcodes 28 … 39). */
export const CAST_OPCODES: readonly CastOpcode[] = Object.freeze([
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
]);

/** Whether `op` is one of version 7's twelve casts. */
export function isCastOpcode(op: Opcode): op is CastOpcode {
  return (CAST_OPCODES as readonly Opcode[]).includes(op);
}

/**
 * One instruction. `type` is its result type (`void` when it produces none). Operands are in
 * the order the assembly shows them:
 *
 * - `ret`: [] or [value];  `br`: [dest] or [cond, ifTrue, ifFalse];  `unwind`, `unreachable`: []
 * - `switch`: [cond, defaultDest, caseValue1, caseDest1, …]
 * - `invoke`: [callee, normalDest, unwindDest, arg1, …];  `call`: [callee, arg1, …]
 * - binary ops, setcc, shifts (`lshr`/`ashr` too): [lhs, rhs];  `select`: [cond, ifTrue, ifFalse]
 * - `icmp`/`fcmp` (version 7): [lhs, rhs], with `predicate`
 * - `malloc`, `alloca`: [arraySize] (a `uint 1` constant when the file gave none; see
 *   `allocatedType`);  `free`: [ptr];  `load`: [ptr];  `store`: [value, ptr]
 * - `getelementptr`: [ptr, index1, …];  `phi`: [value1, block1, value2, block2, …]
 * - `cast` and version 7's casts (`trunc` … `bitcast`): [value] (target type is `type`);
 *   `vaarg`, `vanext`: [valist] (see `argType`)
 * - `extractelement`: [vector, index];  `insertelement`: [vector, element, index];
 *   `shufflevector`: [v1, v2, mask]
 *
 * @category Graph
 */
export interface Instruction {
  readonly kind: 'instruction';
  opcode: Opcode;
  type: Type;
  operands: Value[];
  name?: string;
  /**
   * `call`/`invoke`: calling convention number (0 = C), as LLVM held it: a call's modulo 2^15,
   * an invoke's modulo 2^16 (see `heldCallingConvention`).
   */
  callingConv?: number;
  /** `call`: marked `tail`. */
  isTailCall?: boolean;
  /** `load`/`store`: marked `volatile`. */
  isVolatile?: boolean;
  /** `malloc`/`alloca`: the type allocated (the result is a pointer to it). */
  allocatedType?: Type;
  /**
   * `malloc`/`alloca`: alignment in bytes; 0 means unspecified. Version 7 also gives `load` and
   * `store` an alignment (its attributed load/store opcodes); absent there means unspecified.
   */
  alignment?: number;
  /** `icmp`/`fcmp` (version 7): the comparison. */
  predicate?: Predicate;
  /** `vanext`: the argument type it steps over. */
  argType?: Type;
  /**
   * `vaarg`: read from the pre-LLVM-1.6 `vaarg` opcode (which took the va_list itself), not the
   * 1.6+ `va_arg` (which takes a pointer to it). Both print as `vaarg` in their own releases;
   * version 5 files may hold either, so the reader records which one it saw.
   */
  legacyVarArgs?: boolean;
  /**
   * Version 0 only: indexes of operands that the file named through a "constant pointer
   * reference" (LLVM 1.0/1.1's constant standing for a global's address) instead of the global
   * itself. Both mean the global; a version-0 writer reproduces the choice.
   */
  constantRefOperands?: number[];
}

/** @category Graph */
export type Value = Constant | Argument | BasicBlock | Instruction;

/**
 * What a faithful writer needs to reproduce a symbol table whose order LLVM took from heap
 * addresses: the order in which the file listed its value planes (by type) and, within each,
 * its entries. Absent on modules built in code; the writer then uses its documented order.
 *
 * @category Graph
 */
export interface SymbolTableLayout {
  /** Value planes in file order: the plane's type and the values it named, in file order. */
  valuePlanes: { type: Type; values: Value[] }[];
  /** Named types in file order (module symbol table only). */
  typeNames?: string[];
  /**
   * Versions 0–1: type names were one more plane (the type-type plane) among the value planes,
   * at a heap-address-dependent position; this is how many value planes preceded it.
   */
  typeNamesPlaneIndex?: number;
}

/**
 * The calling convention a `call` or an `invoke` keeps, given the number a file or a text gave
 * it. LLVM (1.5 to 2.0) held an instruction's convention in the 16 bits of `Value::SubclassData`,
 * a call's lowest bit being its `tail` flag: `llvm-as` and the bytecode reader took any number and
 * kept a call's 15 low bits and an invoke's 16, silently (`call cc40000` is `call cc7232` once
 * assembled). A function's convention is a full unsigned 32 bits.
 */
export function heldCallingConvention(opcode: 'call' | 'invoke', callingConv: number): number {
  return callingConv % (opcode === 'call' ? 0x8000 : 0x10000);
}

/**
 * Why a `call` or an `invoke` cannot be written with its calling convention (a number LLVM could
 * not hold on it, see `heldCallingConvention`: no file of LLVM's has one, and LLVM's reader would
 * take its bytes for another convention), or undefined when it can.
 */
export function unheldCallingConvention(opcode: Opcode, cc: number): { construct: string; detail: string } | undefined {
  if ((opcode !== 'call' && opcode !== 'invoke') || heldCallingConvention(opcode, cc) === cc) return undefined;
  const call = opcode === 'call';
  return {
    construct: `calling convention ${cc} on ${call ? 'a call' : 'an invoke'}`,
    detail: `LLVM held ${call ? "a call's in 15 bits (0 to 32767)" : "an invoke's in 16 bits (0 to 65535)"}`,
  };
}
