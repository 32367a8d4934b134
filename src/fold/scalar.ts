/**
 * Arithmetic, comparison and casts on simple constants (bool, integers, floating point, null
 * pointers), as LLVM 1.9's folder computed them (`ConstRules` in lib/VMCore/ConstantFold.cpp).
 *
 * LLVM did each operation in the C type of the constant's LLVM type (`signed char` for sbyte …
 * `uint64_t` for ulong), compiled for x86-64, so the results are C's on that machine: integer
 * arithmetic wraps at the type's width, shifts promote to `int` (or stay 64-bit) and take their
 * count modulo 32 (or 64) as the processor does, division truncates toward zero, and a few cases
 * C leaves undefined (division by zero, the minimum divided by -1) were not folded at all.
 * `undefined` means "not folded": the caller then builds the constant expression.
 */
import { integerBits, isSigned, primitiveTypes as P, type PointerType, type Type } from '../graph/type.js';
import type { Constant } from '../graph/value.js';

export type BinaryOpcode = 'add' | 'sub' | 'mul' | 'udiv' | 'sdiv' | 'fdiv' | 'urem' | 'srem' | 'frem' | 'and' | 'or' | 'xor' | 'shl' | 'shr';

/** The bits of a value at `bits` width, as an unsigned number (LLVM's canonical `Val`). */
export function zext(value: bigint, bits: number): bigint {
  return BigInt.asUintN(bits, value);
}

/** The value at `bits` width read as signed (LLVM's `getSExtValue`, whatever the type's sign). */
export function sext(value: bigint, bits: number): bigint {
  return BigInt.asIntN(bits, value);
}

/** An integer constant of `type` holding `value` wrapped to the type's width. */
export function intOf(type: Type, value: bigint): Constant {
  const bits = integerBits(type);
  return { kind: 'int', type, value: isSigned(type) ? BigInt.asIntN(bits, value) : BigInt.asUintN(bits, value) };
}

export function boolOf(value: boolean): Constant {
  return { kind: 'bool', type: P.bool, value };
}

/** A float or double constant; a float is rounded to single precision, as C's `(float)` did. */
export function fpOf(type: Type, value: number): Constant {
  const view = new DataView(new ArrayBuffer(8));
  if (type.kind === 'float') {
    const f = Math.fround(value);
    view.setFloat32(0, f);
    return { kind: 'fp', type, value: f, bits: BigInt(view.getUint32(0)) };
  }
  view.setFloat64(0, value);
  return { kind: 'fp', type, value, bits: view.getBigUint64(0) };
}

/** The integer value of an int or bool constant, as the C type of its LLVM type reads it. */
function cValue(c: Constant): bigint {
  if (c.kind === 'bool') return c.value ? 1n : 0n;
  if (c.kind !== 'int') throw new Error(`internal error: an integer rule applied to a ${c.kind} constant`);
  const bits = integerBits(c.type);
  return isSigned(c.type) ? sext(c.value, bits) : zext(c.value, bits);
}

/** Aggregates being examined, so that a cyclic constant (only a damaged file makes one) ends. */
const visiting = new Set<Constant>();

/**
 * LLVM's `isNullValue` for the simple constants, and for aggregates element by element (LLVM
 * never kept an all-zero aggregate: it made it `zeroinitializer`).
 */
export function isNullValue(c: Constant): boolean {
  switch (c.kind) {
    case 'bool':
      return !c.value;
    case 'int':
      return c.value === 0n;
    case 'fp':
      // +0.0 only: -0.0 is not null.
      return c.bits === 0n;
    case 'null':
    case 'zeroinitializer':
      return true;
    case 'array':
    case 'struct':
    case 'packed':
      if (visiting.has(c)) return false;
      visiting.add(c);
      try {
        return c.elements.every(isNullValue);
      } finally {
        visiting.delete(c);
      }
    default:
      return false;
  }
}

/** LLVM's `isAllOnesValue`: true, or an integer whose signed reading is -1. */
export function isAllOnes(c: Constant): boolean {
  if (c.kind === 'bool') return c.value;
  if (c.kind === 'int') return sext(c.value, integerBits(c.type)) === -1n;
  return false;
}

/** The all-ones constant of an integral type (`ConstantIntegral::getAllOnesValue`). */
export function allOnesOf(type: Type): Constant {
  return type.kind === 'bool' ? boolOf(true) : intOf(type, -1n);
}

/** `Constant::getNullValue` for a first-class type. */
export function nullOf(type: Type): Constant {
  switch (type.kind) {
    case 'bool':
      return boolOf(false);
    case 'float':
    case 'double':
      return fpOf(type, 0);
    case 'pointer':
      return { kind: 'null', type };
    case 'array':
    case 'struct':
    case 'packed':
      return { kind: 'zeroinitializer', type };
    default:
      return intOf(type, 0n);
  }
}

/** What a shift count becomes on x86-64: the count in the operand's C type, modulo 32 or 64. */
function shiftCount(amount: bigint, valueType: Type): bigint {
  const bits = integerBits(valueType);
  const promoted = bits > 32 ? 64 : 32;
  return BigInt.asUintN(bits, amount) & BigInt(promoted - 1);
}

/** A binary operation on two integer constants of one type (`DirectIntRules`). */
function intBinary(op: BinaryOpcode, a: Constant, b: Constant): Constant | undefined {
  const type = a.type;
  const bits = integerBits(type);
  const za = zext(cValue(a), bits);
  const zb = op === 'shl' || op === 'shr' ? cValue(b) : zext(cValue(b), bits);
  switch (op) {
    case 'add':
      return intOf(type, za + zb);
    case 'sub':
      return intOf(type, za - zb);
    case 'mul':
      return intOf(type, za * zb);
    case 'and':
      return intOf(type, za & zb);
    case 'or':
      return intOf(type, za | zb);
    case 'xor':
      return intOf(type, za ^ zb);
    case 'udiv':
      return zb === 0n ? undefined : intOf(type, za / zb);
    case 'urem':
      return zb === 0n ? undefined : intOf(type, za % zb);
    case 'sdiv':
    case 'srem': {
      if (zb === 0n) return undefined;
      const sa = sext(za, bits);
      const sb = sext(zb, bits);
      // LLVM refused MIN / -1 by testing `x == -x` in the C type, which also holds for 0 (and,
      // where the negation wraps, for the minimum of a 32- or 64-bit type of either sign).
      if (sb === -1n && (za === 0n || (bits >= 32 && za === 1n << BigInt(bits - 1)))) return undefined;
      // BigInt division truncates toward zero, as C does.
      return intOf(type, op === 'sdiv' ? sa / sb : sa % sb);
    }
    case 'shl':
      return intOf(type, za << shiftCount(zb, type));
    case 'shr':
      return intOf(type, cValue(a) >> shiftCount(zb, type));
    default:
      return undefined;
  }
}

function fpBinary(op: BinaryOpcode, a: Constant & { kind: 'fp' }, b: Constant & { kind: 'fp' }): Constant | undefined {
  const x = a.value;
  const y = b.value;
  switch (op) {
    case 'add':
      return fpOf(a.type, x + y);
    case 'sub':
      return fpOf(a.type, x - y);
    case 'mul':
      return fpOf(a.type, x * y);
    case 'fdiv':
      // LLVM tested for ±0.0 itself; IEEE division gives the same infinities except for 0/0
      // (LLVM: +inf, IEEE: NaN) and NaN/0 (LLVM: ±inf).
      if (y === 0) return fpOf(a.type, Object.is(y, -0) ? -Infinity : Infinity);
      return fpOf(a.type, x / y);
    case 'frem':
      // C's fmod, which JavaScript's % is; an fmod by +0.0 was not folded (-0.0 was).
      if (b.bits === 0n) return undefined;
      return fpOf(a.type, x % y);
    default:
      return undefined;
  }
}

function boolBinary(op: BinaryOpcode, a: boolean, b: boolean): Constant | undefined {
  switch (op) {
    case 'and':
      return boolOf(a && b);
    case 'or':
      return boolOf(a || b);
    case 'xor':
      return boolOf(a !== b);
    default:
      return undefined;
  }
}

/** Which of LLVM's rule sets a pair of constants fell to (`ConstRules::get`). */
type Rules = 'empty' | 'bool' | 'null-pointer' | 'packed' | 'general-packed' | 'int' | 'fp';

export function rulesFor(a: Constant, b: Constant): Rules {
  const opaque = (c: Constant): boolean => c.kind === 'expr' || c.kind === 'global' || c.kind === 'function' || c.kind === 'undef';
  if (opaque(a) || opaque(b)) return 'empty';
  switch (a.type.kind) {
    case 'bool':
      return 'bool';
    case 'pointer':
      return 'null-pointer';
    case 'float':
    case 'double':
      return 'fp';
    case 'packed':
      return a.kind === 'packed' && b.kind === 'packed' ? 'packed' : 'general-packed';
    default:
      return 'int';
  }
}

/** A binary operation on two simple (non-packed) constants, or undefined. */
export function foldScalarBinary(op: BinaryOpcode, a: Constant, b: Constant): Constant | undefined {
  switch (rulesFor(a, b)) {
    case 'bool':
      return a.kind === 'bool' && b.kind === 'bool' ? boolBinary(op, a.value, b.value) : undefined;
    case 'int':
      return a.kind === 'int' && (b.kind === 'int' || b.kind === 'bool') ? intBinary(op, a, b) : undefined;
    case 'fp':
      return a.kind === 'fp' && b.kind === 'fp' ? fpBinary(op, a, b) : undefined;
    default:
      return undefined;
  }
}

/** `a < b` on two simple constants (`LessThan`), or undefined. */
export function foldLessThan(a: Constant, b: Constant): Constant | undefined {
  switch (rulesFor(a, b)) {
    case 'bool':
      return a.kind === 'bool' && b.kind === 'bool' ? boolOf(!a.value && b.value) : undefined;
    case 'int':
      return a.kind === 'int' && b.kind === 'int' ? boolOf(cValue(a) < cValue(b)) : undefined;
    case 'fp':
      return a.kind === 'fp' && b.kind === 'fp' ? boolOf(a.value < b.value) : undefined;
    default:
      return undefined;
  }
}

/**
 * `a == b` on two simple constants (`EqualTo`), or undefined. `same` says whether two constants
 * are one (LLVM's constants were unique objects). Packed constants are `foldPackedEqual`'s.
 */
export function foldEqualTo(a: Constant, b: Constant, same: (x: Constant, y: Constant) => boolean): Constant | undefined {
  switch (rulesFor(a, b)) {
    case 'empty':
      return same(a, b) ? boolOf(true) : undefined;
    case 'bool':
      return boolOf(same(a, b));
    case 'null-pointer':
      return boolOf(true);
    case 'int':
      return a.kind === 'int' && b.kind === 'int' ? boolOf(cValue(a) === cValue(b)) : undefined;
    case 'fp':
      return a.kind === 'fp' && b.kind === 'fp' ? boolOf(a.value === b.value) : undefined;
    default:
      return undefined;
  }
}

/** x86-64's truncating conversion to a `width`-bit signed integer: NaN and out of range give the "integer indefinite" (the minimum). */
function cvtt(x: number, width: 32 | 64): bigint {
  const limit = 1n << BigInt(width - 1);
  if (Number.isNaN(x)) return -limit;
  const t = Number.isFinite(x) ? BigInt(Math.trunc(x)) : x > 0 ? limit : -limit - 1n;
  return t >= limit || t < -limit ? -limit : t;
}

/**
 * What C's conversion of a float or double to an integer type gave, compiled by GCC for x86-64
 * (LLVM's folder ran such code): 32-bit types and narrower through a 32-bit conversion, `uint`
 * through a 64-bit one, `ulong` through a 64-bit one of x - 2^63 when x >= 2^63 (in the source's
 * precision) with the top bit flipped back. Out-of-range values give what the processor gives.
 */
function truncateToInteger(x: number, bits: number, signed: boolean, fromFloat: boolean): bigint {
  if (bits === 64 && !signed) {
    const big = 2 ** 63;
    if (x >= big) return cvtt(fromFloat ? Math.fround(x - big) : x - big, 64) ^ (1n << 63n);
    return cvtt(x, 64);
  }
  if (bits === 64 || (bits === 32 && !signed)) return cvtt(x, 64);
  return cvtt(x, 32);
}

/** A cast of a simple constant to a first-class type (`castTo*` of its rules), or undefined. */
export function foldScalarCast(v: Constant, to: Type): Constant | undefined {
  const rules = rulesFor(v, v);
  if (rules === 'null-pointer') {
    if (to.kind === 'pointer') return { kind: 'null', type: to as PointerType };
    return to.kind === 'packed' || to.kind === 'void' ? undefined : nullOf(to);
  }
  if ((rules !== 'bool' && rules !== 'int' && rules !== 'fp') || (v.kind !== 'bool' && v.kind !== 'int' && v.kind !== 'fp')) return undefined;
  if (to.kind === 'pointer') return isNullValue(v) ? { kind: 'null', type: to } : undefined;
  if (v.kind === 'fp') {
    if (to.kind === 'bool') return boolOf(v.value !== 0);
    if (to.kind === 'float' || to.kind === 'double') return fpOf(to, v.value);
    if (to.kind === 'packed' || to.kind === 'void' || to.kind === 'label') return undefined;
    return intOf(to, truncateToInteger(v.value, integerBits(to), isSigned(to), v.type.kind === 'float'));
  }
  const n = cValue(v);
  if (to.kind === 'bool') return boolOf(n !== 0n);
  if (to.kind === 'float' || to.kind === 'double') return fpOf(to, Number(n));
  if (to.kind === 'packed' || to.kind === 'void' || to.kind === 'label' || to.kind === 'struct' || to.kind === 'array') return undefined;
  return intOf(to, n);
}
