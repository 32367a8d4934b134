/**
 * The typing rules of LLVM 1.9's instructions and constant expressions, shared by the constant
 * builder and the instruction builder: each computes an operation's result type from its
 * operands' types, or throws a `BuildError` saying which operand is wrong and why. They follow
 * what LLVM 1.9's verifier and assembler accepted (and what `verify.ts` checks), so anything
 * built through them verifies.
 */
import { describeType } from '../graph/describe.js';
import { isFirstClassType, isFloatingPoint, isInteger, sameType, type Type } from '../graph/type.js';
import type { Value } from '../graph/value.js';
import { BuildError } from './error.js';
import type { TypeBuilder } from './types.js';

/** @category Build */
export type BinaryOpcode = 'add' | 'sub' | 'mul' | 'udiv' | 'sdiv' | 'fdiv' | 'urem' | 'srem' | 'frem' | 'and' | 'or' | 'xor';
/** @category Build */
export type CompareOpcode = 'seteq' | 'setne' | 'setle' | 'setge' | 'setlt' | 'setgt';
/** @category Build */
export type ShiftOpcode = 'shl' | 'shr';

export const BINARY_OPCODES: readonly BinaryOpcode[] = ['add', 'sub', 'mul', 'udiv', 'sdiv', 'fdiv', 'urem', 'srem', 'frem', 'and', 'or', 'xor'];
export const COMPARE_OPCODES: readonly CompareOpcode[] = ['seteq', 'setne', 'setle', 'setge', 'setlt', 'setgt'];

/** A type a value of an instruction or argument may have (LLVM's first-class types but label). */
export function isFirstClass(t: Type): boolean {
  return t.kind !== 'label' && isFirstClassType(t);
}

/** `v` for messages: its type and, when it has one, its name. */
export function describeValue(v: Value): string {
  const name = 'name' in v && v.name !== undefined ? ` %${v.name}` : '';
  return `${describeType(v.type)}${name}`;
}

function elementOf(t: Type): Type {
  return t.kind === 'packed' ? t.element : t;
}

/** `add` … `xor`: both operands of one type; the result has it too. */
export function binaryResult(op: BinaryOpcode, lhs: Value, rhs: Value): Type {
  const t = lhs.type;
  if (!sameType(t, rhs.type)) {
    throw new BuildError(op, `the operands have different types (${describeValue(lhs)} and ${describeValue(rhs)}); cast one first`);
  }
  const el = elementOf(t);
  switch (op) {
    case 'fdiv':
    case 'frem':
      if (!isFloatingPoint(el))
        throw new BuildError(op, `needs floating-point operands, not ${describeType(t)} (use ${op === 'fdiv' ? 'sdiv or udiv' : 'srem or urem'} for integers)`);
      break;
    case 'udiv':
    case 'sdiv':
    case 'urem':
    case 'srem':
      if (!isInteger(el))
        throw new BuildError(
          op,
          `needs integer operands, not ${describeType(t)}${isFloatingPoint(el) ? ` (use ${op.endsWith('div') ? 'fdiv' : 'frem'})` : ''}`,
        );
      break;
    case 'and':
    case 'or':
    case 'xor':
      if (!isInteger(el) && el.kind !== 'bool') throw new BuildError(op, `needs integer or bool operands, not ${describeType(t)}`);
      break;
    default:
      if (!isInteger(el) && !isFloatingPoint(el)) throw new BuildError(op, `needs integer or floating-point operands, not ${describeType(t)}`);
  }
  return t;
}

/** `seteq` … `setgt`: operands of one first-class type; the result is bool (per element for packed). */
export function compareResult(types: TypeBuilder, op: CompareOpcode, lhs: Value, rhs: Value): Type {
  const t = lhs.type;
  if (!sameType(t, rhs.type)) throw new BuildError(op, `the operands have different types (${describeValue(lhs)} and ${describeValue(rhs)})`);
  if (!isFirstClass(t)) throw new BuildError(op, `cannot compare values of type ${describeType(t)}`);
  return t.kind === 'packed' ? types.packed(types.bool, t.length) : types.bool;
}

/** `shl`, `shr`: an integer shifted by a ubyte amount; the result has the shifted value's type. */
export function shiftResult(op: ShiftOpcode, value: Value, amount: Value): Type {
  if (!isInteger(value.type)) throw new BuildError(op, `shifts an integer, not ${describeValue(value)}`);
  if (amount.type.kind !== 'ubyte') throw new BuildError(op, `the shift amount must be a ubyte, not ${describeValue(amount)}`);
  return value.type;
}

/** `select`: a bool condition and two values of one type. */
export function selectResult(cond: Value, ifTrue: Value, ifFalse: Value): Type {
  if (cond.type.kind !== 'bool') throw new BuildError('select', `the condition must be a bool, not ${describeValue(cond)}`);
  if (!sameType(ifTrue.type, ifFalse.type)) {
    throw new BuildError('select', `the two values have different types (${describeValue(ifTrue)} and ${describeValue(ifFalse)})`);
  }
  if (!isFirstClass(ifTrue.type)) throw new BuildError('select', `cannot select values of type ${describeType(ifTrue.type)}`);
  return ifTrue.type;
}

/** `cast`: any first-class type to any other (LLVM 1.9 had one cast instruction for all). */
export function checkCast(value: Value, to: Type): void {
  if (!isFirstClass(value.type)) throw new BuildError('cast', `cannot cast a value of type ${describeType(value.type)}`);
  if (!isFirstClass(to)) throw new BuildError('cast', `cannot cast to ${describeType(to)}; the target must be a first-class type`);
}

const GEP_INDEX = new Set(['uint', 'int', 'ulong', 'long']);

/**
 * `getelementptr`: the type the indices reach from the pointer, as a pointer. The first index
 * steps over the pointer (any of uint, int, ulong, long); then an array or packed type takes an
 * index of those types and a struct a constant uint (or ubyte) field number.
 */
export function gepResult(types: TypeBuilder, ptr: Value, indices: readonly Value[]): Type {
  const op = 'getelementptr';
  if (ptr.type.kind !== 'pointer') throw new BuildError(op, `the base must be a pointer, not ${describeValue(ptr)}`);
  if (indices.length === 0) return ptr.type;
  let cur: Type = ptr.type;
  indices.forEach((idx, i) => {
    const n = i + 1;
    if (cur.kind === 'struct') {
      if (idx.kind !== 'int' || (idx.type.kind !== 'uint' && idx.type.kind !== 'ubyte')) {
        throw new BuildError(op, `index ${n} selects a field of ${describeType(cur)}, so it must be a uint constant, not ${describeValue(idx)}`);
      }
      const field = cur.elements[Number(idx.value)];
      if (field === undefined)
        throw new BuildError(op, `index ${n} selects field ${idx.value} of ${describeType(cur)}, which has ${cur.elements.length} fields`);
      cur = field;
    } else if (cur.kind === 'array' || cur.kind === 'packed' || (cur.kind === 'pointer' && i === 0)) {
      if (!GEP_INDEX.has(idx.type.kind)) throw new BuildError(op, `index ${n} must be a uint, int, ulong or long, not ${describeValue(idx)}`);
      cur = cur.element;
    } else {
      const why = cur.kind === 'pointer' ? ' (a getelementptr cannot step through a second pointer: load it first)' : '';
      throw new BuildError(op, `index ${n} indexes into ${describeType(cur)}, which is not a struct, array or packed type${why}`);
    }
  });
  return types.pointer(cur);
}
