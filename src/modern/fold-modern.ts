/**
 * Folding, in modern LLVM's semantics, of the expressions an LLVM release no longer accepts as
 * constant expressions, when their operands are numbers: `sext (i32 -5 to i64)` is `i64 -5`.
 * What LLVM's own folder (ConstantFold.cpp) gives for the same operands: wrapping integer
 * arithmetic, `poison` for a shift by the width or more, a division by zero, the signed
 * overflow of `sdiv`/`srem`, and a floating-point value out of an integer's range; IEEE double
 * arithmetic, rounded once to float for float results.
 *
 * Operands arrive as spelled by the printer (constants.ts) with their number attached; the 1.x
 * folder (src/fold/) has already folded what LLVM 1.x folded when the file was written, so what
 * reaches here is what 1.x left as an expression and the upgrade's own rewrites (the 64-bit
 * extension before `inttoptr`, the re-typed shift amounts).
 */
import { fpString } from './constants.js';
import { primitiveTypes as P } from '../graph/type.js';

/** A number an operand holds: an integer of `bits` bits (unsigned bits), or a float/double. */
export type Lit = { kind: 'int'; bits: number; value: bigint } | { kind: 'fp'; double: boolean; value: number };

/** A constant as an operand: its modern spelling, its number when it has one, and whether an added instruction computes it. */
export interface Operand {
  readonly type: string;
  readonly value: string;
  readonly lit?: Lit;
  readonly local?: boolean;
}

const POISON = (type: string): Operand => ({ type, value: 'poison' });

function intBitsOf(type: string): number | undefined {
  const m = /^i(\d+)$/.exec(type);
  return m ? Number(m[1]) : undefined;
}

function intOperand(type: string, bits: number, value: bigint): Operand {
  const v = BigInt.asUintN(bits, value);
  if (bits === 1) return { type, value: v === 0n ? 'false' : 'true', lit: { kind: 'int', bits, value: v } };
  // Printed signed, as LLVM prints; the same bits either way.
  return { type, value: BigInt.asIntN(bits, v).toString(), lit: { kind: 'int', bits, value: v } };
}

function fpOperand(type: string, value: number): Operand {
  const double = type === 'double';
  const r = double ? value : Math.fround(value);
  const view = new DataView(new ArrayBuffer(8));
  let bits: bigint;
  if (double) {
    view.setFloat64(0, r);
    bits = view.getBigUint64(0);
  } else {
    view.setFloat32(0, r);
    bits = BigInt(view.getUint32(0));
  }
  return { type, value: fpString({ kind: 'fp', type: double ? P.double : P.float, value: r, bits }), lit: { kind: 'fp', double, value: r } };
}

function intBinary(op: string, bits: number, x: bigint, y: bigint): bigint | 'poison' | undefined {
  const sx = BigInt.asIntN(bits, x);
  const sy = BigInt.asIntN(bits, y);
  switch (op) {
    case 'add':
      return x + y;
    case 'sub':
      return x - y;
    case 'mul':
      return x * y;
    case 'and':
      return x & y;
    case 'or':
      return x | y;
    case 'xor':
      return x ^ y;
    case 'shl':
      return y >= BigInt(bits) ? 'poison' : x << y;
    case 'lshr':
      return y >= BigInt(bits) ? 'poison' : x >> y;
    case 'ashr':
      return y >= BigInt(bits) ? 'poison' : sx >> y;
    case 'udiv':
      return y === 0n ? 'poison' : x / y;
    case 'urem':
      return y === 0n ? 'poison' : x % y;
    case 'sdiv':
    case 'srem':
      // Division by zero and the one overflowing quotient (INT_MIN / -1) are poison.
      if (sy === 0n || (sy === -1n && sx === -(1n << BigInt(bits - 1)))) return 'poison';
      return op === 'sdiv' ? sx / sy : sx % sy;
    default:
      return undefined;
  }
}

function icmp(pred: string, bits: number, x: bigint, y: bigint): boolean | undefined {
  const sx = BigInt.asIntN(bits, x);
  const sy = BigInt.asIntN(bits, y);
  switch (pred) {
    case 'eq':
      return x === y;
    case 'ne':
      return x !== y;
    case 'ugt':
      return x > y;
    case 'uge':
      return x >= y;
    case 'ult':
      return x < y;
    case 'ule':
      return x <= y;
    case 'sgt':
      return sx > sy;
    case 'sge':
      return sx >= sy;
    case 'slt':
      return sx < sy;
    case 'sle':
      return sx <= sy;
    default:
      return undefined;
  }
}

function fcmp(pred: string, x: number, y: number): boolean | undefined {
  const uno = Number.isNaN(x) || Number.isNaN(y);
  const ordered = (r: boolean): boolean => !uno && r;
  const unordered = (r: boolean): boolean => uno || r;
  switch (pred) {
    case 'false':
      return false;
    case 'true':
      return true;
    case 'oeq':
      return ordered(x === y);
    case 'one':
      return ordered(x !== y);
    case 'olt':
      return ordered(x < y);
    case 'ole':
      return ordered(x <= y);
    case 'ogt':
      return ordered(x > y);
    case 'oge':
      return ordered(x >= y);
    case 'ord':
      return !uno;
    case 'ueq':
      return unordered(x === y);
    case 'une':
      return unordered(x !== y);
    case 'ult':
      return unordered(x < y);
    case 'ule':
      return unordered(x <= y);
    case 'ugt':
      return unordered(x > y);
    case 'uge':
      return unordered(x >= y);
    case 'uno':
      return uno;
    default:
      return undefined;
  }
}

function fpBinary(op: string, x: number, y: number): number | undefined {
  switch (op) {
    case 'fadd':
      return x + y;
    case 'fsub':
      return x - y;
    case 'fmul':
      return x * y;
    case 'fdiv':
      return x / y;
    case 'frem':
      return x % y;
    default:
      return undefined;
  }
}

/** An integer converted to floating point, rounded once: undefined when that cannot be done exactly in JavaScript. */
function intToFp(n: bigint, type: string): number | undefined {
  const limit = 1n << 53n;
  if (n >= limit || n <= -limit) return undefined;
  return type === 'double' ? Number(n) : Math.fround(Number(n));
}

function fpToInt(x: number, bits: number, signed: boolean): bigint | undefined {
  if (!Number.isFinite(x)) return undefined;
  const t = BigInt(Math.trunc(x));
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n;
  const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  return t < min || t > max ? undefined : t;
}

function cast(op: string, a: Lit, to: string): Operand | undefined {
  const toBits = intBitsOf(to);
  if (a.kind === 'int') {
    const sa = BigInt.asIntN(a.bits, a.value);
    switch (op) {
      case 'trunc':
      case 'zext':
        return toBits === undefined ? undefined : intOperand(to, toBits, a.value);
      case 'sext':
        return toBits === undefined ? undefined : intOperand(to, toBits, sa);
      case 'uitofp':
      case 'sitofp': {
        const r = intToFp(op === 'sitofp' ? sa : a.value, to);
        return r === undefined ? undefined : fpOperand(to, r);
      }
      default:
        return undefined;
    }
  }
  switch (op) {
    case 'fpext':
    case 'fptrunc':
      return fpOperand(to, a.value);
    case 'fptoui':
    case 'fptosi': {
      if (toBits === undefined) return undefined;
      const r = fpToInt(a.value, toBits, op === 'fptosi');
      return r === undefined ? POISON(to) : intOperand(to, toBits, r);
    }
    default:
      return undefined;
  }
}

/**
 * The value of `op` (a modern opcode; `pred` for `icmp`/`fcmp`) over `ops`, of modern type
 * `type`, when the operands' numbers decide it; undefined when they do not (an address, a
 * vector, a conversion JavaScript cannot round exactly).
 */
export function foldModern(op: string, pred: string | undefined, ops: readonly Operand[], type: string): Operand | undefined {
  if (op === 'select') {
    const c = ops[0]?.lit;
    if (c?.kind !== 'int') return undefined;
    return c.value !== 0n ? ops[1] : ops[2];
  }
  const a = ops[0]?.lit;
  if (a === undefined) return undefined;
  if (ops.length === 1) return cast(op, a, type);
  const b = ops[1]?.lit;
  if (b === undefined || ops.length !== 2) return undefined;
  if (a.kind === 'int' && b.kind === 'int') {
    if (op === 'icmp') {
      const r = pred === undefined ? undefined : icmp(pred, a.bits, a.value, b.value);
      return r === undefined ? undefined : intOperand(type, 1, r ? 1n : 0n);
    }
    const bits = intBitsOf(type);
    if (bits === undefined) return undefined;
    const r = intBinary(op, bits, a.value, b.value);
    if (r === undefined) return undefined;
    return r === 'poison' ? POISON(type) : intOperand(type, bits, r);
  }
  if (a.kind === 'fp' && b.kind === 'fp') {
    if (op === 'fcmp') {
      const r = pred === undefined ? undefined : fcmp(pred, a.value, b.value);
      return r === undefined ? undefined : intOperand(type, 1, r ? 1n : 0n);
    }
    const r = fpBinary(op, a.value, b.value);
    return r === undefined ? undefined : fpOperand(type, r);
  }
  return undefined;
}
