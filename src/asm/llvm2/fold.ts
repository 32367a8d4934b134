/**
 * What r36867's `ConstantExpr::get*` returned instead of a new constant expression, for the rules
 * this folder knows (`lib/VMCore/ConstantFold.cpp` at r36867): LLVM folded every constant
 * expression as its parser built it, so `add (i32 1, i32 2)` in a text was `i32 3` in the file,
 * `bitcast (i32* @a to i32*)` was `@a`, and `bitcast ([4 x i8]* @s to i8*)` a getelementptr to the
 * first element.
 *
 * Known, and kept as written where LLVM folded further (docs/assembler.md lists them): casts
 * between vectors, vector comparisons, integers wider than 64 bits converted
 * to floating point, and a getelementptr of a getelementptr whose first index is not zero.
 *
 * Why its own and not `src/fold` (LLVM 1.9's folder): version 7's integers are signless, its
 * comparisons are predicates, its casts twelve, and its folder differs in many rules.
 */
import { integerType, type PointerType, type Type } from '../../graph/type.js';
import { CAST_OPCODES, type CastOpcode, type Constant, type FloatPredicate, type IntPredicate, type Opcode } from '../../graph/value.js';
import { sameConstant } from '../../graph/same-constant.js';
import { firstElementIndices } from '../../fold/folder.js';
import { isNullValue } from '../../fold/scalar.js';
import { doubleToFloat } from '../build-module.js';

const I1 = integerType(1);
const I32 = integerType(32);

/** The longest undef or zero vector `insertelement` folds into separate elements (docs/assembler.md). */
export const MAX_EXPANDED_VECTOR = 65536;

/** What the folder needs from the builder: pointer types as the module has them. */
export interface Fold2Host {
  pointerTo(t: Type): PointerType;
  /** The type `getelementptr` reaches from a pointer of type `base` through `indices`. */
  indexedType(base: Type, indices: readonly Constant[]): Type;
}

/** The bits of an integer constant (bool as one bit), unsigned; undefined for anything else. */
function bitsOf(c: Constant): bigint | undefined {
  if (c.kind === 'bool') return c.value ? 1n : 0n;
  if (c.kind === 'int' && c.type.kind === 'integer') return BigInt.asUintN(c.type.bits, c.value);
  return undefined;
}

function widthOf(t: Type): number {
  return t.kind === 'integer' ? t.bits : 0;
}

/** `ConstantInt::get(type, bits)`: an `i1` is a bool, others hold the signed reading. */
function intConstant(type: Type, bits: bigint): Constant {
  const w = widthOf(type);
  if (w === 1) return { kind: 'bool', type, value: (bits & 1n) === 1n };
  return { kind: 'int', type, value: BigInt.asIntN(w, bits) };
}

function bool(value: boolean): Constant {
  return { kind: 'bool', type: I1, value };
}

/** `ConstantFP::get(type, double)`: a float keeps the double rounded, as the writer stored it. */
function fpConstant(type: Type, value: number): Constant {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  return fpFromBits(type, view.getBigUint64(0));
}

/** The same from a double's bits (a NaN keeps its payload, which a JavaScript number may not). */
function fpFromBits(type: Type, bits: bigint): Constant {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, bits);
  // r36867's ConstantFP::get forced a float's value through a float in memory: it holds the rounded value.
  if (type.kind === 'float') return { kind: 'fp', type, ...doubleToFloat(bits) };
  return { kind: 'fp', type, value: view.getFloat64(0), bits };
}

/** The double value of a constant's bits. */
function doubleOf(bits: bigint): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, bits);
  return view.getFloat64(0);
}

/** x86's default NaN, what SSE and x87 made of an invalid operation (`inf - inf`, `0 * inf`, `fmod(inf, y)`). */
const DEFAULT_NAN = 0xfff8000000000000n;
/** `std::numeric_limits<double>::quiet_NaN()`, which the folder wrote itself for `0 / 0` and `x % 0`. */
const QUIET_NAN = 0x7ff8000000000000n;

/** A floating-point constant's value as the double LLVM held, by its bits (NaN payloads kept). */
function doubleBitsOf(c: Constant & { kind: 'fp' }): bigint {
  if (c.type.kind !== 'float') return c.bits;
  const f = c.bits;
  if ((f & 0x7f800000n) === 0x7f800000n && (f & 0x7fffffn) !== 0n) return ((f >> 31n) << 63n) | (0x7ffn << 52n) | ((f & 0x7fffffn) << 29n);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, c.value);
  return view.getBigUint64(0);
}

const isNaNBits = (bits: bigint): boolean => (bits & 0x7ff0000000000000n) === 0x7ff0000000000000n && (bits & 0xfffffffffffffn) !== 0n;
const quieted = (bits: bigint): bigint => bits | 0x8000000000000n;

/**
 * A binary operation as LLVM's x86-64 host computed it: a NaN operand comes out quieted (the
 * first one; for add and mul the second, measured with r36867's llvm-as), an invalid operation
 * gives the default NaN; other results are IEEE's, as here.
 */
function hostArithmetic(a: bigint, b: bigint, compute: () => number, commutative = false): bigint {
  // GCC gave add and mul the second operand as the destination: its NaN wins.
  if (commutative && isNaNBits(b)) return quieted(b);
  if (isNaNBits(a)) return quieted(a);
  if (isNaNBits(b)) return quieted(b);
  const r = compute();
  if (Number.isNaN(r)) return DEFAULT_NAN;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, r);
  return view.getBigUint64(0);
}

/** `Constant::getNullValue` for version 7's types (an `i1` zero is `false`); undefined for void and labels. */
export function nullValue(t: Type): Constant | undefined {
  switch (t.kind) {
    case 'integer':
      return intConstant(t, 0n);
    case 'float':
    case 'double':
      return { kind: 'fp', type: t, value: 0, bits: 0n };
    case 'pointer':
      return { kind: 'null', type: t };
    case 'struct':
    case 'array':
    case 'packed':
      return { kind: 'zeroinitializer', type: t };
    default:
      return undefined;
  }
}

const isGlobal = (c: Constant): boolean => c.kind === 'global' || c.kind === 'function' || c.kind === 'alias';
const isCast = (c: Constant): boolean =>
  c.kind === 'expr' &&
  ['trunc', 'zext', 'sext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'fptrunc', 'fpext', 'ptrtoint', 'inttoptr', 'bitcast'].includes(c.opcode);

export class Folder2 {
  constructor(private readonly host: Fold2Host) {}

  private expr(type: Type, opcode: Opcode, operands: Constant[], predicate?: IntPredicate | FloatPredicate): Constant {
    const c: Constant = { kind: 'expr', type, opcode, operands };
    if (predicate !== undefined) c.predicate = predicate;
    return c;
  }

  /** `ConstantExpr::getCast`. */
  cast(op: CastOpcode, v: Constant, to: Type): Constant {
    return this.foldCast(op, v, to) ?? this.expr(to, op, [v]);
  }

  private foldCast(op: CastOpcode, v: Constant, to: Type): Constant | undefined {
    if (v.kind === 'undef') return { kind: 'undef', type: to };
    // A cast of a cast: one cast where CastInst::isEliminableCastPair allows it.
    if (v.kind === 'expr' && isCast(v)) {
      const pair = eliminableCastPair(v.opcode as CastOpcode, op, v.operands[0]!.type, v.type, to);
      if (pair !== undefined) return this.cast(pair, v.operands[0]!, to);
    }
    // A getelementptr whose indices are all null adjusts nothing: cast its pointer instead.
    if (v.kind === 'expr' && v.opcode === 'getelementptr' && v.operands.slice(1).every(isNullValue))
      return this.cast(to.kind === 'pointer' ? 'bitcast' : 'ptrtoint', v.operands[0]!, to);
    const bits = bitsOf(v);
    switch (op) {
      case 'fptrunc':
      case 'fpext':
        return v.kind === 'fp' ? fpFromBits(to, doubleBitsOf(v)) : undefined;
      case 'fptoui':
      case 'fptosi':
        return v.kind === 'fp' ? intConstant(to, roundDoubleToInt(doubleOf(doubleBitsOf(v)), widthOf(to))) : undefined;
      case 'inttoptr':
        return isNullValue(v) ? { kind: 'null', type: to } : undefined;
      case 'ptrtoint':
        return isNullValue(v) ? intConstant(to, 0n) : undefined;
      case 'uitofp':
        return bits !== undefined && widthOf(v.type) <= 64 ? fpConstant(to, Number(bits)) : undefined;
      case 'sitofp':
        return bits !== undefined && widthOf(v.type) <= 64 ? fpConstant(to, Number(BigInt.asIntN(widthOf(v.type), bits))) : undefined;
      case 'zext':
        return bits !== undefined ? intConstant(to, bits) : undefined;
      case 'sext':
        return bits !== undefined ? intConstant(to, BigInt.asIntN(widthOf(v.type), bits)) : undefined;
      case 'trunc':
        return bits !== undefined ? intConstant(to, bits) : undefined;
      case 'bitcast':
        return this.foldBitcast(v, to, bits);
      default:
        return undefined;
    }
  }

  private foldBitcast(v: Constant, to: Type, bits: bigint | undefined): Constant | undefined {
    if (v.type === to) return v;
    // A pointer to an aggregate cast to a pointer to its first element: a getelementptr to it.
    if (v.type.kind === 'pointer' && to.kind === 'pointer') {
      // (Version 7 indexes structs and arrays alike with i32 zeros.)
      const zero = intConstant(I32, 0n);
      const indices = firstElementIndices(v.type.element, to.element, zero, zero);
      if (indices !== undefined) return this.getElementPtr(v, indices);
    }
    if (v.kind === 'null') return { kind: 'null', type: to };
    if (bits !== undefined) {
      if (to.kind === 'integer') return v;
      const view = new DataView(new ArrayBuffer(8));
      if (to.kind === 'float') {
        view.setUint32(0, Number(bits));
        return { kind: 'fp', type: to, value: view.getFloat32(0), bits };
      }
      if (to.kind === 'double') {
        view.setBigUint64(0, bits);
        return { kind: 'fp', type: to, value: view.getFloat64(0), bits };
      }
      return undefined;
    }
    if (v.kind === 'fp' && (to === I32 || to === integerType(64))) return intConstant(to, v.bits);
    return undefined;
  }

  /** `ConstantExpr::get` of a binary operator. */
  binary(op: Opcode, a: Constant, b: Constant): Constant {
    return this.foldBinary(op, a, b) ?? this.expr(a.type, op, [a, b]);
  }

  private foldBinary(op: Opcode, a: Constant, b: Constant): Constant | undefined {
    const t = a.type;
    if (a.kind === 'undef' || b.kind === 'undef') {
      switch (op) {
        case 'add':
        case 'sub':
        case 'xor':
          return { kind: 'undef', type: t };
        case 'mul':
        case 'and':
          return nullValue(t);
        case 'udiv':
        case 'sdiv':
        case 'fdiv':
        case 'urem':
        case 'srem':
        case 'frem':
          return b.kind !== 'undef' ? nullValue(t) : b;
        case 'or':
          return t.kind === 'integer' ? intConstant(t, -1n) : undefined;
        case 'lshr':
          return a.kind === 'undef' && b.kind === 'undef' ? a : nullValue(t);
        case 'ashr':
          return a;
        case 'shl':
          return nullValue(t);
        default:
          return undefined;
      }
    }
    if (a.kind === 'expr') {
      if (b.kind === 'expr') return undefined;
      const one = bitsOf(b) === 1n && b.kind === 'int';
      const allOnes = b.kind === 'int' && b.value === -1n;
      switch (op) {
        case 'add':
        case 'sub':
        case 'xor':
          return isNullValue(b) ? a : undefined;
        case 'mul':
          if (isNullValue(b)) return b;
          return one ? a : undefined;
        case 'udiv':
        case 'sdiv':
          return one ? a : undefined;
        case 'urem':
        case 'srem':
          return one ? nullValue(b.type) : undefined;
        case 'and': {
          if (b.kind === 'int' && b.value === 0n) return b;
          if (allOnes) return a;
          const mask = bitsOf(b);
          if (mask === undefined) return undefined;
          // (zext X) & a mask covering X's bits is the zext itself.
          if (a.opcode === 'zext') {
            const possiblySet = (1n << BigInt(widthOf(a.operands[0]!.type))) - 1n;
            if ((possiblySet & mask) === possiblySet) return a;
          }
          // A function's address is at least 4-byte aligned: its low two bits are zero.
          if (isCast(a) && a.operands[0]!.kind === 'function' && mask < 4n) return nullValue(b.type);
          return undefined;
        }
        case 'or':
          if (isNullValue(b)) return a;
          return allOnes ? b : undefined;
        default:
          return undefined;
      }
    }
    if (b.kind === 'expr') return op === 'add' || op === 'mul' || op === 'and' || op === 'or' || op === 'xor' ? this.foldBinary(op, b, a) : undefined;
    if (a.kind === 'packed' && b.kind === 'packed' && op !== 'shl' && op !== 'lshr' && op !== 'ashr') {
      // EvalVectorOp: element by element, each folded as far as it goes.
      return vector(
        a.type,
        a.elements.map((e, i) => this.binary(op, e, b.elements[i]!)),
      );
    }
    const x = bitsOf(a);
    const y = bitsOf(b);
    if (x !== undefined && y !== undefined) {
      const w = widthOf(t);
      const sx = BigInt.asIntN(w, x);
      const sy = BigInt.asIntN(w, y);
      const minSigned = -(1n << BigInt(w - 1));
      switch (op) {
        case 'add':
          return intConstant(t, x + y);
        case 'sub':
          return intConstant(t, x - y);
        case 'mul':
          return intConstant(t, x * y);
        case 'udiv':
          return y === 0n ? undefined : intConstant(t, x / y);
        case 'sdiv':
          return y === 0n || (sy === -1n && sx === minSigned) ? undefined : intConstant(t, sx / sy);
        case 'urem':
          return y === 0n ? undefined : intConstant(t, x % y);
        case 'srem':
          return y === 0n || (sy === -1n && sx === minSigned) ? undefined : intConstant(t, sx % sy);
        case 'and':
          return intConstant(t, x & y);
        case 'or':
          return intConstant(t, x | y);
        case 'xor':
          return intConstant(t, x ^ y);
        case 'shl':
        case 'lshr':
        case 'ashr': {
          // The amount is read as 64 bits (`getZExtValue`), kept as 32 (`uint32_t shiftAmt`).
          const amount = BigInt.asUintN(32, y);
          if (amount === 0n) return a;
          if (amount >= BigInt(w)) return { kind: 'undef', type: t };
          if (op === 'shl') return intConstant(t, x << amount);
          return intConstant(t, op === 'lshr' ? x >> amount : sx >> amount);
        }
        default:
          return undefined;
      }
    }
    if (a.kind === 'fp' && b.kind === 'fp') {
      const x = doubleBitsOf(a);
      const y = doubleBitsOf(b);
      const p = doubleOf(x);
      const q = doubleOf(y);
      switch (op) {
        case 'add':
          return fpFromBits(
            t,
            hostArithmetic(x, y, () => p + q, true),
          );
        case 'sub':
          return fpFromBits(
            t,
            hostArithmetic(x, y, () => p - q),
          );
        case 'mul':
          return fpFromBits(
            t,
            hostArithmetic(x, y, () => p * q, true),
          );
        case 'fdiv':
          if (q === 0) {
            if (p === 0) return fpFromBits(t, QUIET_NAN);
            return fpConstant(t, Object.is(q, -0) || p < 0 ? -Infinity : Infinity);
          }
          return fpFromBits(
            t,
            hostArithmetic(x, y, () => p / q),
          );
        case 'frem':
          // fmod: (x * y) / (x * y) for a NaN operand, the default NaN for fmod(inf, y).
          return fpFromBits(t, q === 0 ? QUIET_NAN : hostArithmetic(x, y, () => p % q));
        default:
          return undefined;
      }
    }
    return undefined;
  }

  /** `ConstantExpr::getICmp`/`getFCmp`. */
  compare(op: 'icmp' | 'fcmp', predicate: IntPredicate | FloatPredicate, a: Constant, b: Constant): Constant {
    return this.foldCompare(op, predicate, a, b) ?? this.expr(I1, op, [a, b], predicate);
  }

  private foldCompare(op: 'icmp' | 'fcmp', pred: IntPredicate | FloatPredicate, a: Constant, b: Constant): Constant | undefined {
    if (a.kind === 'undef' || b.kind === 'undef') return { kind: 'undef', type: I1 };
    const weak = (c: Constant): boolean => (c.kind === 'global' || c.kind === 'function') && c.linkage === 'extern_weak';
    if (op === 'icmp' && (pred === 'eq' || pred === 'ne')) {
      const nullAndGlobal = (isNullValue(a) && isGlobal(b) && !weak(b)) || (!isNullValue(a) && isNullValue(b) && isGlobal(a) && !weak(a));
      if (nullAndGlobal) return bool(pred === 'ne');
    }
    const x = bitsOf(a);
    const y = bitsOf(b);
    if (x !== undefined && y !== undefined && op === 'icmp') {
      const w = widthOf(a.type);
      const sx = BigInt.asIntN(w, x);
      const sy = BigInt.asIntN(w, y);
      const results: Record<IntPredicate, boolean> = {
        eq: x === y,
        ne: x !== y,
        slt: sx < sy,
        sgt: sx > sy,
        sle: sx <= sy,
        sge: sx >= sy,
        ult: x < y,
        ugt: x > y,
        ule: x <= y,
        uge: x >= y,
      };
      return bool(results[pred as IntPredicate]);
    }
    if (a.kind === 'fp' && b.kind === 'fp' && op === 'fcmp') {
      const p = doubleOf(doubleBitsOf(a));
      const q = doubleOf(doubleBitsOf(b));
      const unordered = Number.isNaN(p) || Number.isNaN(q);
      const results: Record<FloatPredicate, boolean> = {
        false: false,
        true: true,
        uno: unordered,
        ord: !unordered,
        oeq: p === q,
        ueq: unordered || p === q,
        one: p !== q,
        une: unordered || p !== q,
        olt: p < q,
        ult: unordered || p < q,
        ogt: p > q,
        ugt: unordered || p > q,
        ole: p <= q,
        ule: unordered || p <= q,
        oge: p >= q,
        uge: unordered || p >= q,
      };
      return bool(results[pred as FloatPredicate]);
    }
    if (op === 'fcmp') {
      // evaluateFCmpRelation decides only a constant against itself (LLVM's were unique): equal.
      if (sameConstant(a, b)) return bool(pred === 'ueq' || pred === 'oeq' || pred === 'ule' || pred === 'ole' || pred === 'uge' || pred === 'oge');
      return undefined;
    }
    const p = pred as IntPredicate;
    const decided = decideByRelation(p, this.relation(a, b, isSignedPredicate(p)));
    if (decided !== undefined) return bool(decided);
    // A simple constant against an expression: fold the other way round.
    if (a.kind !== 'expr' && b.kind === 'expr') return this.foldCompare('icmp', SWAPPED[p], b, a);
    return undefined;
  }

  /**
   * r36867's `evaluateICmpRelation`: what can be said of `v1` against `v2` (`eq`, `ult`, …, `ne`),
   * or undefined; the more complex operand (expression, then global) is looked at first.
   */
  private relation(v1: Constant, v2: Constant, signed: boolean): IntPredicate | undefined {
    if (sameConstant(v1, v2)) return 'eq';
    const weak = (c: Constant): boolean => (c.kind === 'global' || c.kind === 'function') && c.linkage === 'extern_weak';
    const swap = (r: IntPredicate | undefined): IntPredicate | undefined => (r === undefined ? undefined : SWAPPED[r]);
    const lt: IntPredicate = signed ? 'slt' : 'ult';
    const gt: IntPredicate = signed ? 'sgt' : 'ugt';
    if (v1.kind !== 'expr' && !isGlobal(v1)) {
      if (!isGlobal(v2) && v2.kind !== 'expr') {
        for (const p of ['eq', lt, gt] as const) {
          const r = this.foldCompare('icmp', p, v1, v2);
          if (r !== undefined && r.kind === 'bool' && r.value) return p;
        }
        return undefined;
      }
      return swap(this.relation(v2, v1, signed));
    }
    if (isGlobal(v1)) {
      if (v2.kind === 'expr') return swap(this.relation(v2, v1, signed));
      if (isGlobal(v2)) return !weak(v1) || !weak(v2) ? 'ne' : undefined;
      return !weak(v1) ? 'ne' : undefined;
    }
    if (v1.kind !== 'expr') return undefined;
    const op0 = v1.operands[0]!;
    switch (v1.opcode) {
      case 'uitofp':
      case 'sitofp':
      case 'inttoptr':
      case 'bitcast':
      case 'zext':
      case 'sext':
      case 'ptrtoint': {
        // A cast that keeps the bits, against null: compare what was cast.
        const sg = v1.opcode === 'zext' ? false : v1.opcode === 'sext' ? true : v1.opcode === 'ptrtoint' ? false : signed;
        if (isNullValue(v2) && (v1.type.kind === 'pointer' || v1.type.kind === 'integer')) {
          const zero = nullValue(op0.type);
          return zero === undefined ? undefined : this.relation(op0, zero, sg);
        }
        if (v2.kind === 'expr' && isCast(v2) && v1.type.kind === 'pointer' && op0.type === v2.operands[0]!.type && op0.type.kind === 'integer')
          return this.relation(op0, v2.operands[0]!, sg);
        return undefined;
      }
      case 'getelementptr':
        return this.gepRelation(v1, v2, signed);
      default:
        return undefined;
    }
  }

  private gepRelation(v1: Constant & { kind: 'expr' }, v2: Constant, signed: boolean): IntPredicate | undefined {
    const weak = (c: Constant): boolean => (c.kind === 'global' || c.kind === 'function') && c.linkage === 'extern_weak';
    const op0 = v1.operands[0]!;
    const lt: IntPredicate = signed ? 'slt' : 'ult';
    const gt: IntPredicate = signed ? 'sgt' : 'ugt';
    if (v2.kind === 'null') {
      if (isGlobal(op0)) return weak(op0) ? (signed ? 'sge' : 'uge') : gt;
      if (op0.kind === 'null') return v1.operands.slice(1).some((i) => !isNullValue(i)) ? gt : 'eq';
      return undefined;
    }
    if (isGlobal(v2)) {
      if (op0.kind === 'null') return weak(v2) ? (signed ? 'sle' : 'ule') : lt;
      if (isGlobal(op0)) return op0 === v2 ? gt : 'ne';
      return undefined;
    }
    if (v2.kind !== 'expr' || v2.opcode !== 'getelementptr') return undefined;
    const base2 = v2.operands[0]!;
    if (!isGlobal(op0) || !isGlobal(base2)) return undefined;
    if (op0 !== base2) return 'ne';
    // Both over one global: the first index that differs orders them.
    const a = v1.operands;
    const b = v2.operands;
    let stepped: Type = op0.type;
    let i = 1;
    for (; i < a.length && i < b.length; i++) {
      const over = steppedType(stepped, a[i]!);
      if (over === undefined) return undefined;
      const c = indexCompare(a[i]!, b[i]!, over);
      if (c === -1) return lt;
      if (c === 1) return gt;
      if (c === -2) return undefined;
      stepped = over;
    }
    for (; i < a.length; i++) if (!isNullValue(a[i]!)) return a[i]!.kind === 'int' || a[i]!.kind === 'bool' ? gt : undefined;
    for (; i < b.length; i++) if (!isNullValue(b[i]!)) return b[i]!.kind === 'int' || b[i]!.kind === 'bool' ? lt : undefined;
    return 'eq';
  }

  /** `ConstantExpr::getSelect`. */
  select(c: Constant, a: Constant, b: Constant): Constant {
    const bits = bitsOf(c);
    if (bits !== undefined) return bits !== 0n ? a : b;
    if (a.kind === 'undef') return b;
    if (b.kind === 'undef') return a;
    if (c.kind === 'undef') return a;
    if (sameConstant(a, b)) return a;
    return this.expr(a.type, 'select', [c, a, b]);
  }

  /** `ConstantExpr::getExtractElement`. */
  extractElement(v: Constant, index: Constant): Constant {
    const el = v.type.kind === 'packed' ? v.type.element : undefined;
    if (el !== undefined) {
      if (v.kind === 'undef') return { kind: 'undef', type: el };
      if (isNullValue(v)) return nullValue(el) ?? this.expr(el, 'extractelement', [v, index]);
      if (v.kind === 'packed') {
        const i = bitsOf(index);
        if (i !== undefined && i < BigInt(v.elements.length)) return v.elements[Number(i)]!;
        if (index.kind === 'undef') return v.elements[0]!;
      }
    }
    return this.expr(el ?? v.type, 'extractelement', [v, index]);
  }

  /** `ConstantExpr::getInsertElement`. */
  insertElement(v: Constant, element: Constant, index: Constant): Constant {
    const i = bitsOf(index);
    // An undef or zero vector is expanded element by element: only up to a bound (its length
    // comes from the text's type, not from elements it wrote).
    if (i !== undefined && v.type.kind === 'packed' && v.type.length <= MAX_EXPANDED_VECTOR) {
      const n = v.type.length;
      const at = (k: number): boolean => BigInt(k) === i;
      if (v.kind === 'undef') {
        if (element.kind === 'undef') return v;
        return vector(
          v.type,
          Array.from({ length: n }, (_, k) => (at(k) ? element : { kind: 'undef', type: element.type })),
        );
      }
      if (v.kind === 'zeroinitializer') {
        if (isNullValue(element)) return v;
        const zero = nullValue(element.type);
        if (zero !== undefined)
          return vector(
            v.type,
            Array.from({ length: n }, (_, k) => (at(k) ? element : zero)),
          );
      }
      if (v.kind === 'packed')
        return vector(
          v.type,
          v.elements.map((e, k) => (at(k) ? element : e)),
        );
    }
    return this.expr(v.type, 'insertelement', [v, element, index]);
  }

  /** `ConstantExpr::getGetElementPtr`. */
  getElementPtr(base: Constant, indices: Constant[]): Constant {
    if (indices.length === 0 || (indices.length === 1 && isNullValue(indices[0]!))) return base;
    const resultType = (): PointerType => this.host.pointerTo(this.host.indexedType(base.type, indices));
    if (base.kind === 'undef') return { kind: 'undef', type: resultType() };
    if (isNullValue(base) && indices.every(isNullValue)) return { kind: 'null', type: resultType() };
    if (base.kind === 'expr') {
      const first = indices[0]!;
      if (base.opcode === 'getelementptr' && isNullValue(first) && base.operands.length > 1) {
        const inner = base.operands;
        return this.getElementPtr(inner[0]!, [...inner.slice(1), ...indices.slice(1)]);
      }
      if (isCast(base) && indices.length > 1 && isNullValue(first)) {
        const source = base.operands[0]!.type;
        const sourceArray = source.kind === 'pointer' ? source.element : undefined;
        const castArray = base.type.kind === 'pointer' ? base.type.element : undefined;
        if (sourceArray?.kind === 'array' && castArray?.kind === 'array' && sourceArray.element === castArray.element)
          return this.getElementPtr(base.operands[0]!, indices);
      }
    }
    return this.expr(resultType(), 'getelementptr', [base, ...indices]);
  }
}

/** `ConstantVector::get`: all elements null is the zero vector. */
function vector(type: Type, elements: Constant[]): Constant {
  if (elements.every(isNullValue)) return { kind: 'zeroinitializer', type };
  return { kind: 'packed', type, elements };
}

/**
 * r36867's `CastInst::isEliminableCastPair` table (rows: the first cast, columns: the second, in
 * CAST_OPCODES order): 0 never, 1 the first's opcode, 2 the second's, 3–13 the rules below, 99 a
 * pair that cannot meet (the middle types differ).
 */
const CAST_PAIRS: readonly (readonly number[])[] = [
  [1, 0, 0, 99, 99, 0, 0, 99, 99, 99, 0, 3], // trunc
  [8, 1, 9, 99, 99, 2, 0, 99, 99, 99, 2, 3], // zext
  [8, 0, 1, 99, 99, 0, 2, 99, 99, 99, 0, 3], // sext
  [0, 0, 0, 99, 99, 0, 0, 99, 99, 99, 0, 3], // fptoui
  [0, 0, 0, 99, 99, 0, 0, 99, 99, 99, 0, 3], // fptosi
  [99, 99, 99, 0, 0, 99, 99, 0, 0, 99, 99, 4], // uitofp
  [99, 99, 99, 0, 0, 99, 99, 0, 0, 99, 99, 4], // sitofp
  [99, 99, 99, 0, 0, 99, 99, 1, 0, 99, 99, 4], // fptrunc
  [99, 99, 99, 2, 2, 99, 99, 10, 2, 99, 99, 4], // fpext
  [1, 0, 0, 99, 99, 0, 0, 99, 99, 99, 7, 3], // ptrtoint
  [99, 99, 99, 99, 99, 99, 99, 99, 99, 13, 99, 12], // inttoptr
  [5, 5, 5, 6, 6, 5, 5, 6, 6, 11, 5, 1], // bitcast
];

/** `Type::getPrimitiveSizeInBits` (0 for pointers and aggregates). */
function primitiveBits(t: Type): number {
  switch (t.kind) {
    case 'float':
      return 32;
    case 'double':
      return 64;
    case 'integer':
      return t.bits;
    case 'packed':
      return t.length * primitiveBits(t.element);
    default:
      return 0;
  }
}

/** The one cast that does what `first` then `second` do, or undefined (the folder passed i64 as the pointer-sized integer). */
function eliminableCastPair(first: CastOpcode, second: CastOpcode, src: Type, mid: Type, dst: Type): CastOpcode | undefined {
  const rule = CAST_PAIRS[CAST_OPCODES.indexOf(first)]![CAST_OPCODES.indexOf(second)]!;
  const isFP = (t: Type): boolean => t.kind === 'float' || t.kind === 'double';
  const pointerBits = 64;
  switch (rule) {
    case 1:
      return first;
    case 2:
      return second;
    case 3:
      return dst.kind === 'integer' ? first : undefined;
    case 4:
      return isFP(dst) ? first : undefined;
    case 5:
      return src.kind === 'integer' ? second : undefined;
    case 6:
      return isFP(src) ? second : undefined;
    case 7:
      return primitiveBits(mid) >= pointerBits ? 'bitcast' : undefined;
    case 8: {
      const s = primitiveBits(src);
      const d = primitiveBits(dst);
      return s === d ? 'bitcast' : s < d ? first : second;
    }
    case 9:
      return 'zext';
    case 10:
      return src === dst ? 'bitcast' : undefined;
    case 11:
      return src.kind === 'pointer' && mid.kind === 'pointer' ? second : undefined;
    case 12:
      return mid.kind === 'pointer' && dst.kind === 'pointer' ? first : undefined;
    case 13: {
      const s = primitiveBits(src);
      return s <= pointerBits && s === primitiveBits(dst) ? 'bitcast' : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * r36867's `APIntOps::RoundDoubleToAPInt`: the integer part of a double from its bits, kept to
 * `width` bits; 0 where the exponent puts every mantissa bit above the width (infinities and NaNs
 * among them).
 */
function roundDoubleToInt(d: number, width: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const exp = Number((bits >> 52n) & 0x7ffn) - 1023;
  if (exp < 0) return 0n;
  const mantissa = (bits & ((1n << 52n) - 1n)) | (1n << 52n);
  let v: bigint;
  if (exp < 52) v = BigInt.asUintN(width, mantissa >> BigInt(52 - exp));
  else if (width <= exp - 52) return 0n;
  else v = BigInt.asUintN(width, BigInt.asUintN(width, mantissa) << BigInt(exp - 52));
  return negative ? -v : v;
}

const SWAPPED: Readonly<Record<IntPredicate, IntPredicate>> = {
  eq: 'eq',
  ne: 'ne',
  ult: 'ugt',
  ugt: 'ult',
  ule: 'uge',
  uge: 'ule',
  slt: 'sgt',
  sgt: 'slt',
  sle: 'sge',
  sge: 'sle',
};

const isSignedPredicate = (p: IntPredicate): boolean => p === 'slt' || p === 'sgt' || p === 'sle' || p === 'sge';

/** What a known relation of the operands says of `pred` (r36867's table, its partial cases included as written). */
function decideByRelation(pred: IntPredicate, relation: IntPredicate | undefined): boolean | undefined {
  switch (relation) {
    case 'eq':
      return pred === 'eq' || pred === 'ule' || pred === 'sle' || pred === 'uge' || pred === 'sge';
    case 'ult':
      return pred === 'ult' || pred === 'ne' || pred === 'ule';
    case 'slt':
      return pred === 'slt' || pred === 'ne' || pred === 'sle';
    case 'ugt':
      return pred === 'ugt' || pred === 'ne' || pred === 'uge';
    case 'sgt':
      return pred === 'sgt' || pred === 'ne' || pred === 'sge';
    case 'ule':
      return pred === 'ugt' ? false : pred === 'ult' ? true : undefined;
    case 'sle':
      return pred === 'sgt' ? false : pred === 'slt' ? true : undefined;
    case 'uge':
      return pred === 'ult' ? false : pred === 'ugt' ? true : undefined;
    case 'sge':
      return pred === 'slt' ? false : pred === 'sgt' ? true : undefined;
    case 'ne':
      return pred === 'eq' ? false : pred === 'ne' ? true : undefined;
    default:
      return undefined;
  }
}

/** `gep_type_iterator::getIndexedType`: what indexing `t` (a pointer, struct, array or vector) by `index` reaches. */
function steppedType(t: Type, index: Constant): Type | undefined {
  switch (t.kind) {
    case 'pointer':
    case 'array':
    case 'packed':
      return t.element;
    case 'struct': {
      const i = bitsOf(index);
      return i === undefined ? undefined : t.elements[Number(i)];
    }
    default:
      return undefined;
  }
}

/** `isMaybeZeroSizedType`: an opaque type, an empty structure, or structures and arrays of nothing else (an array's length does not count). */
function maybeZeroSized(t: Type, seen = new Set<Type>()): boolean {
  if (seen.has(t)) return false;
  seen.add(t);
  if (t.kind === 'opaque') return true;
  if (t.kind === 'struct') return t.elements.every((e) => maybeZeroSized(e, seen));
  if (t.kind === 'array') return maybeZeroSized(t.element, seen);
  return false;
}

/** r36867's `IdxCompare`: -1, 0 or 1 for two integer indices over `over`, -2 when it cannot tell. */
function indexCompare(a: Constant, b: Constant, over: Type): number {
  if (sameConstant(a, b)) return 0;
  const x = bitsOf(a);
  const y = bitsOf(b);
  if (x === undefined || y === undefined || a.kind === 'bool' || b.kind === 'bool') return -2;
  const sx = BigInt.asIntN(widthOf(a.type), x);
  const sy = BigInt.asIntN(widthOf(b.type), y);
  if (sx === sy) return 0;
  if (maybeZeroSized(over)) return -2;
  return sx < sy ? -1 : 1;
}
