/**
 * The verifier's version table: one row per family of releases whose `Verifier` (and whose
 * `llvm-as`, which refused much before its verifier ran) held a module to different rules. The
 * checks themselves are shared (verify.ts); what differs between LLVM 1.x and r36867 (LLVM 2.0's
 * development trunk, bytecode version 7) is a field here.
 *
 * Rules LLVM 1.9's Verifier also checked but our 1.x row does not yet enforce are flagged so
 * (`signatureRules` etc.): turning them on for 1.x is a change of the row, not of the checks.
 */
import { version7Feature } from '../graph/describe.js';
import type { Module } from '../graph/module.js';
import { integerType, isInteger, primitiveTypes, type Type } from '../graph/type.js';
import { CAST_OPCODES, type Opcode } from '../graph/value.js';

export interface VerifierRules {
  /** The release whose Verifier the row follows (said in messages of its own rules). */
  readonly release: 'LLVM 1.x' | 'r36867';
  /** The type of a branch's or a select's condition and of a comparison's result. */
  readonly bool: Type;
  /** The integer types: 1.x's signed and unsigned primitives, or version 7's signless `iN`. */
  isInteger(t: Type): boolean;
  /** An `and`/`or`/`xor` operand type besides the integers (1.x: `bool`; version 7's `i1` is an integer). */
  readonly logicalAlso: Type | undefined;
  /** malloc/alloca's element count (r36867: `getAISize` asserted `Int32Ty`). */
  readonly count: Type;
  /** extractelement/insertelement's index (r36867 `isValidOperands`: `Int32Ty`). */
  readonly vectorIndex: Type;
  /** The element type of shufflevector's mask. */
  readonly maskElement: Type;
  /** The shift amount: 1.x `ubyte`; r36867 the shifted value's type (shifts became binary operators, 2007-02-02). */
  readonly shiftAmount: 'ubyte' | 'same';
  /** A getelementptr index into a pointer, array or vector. */
  sequentialIndex(t: Type): boolean;
  /** The description of `sequentialIndex` for messages. */
  readonly sequentialIndexWords: string;
  /** A structure index's type (a constant of it). */
  structIndex(t: Type): boolean;
  readonly structIndexWords: string;
  /** Which opcodes exist. */
  readonly opcodes: ReadonlySet<Opcode>;
  /**
   * Function-level rules of `visitFunction`/`visitInstruction` (entry block without
   * predecessors, no aggregate return or argument, fastcc/coldcc/x86_fastcallcc not varargs,
   * `llvm.` functions never defined, no name on a void instruction, first-class results, phi
   * entries for one block agreeing). LLVM 1.9's Verifier checked these too; the 1.x row does
   * not enforce them yet.
   */
  readonly signatureRules: boolean;
  /** r36867 `visitInstruction`: an invoke's value is usable only where its normal edge reaches. */
  readonly invokeResults: boolean;
  /** r36867 `VerifyIntrinsicPrototype`, the parser's "Call to invalid LLVM intrinsic function" (intrinsics.ts). */
  readonly intrinsics: boolean;
  /** r36867 `visitBinaryOperator` and the parser: no remainder on vectors, shifts of integers only. */
  readonly vectorRemainderRefused: boolean;
}

const COMMON: readonly Opcode[] = [
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
  'and',
  'or',
  'xor',
  'malloc',
  'free',
  'alloca',
  'load',
  'store',
  'getelementptr',
  'phi',
  'call',
  'select',
  'vaarg',
  'extractelement',
  'insertelement',
  'shufflevector',
  'userop1',
  'userop2',
];

const { bool: BOOL, uint: UINT } = primitiveTypes;
const I32 = integerType(32);

/** LLVM 1.x (versions 0–6), as the verifier always checked them. */
export const RULES_1X: VerifierRules = Object.freeze({
  release: 'LLVM 1.x',
  bool: BOOL,
  isInteger,
  logicalAlso: BOOL,
  count: UINT,
  vectorIndex: UINT,
  maskElement: UINT,
  shiftAmount: 'ubyte',
  sequentialIndex: (t: Type) => t.kind === 'uint' || t.kind === 'int' || t.kind === 'ulong' || t.kind === 'long',
  sequentialIndexWords: 'uint, int, ulong or long',
  structIndex: (t: Type) => t.kind === 'uint' || t.kind === 'ubyte',
  structIndexWords: 'uint (or ubyte)',
  opcodes: new Set<Opcode>([...COMMON, 'seteq', 'setne', 'setle', 'setge', 'setlt', 'setgt', 'cast', 'shl', 'shr', 'vanext']),
  signatureRules: false,
  invokeResults: false,
  intrinsics: false,
  vectorRemainderRefused: false,
} as const);

/** r36867 (bytecode version 7): lib/VMCore/Verifier.cpp and the checks of its AsmParser and Instructions.cpp. */
export const RULES_R36867: VerifierRules = Object.freeze({
  release: 'r36867',
  bool: integerType(1),
  isInteger: (t: Type) => t.kind === 'integer',
  logicalAlso: undefined,
  count: I32,
  vectorIndex: I32,
  maskElement: I32,
  shiftAmount: 'same',
  // SequentialType::indexValid: an i32 or an i64.
  sequentialIndex: (t: Type) => t.kind === 'integer' && (t.bits === 32 || t.bits === 64),
  sequentialIndexWords: 'i32 or i64',
  // StructType::indexValid: an i32 constant below the field count.
  structIndex: (t: Type) => t === I32,
  structIndexWords: 'i32',
  opcodes: new Set<Opcode>([...COMMON, 'shl', 'lshr', 'ashr', 'icmp', 'fcmp', ...CAST_OPCODES]),
  signatureRules: true,
  invokeResults: true,
  intrinsics: true,
  vectorRemainderRefused: true,
} as const);

/** The row for a bytecode version. */
export function rulesForVersion(version: number): VerifierRules {
  return version >= 7 ? RULES_R36867 : RULES_1X;
}

/**
 * The row for a module when the caller names no version: version 7's when the module is one (read
 * from a version-7 file, with a data layout or aliases, or a version-7 type in its signatures).
 */
export function rulesForModule(module: Module): VerifierRules {
  const seven =
    module.source?.bytecodeVersion === 7 || module.dataLayout !== undefined || module.aliases !== undefined || version7Feature(module) !== undefined;
  return seven ? RULES_R36867 : RULES_1X;
}
