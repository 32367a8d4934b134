/**
 * The one table of what each opcode *is*: its class (does it end a block, is it a binary
 * operator, a comparison, a cast …), the shape of its operands, and the names the releases wrote
 * it under. The verifier, the printers, the analyzer, the converters and `modern/` ask this table
 * instead of listing opcodes of a class themselves.
 *
 * Which *number* an opcode has in which bytecode version is the format table's business
 * (format/format-table.ts `OPCODES_V0` … and format/version7.ts): a number is a property of the
 * file format, a class a property of the instruction.
 *
 * Keys are the graph's opcodes plus the three spellings only some releases' files hold: the
 * signless `div`/`rem` of versions 0–5 (upgraded by operand type when read) and LLVM 1.6's
 * `va_arg` (the graph's `vaarg` with a type operand).
 */
import type { Opcode } from './value.js';

export type OpcodeClass =
  /** Ends a basic block. */
  | 'terminator'
  /** Two operands of one type, result of that type (LLVM's BinaryOperator, setcc and shifts apart). */
  | 'binary'
  /** LLVM 1.x's `setcc` family: two operands of one type, `bool` result. */
  | 'setcc'
  /** Version 7's `icmp`/`fcmp`: two operands, a predicate, `bool` result. */
  | 'compare'
  /** `shl`/`shr` (amount `ubyte` before version 7) and version 7's `lshr`/`ashr`. */
  | 'shift'
  /** `cast` and version 7's twelve casts: one operand, the result type is the target. */
  | 'cast'
  /** malloc, free, alloca, load, store, getelementptr. */
  | 'memory'
  /** extractelement, insertelement, shufflevector. */
  | 'vector'
  /** phi, call, select, the varargs instructions and the user opcodes. */
  | 'other';

/** Every name an instruction or constant expression has in some release's files. */
export type OpcodeSpelling = Opcode | 'div' | 'rem' | 'va_arg';

export interface OpcodeFacts {
  readonly class: OpcodeClass;
  /** Fewest operands the instruction has (in the graph's operand order, value.ts). */
  readonly minOperands: number;
  /** Most operands (Infinity: a list, as call, phi, switch, getelementptr). */
  readonly maxOperands: number;
  /** A signed/unsigned/float division or remainder (their constant expressions can trap). */
  readonly divides: boolean;
  /**
   * Whether a constant expression may have this opcode in the releases that have it (LLVM 1.x's
   * ConstantExpr: the binary operators, setcc, shifts, casts, getelementptr, select and the vector
   * operations; version 7 adds its compares, shifts and casts). Not the terminators, memory
   * operations other than getelementptr, phi, call or the varargs instructions.
   */
  readonly constantExpression: boolean;
  /** The releases' own spelling where it differs from the graph's, newest last (see the file comment). */
  readonly spellings?: readonly string[];
}

const f = (cls: OpcodeClass, minOperands: number, maxOperands: number, extra: Partial<OpcodeFacts> = {}): OpcodeFacts =>
  Object.freeze({ class: cls, minOperands, maxOperands, divides: false, constantExpression: false, ...extra });
const ANY = Infinity;
const EXPR = { constantExpression: true } as const;
const BINARY = f('binary', 2, 2, EXPR);
const DIVIDES = f('binary', 2, 2, { divides: true, ...EXPR });
const SETCC = f('setcc', 2, 2, EXPR);
const CAST = f('cast', 1, 1, EXPR);

export const OPCODE_FACTS: Readonly<Record<OpcodeSpelling, OpcodeFacts>> = Object.freeze({
  ret: f('terminator', 0, 1),
  br: f('terminator', 1, 3),
  switch: f('terminator', 2, ANY),
  invoke: f('terminator', 3, ANY),
  unwind: f('terminator', 0, 0),
  unreachable: f('terminator', 0, 0),
  add: BINARY,
  sub: BINARY,
  mul: BINARY,
  div: f('binary', 2, 2, { divides: true, ...EXPR, spellings: ['div', 'udiv/sdiv/fdiv'] }),
  rem: f('binary', 2, 2, { divides: true, ...EXPR, spellings: ['rem', 'urem/srem/frem'] }),
  udiv: DIVIDES,
  sdiv: DIVIDES,
  fdiv: DIVIDES,
  urem: DIVIDES,
  srem: DIVIDES,
  frem: DIVIDES,
  and: BINARY,
  or: BINARY,
  xor: BINARY,
  seteq: SETCC,
  setne: SETCC,
  setle: SETCC,
  setge: SETCC,
  setlt: SETCC,
  setgt: SETCC,
  icmp: f('compare', 2, 2, EXPR),
  fcmp: f('compare', 2, 2, EXPR),
  malloc: f('memory', 1, 1),
  free: f('memory', 1, 1),
  alloca: f('memory', 1, 1),
  load: f('memory', 1, 1),
  store: f('memory', 2, 2),
  getelementptr: f('memory', 1, ANY, EXPR),
  phi: f('other', 2, ANY),
  cast: f('cast', 1, 1, { ...EXPR, spellings: ['cast', 'trunc … bitcast'] }),
  call: f('other', 1, ANY),
  shl: f('shift', 2, 2, EXPR),
  shr: f('shift', 2, 2, { ...EXPR, spellings: ['shr', 'lshr/ashr'] }),
  lshr: f('shift', 2, 2, EXPR),
  ashr: f('shift', 2, 2, EXPR),
  select: f('other', 3, 3, EXPR),
  userop1: f('other', 0, ANY),
  userop2: f('other', 0, ANY),
  vaarg: f('other', 1, 1, { spellings: ['vaarg', 'va_arg'] }),
  va_arg: f('other', 1, 1),
  vanext: f('other', 1, 1),
  extractelement: f('vector', 2, 2, EXPR),
  insertelement: f('vector', 3, 3, EXPR),
  shufflevector: f('vector', 3, 3, EXPR),
  trunc: CAST,
  zext: CAST,
  sext: CAST,
  fptoui: CAST,
  fptosi: CAST,
  uitofp: CAST,
  sitofp: CAST,
  fptrunc: CAST,
  fpext: CAST,
  ptrtoint: CAST,
  inttoptr: CAST,
  bitcast: CAST,
});

/** The class of `op`; undefined for a name no release used. */
export function opcodeClass(op: string): OpcodeClass | undefined {
  // (A property look-up, not `hasOwn`: the verifier asks per instruction. Object.prototype's
  // names have no `class`, so they answer undefined like any other unknown name.)
  return (OPCODE_FACTS as Readonly<Record<string, OpcodeFacts | undefined>>)[op]?.class;
}

/** Whether `op` ends a basic block. */
export function isTerminatorOpcode(op: string): boolean {
  return opcodeClass(op) === 'terminator';
}

/** Whether `op` is a binary operator (arithmetic or logical; not setcc, not a shift). */
export function isBinaryOpcode(op: string): boolean {
  return opcodeClass(op) === 'binary';
}

/** Whether `op` is one of LLVM 1.x's six `setcc` comparisons. */
export function isSetccOpcode(op: string): op is 'seteq' | 'setne' | 'setle' | 'setge' | 'setlt' | 'setgt' {
  return opcodeClass(op) === 'setcc';
}

/** Whether `op` is a shift (`shl`, `shr`, or version 7's `lshr`/`ashr`). */
export function isShiftOpcode(op: string): boolean {
  return opcodeClass(op) === 'shift';
}

/** Whether `op` is a cast (`cast`, or one of version 7's twelve). */
export function isAnyCastOpcode(op: string): boolean {
  return opcodeClass(op) === 'cast';
}

/** Whether `op` divides (signless, signed, unsigned or floating division and remainder). */
export function isDivisionOpcode(op: string): boolean {
  return (OPCODE_FACTS as Readonly<Record<string, OpcodeFacts | undefined>>)[op]?.divides === true;
}

/**
 * Terminators by the compact bodies' opcode numbers (graph/compact-body.ts `OPCODES`): the first
 * six numbers, so a hot loop compares a number instead of looking a name up.
 */
export const LAST_TERMINATOR_NUMBER = 5;
