/**
 * LLVM 1.9's constant folder: what `ConstantExpr::get*` returned instead of a new expression
 * (lib/VMCore/ConstantFold.cpp and Constants.cpp at r31488). LLVM folded every constant
 * expression as it built it — the parser, the bytecode reader, the optimizers — so text such as
 * `seteq (int* %a, int* %b)` of two globals became `false`, a cast of a pointer to an array
 * became a `getelementptr` to its first element, `add (int 1, int 2)` became `int 3`.
 *
 * `ConstantFolder.cast` / `binary` / `getElementPtr` / `select` / `extractElement` /
 * `insertElement` / `shuffleVector` each return the folded constant, or the expression itself,
 * made unique through the host (LLVM's constants were unique objects, and several rules compare
 * them by identity). Simple arithmetic is in scalar.ts.
 */
import { isFloatingPoint, isInteger, primitiveTypes as P, type PackedType, type PointerType, type Type } from '../graph/type.js';
import type { Constant, ConstantExpr, Opcode } from '../graph/value.js';
import {
  allOnesOf,
  boolOf,
  foldEqualTo,
  foldLessThan,
  foldScalarBinary,
  foldScalarCast,
  fpOf,
  intOf,
  isAllOnes,
  isNullValue,
  nullOf,
  rulesFor,
  sext,
  zext,
  type BinaryOpcode,
} from './scalar.js';
import { integerBits } from '../graph/type.js';
import { isSetccOpcode } from '../graph/opcodes.js';

/** What the folder needs from whoever builds the constants. */
export interface FoldHost {
  /** The one constant equal to `c` (LLVM's uniquing): equal constants must come back as one object. */
  unique(c: Constant): Constant;
  /** The pointer type to `t`, as the module knows it. */
  pointerTo(t: Type): PointerType;
}

export type Comparison = 'seteq' | 'setne' | 'setlt' | 'setgt' | 'setle' | 'setge';
const SWAPPED: Record<Comparison, Comparison> = { seteq: 'seteq', setne: 'setne', setlt: 'setgt', setgt: 'setlt', setle: 'setge', setge: 'setle' };

export function isComparison(op: string): op is Comparison {
  return isSetccOpcode(op);
}

/** LLVM's primitive size in bytes, pointers (and anything without one) counted as 8. */
function castSize(t: Type): number {
  switch (t.kind) {
    case 'bool':
    case 'sbyte':
    case 'ubyte':
      return 1;
    case 'short':
    case 'ushort':
      return 2;
    case 'int':
    case 'uint':
    case 'float':
      return 4;
    case 'long':
    case 'ulong':
    case 'double':
      return 8;
    default:
      return 8;
  }
}

/** `Type::getPrimitiveSize` in bytes, 0 for pointers and derived types. */
function primitiveSize(t: Type): number {
  return t.kind === 'pointer' ||
    t.kind === 'void' ||
    t.kind === 'label' ||
    !['bool', 'sbyte', 'ubyte', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double'].includes(t.kind)
    ? 0
    : castSize(t);
}

const isGlobal = (c: Constant): boolean => c.kind === 'global' || c.kind === 'function';

/** The type a getelementptr index list reaches from a pointer type (`getIndexedType`, allowing a struct index of any constant). */
function indexedType(pointer: Type, indices: readonly Constant[]): Type | undefined {
  if (pointer.kind !== 'pointer') return undefined;
  let t: Type = pointer.element;
  for (let i = 1; i < indices.length; i++) {
    const idx = indices[i]!;
    if (t.kind === 'struct') {
      if (idx.kind !== 'int') return undefined;
      const field = t.elements[Number(idx.value)];
      if (field === undefined) return undefined;
      t = field;
    } else if (t.kind === 'array' || t.kind === 'packed') t = t.element;
    else return undefined;
  }
  return t;
}

/** The types a getelementptr's indices step through (`gep_type_iterator`): the pointer, then each composite indexed. */
function gepStepTypes(pointer: Type, indices: readonly Constant[]): Type[] {
  const steps: Type[] = [pointer];
  let t: Type | undefined = pointer.kind === 'pointer' ? pointer.element : undefined;
  for (let i = 1; i < indices.length && t !== undefined; i++) {
    steps.push(t);
    const idx = indices[i]!;
    if (t.kind === 'struct') t = idx.kind === 'int' ? t.elements[Number(idx.value)] : undefined;
    else if (t.kind === 'array' || t.kind === 'packed') t = t.element;
    else t = undefined;
  }
  return steps;
}

/** Whether a type may have size zero (an empty struct, arrays of such, an opaque type). */
function isMaybeZeroSized(t: Type, seen = new Set<Type>()): boolean {
  if (t.kind === 'opaque') return true;
  if (seen.has(t)) return false;
  seen.add(t);
  if (t.kind === 'struct') return t.elements.every((e) => isMaybeZeroSized(e, seen));
  if (t.kind === 'array') return isMaybeZeroSized(t.element, seen);
  return false;
}

type Relation = Comparison | 'unknown';

/**
 * The indices of a getelementptr from a pointer to `from` to its first element of type `to`, at
 * any depth (`int 0` first and into arrays and vectors, `uint 0` into structs), or undefined when
 * `to` is no first element of `from`. A type met twice stops the walk: LLVM looped forever on a
 * type that is its own first element.
 */
export function firstElementIndices(from: Type, to: Type, intZero: Constant, uintZero: Constant): Constant[] | undefined {
  const indices: Constant[] = [intZero];
  let t = from;
  const seen = new Set<Type>();
  while (t !== to && !seen.has(t)) {
    seen.add(t);
    if (t.kind === 'struct') {
      if (t.elements.length === 0) break;
      t = t.elements[0]!;
      indices.push(uintZero);
    } else if (t.kind === 'array' || t.kind === 'packed') {
      t = t.element;
      indices.push(intZero);
    } else break;
  }
  return t === to ? indices : undefined;
}

export class ConstantFolder {
  constructor(private readonly host: FoldHost) {}

  private u(c: Constant): Constant {
    return this.host.unique(c);
  }

  private expr(opcode: Opcode, type: Type, operands: Constant[]): Constant {
    const e: ConstantExpr = { kind: 'expr', opcode, type, operands };
    return this.u(e);
  }

  // -------------------------------------------------------------------------------------------
  // ConstantExpr::get*

  /** `ConstantExpr::getCast`. */
  cast(v: Constant, to: Type): Constant {
    return this.foldCast(v, to) ?? this.expr('cast', to, [v]);
  }

  /** `ConstantExpr::get` for a binary operator, a shift or a comparison (the `set*` opcodes). */
  binary(op: BinaryOpcode | Comparison, a: Constant, b: Constant): Constant {
    return this.foldBinary(op, a, b) ?? this.expr(op, isComparison(op) ? P.bool : a.type, [a, b]);
  }

  /** `ConstantExpr::getGetElementPtr`. */
  getElementPtr(base: Constant, indices: readonly Constant[]): Constant {
    const folded = this.foldGetElementPtr(base, indices);
    if (folded !== undefined) return folded;
    const t = indexedType(base.type, indices);
    if (t === undefined) throw new Error('internal error: getelementptr indices the caller did not check (the assembler refuses them first)');
    return this.expr('getelementptr', this.host.pointerTo(t), [base, ...indices]);
  }

  /** `ConstantExpr::getSelect`. */
  select(cond: Constant, a: Constant, b: Constant): Constant {
    return this.foldSelect(cond, a, b) ?? this.expr('select', a.type, [cond, a, b]);
  }

  extractElement(vector: Constant, index: Constant): Constant {
    return this.foldExtractElement(vector, index) ?? this.expr('extractelement', (vector.type as PackedType).element, [vector, index]);
  }

  insertElement(vector: Constant, element: Constant, index: Constant): Constant {
    return this.foldInsertElement(vector, element, index) ?? this.expr('insertelement', vector.type, [vector, element, index]);
  }

  /** LLVM 1.9 folded no shufflevector. */
  shuffleVector(a: Constant, b: Constant, mask: Constant): Constant {
    return this.expr('shufflevector', a.type, [a, b, mask]);
  }

  /** `getNot`: xor with all ones. */
  private not(c: Constant): Constant {
    return this.binary('xor', c, this.u(allOnesOf(c.type)));
  }

  private packed(type: Type, elements: Constant[]): Constant {
    return this.u({ kind: 'packed', type, elements });
  }

  // -------------------------------------------------------------------------------------------
  // ConstantFoldCastInstruction

  private foldCast(v: Constant, to: Type): Constant | undefined {
    if (v.type === to) return v;
    if (isGlobal(v)) {
      // The address of a global is never null.
      if (to.kind === 'bool') return this.u(boolOf(true));
    } else if (v.kind === 'expr') {
      if (v.opcode === 'cast') {
        const op = v.operands[0]!;
        // A cast of a cast, where no float is involved and the sizes allow, is one cast.
        if (!isFloatingPoint(op.type) && !isFloatingPoint(v.type) && !isFloatingPoint(to)) {
          const s1 = castSize(op.type);
          const s2 = castSize(v.type);
          const s3 = castSize(to);
          if (op.type === to && s3 >= s2) return op;
          if (s1 >= s2 && s2 >= s3) return this.cast(op, to);
          if (s1 <= s2 && s2 >= s3 && s1 <= s3) return this.cast(op, to);
        }
      } else if (v.opcode === 'getelementptr') {
        // A getelementptr of zeros does not move the pointer: cast its base.
        if (v.operands.slice(1).every(isNullValue)) return this.cast(v.operands[0]!, to);
      }
    } else if (v.kind === 'undef') {
      return this.u({ kind: 'undef', type: to });
    }

    // A pointer to an aggregate cast to a pointer to its first element (at any depth) is a
    // getelementptr of zeros.
    if (v.type.kind === 'pointer' && to.kind === 'pointer') {
      const indices = firstElementIndices(v.type.element, to.element, this.u(intOf(P.int, 0n)), this.u(intOf(P.uint, 0n)));
      if (indices !== undefined) return this.getElementPtr(v, indices);
    }

    if (to.kind === 'packed' && v.type.kind === 'packed') {
      if (v.kind === 'zeroinitializer' || (v.kind === 'packed' && v.elements.every(isNullValue))) return this.u(nullOf(to));
      if (v.kind === 'undef') return this.u({ kind: 'undef', type: to });
      if (v.kind === 'packed' && v.elements.every((e) => e.kind === 'int' || e.kind === 'fp')) return this.castPacked(v.elements, v.type, to);
    }

    if (v.kind === 'packed') return undefined;
    const folded = foldScalarCast(v, to);
    return folded === undefined ? undefined : this.u(folded);
  }

  /** `CastConstantPacked`: element by element when the counts match (bits reinterpreted between int and fp). */
  private castPacked(elements: readonly Constant[], from: PackedType, to: PackedType): Constant | undefined {
    if (from.length !== to.length) return undefined;
    const src = from.element;
    const dst = to.element;
    if (isInteger(src) && isInteger(dst))
      return this.packed(
        to,
        elements.map((e) => this.cast(e, dst)),
      );
    const view = new DataView(new ArrayBuffer(8));
    if (isInteger(src)) {
      return this.packed(
        to,
        elements.map((e) => {
          const bits = e.kind === 'int' ? zext(e.value, integerBits(src)) : 0n;
          if (dst.kind === 'double') {
            view.setBigUint64(0, BigInt.asUintN(64, bits));
            return this.u(fpOf(dst, view.getFloat64(0)));
          }
          view.setUint32(0, Number(BigInt.asUintN(32, bits)));
          return this.u(fpOf(dst, view.getFloat32(0)));
        }),
      );
    }
    return this.packed(
      to,
      elements.map((e) => {
        const bits = e.kind === 'fp' ? e.bits : 0n;
        return this.cast(this.u(intOf(src.kind === 'double' ? P.ulong : P.uint, bits)), dst);
      }),
    );
  }

  // -------------------------------------------------------------------------------------------
  // ConstantFoldBinaryInstruction

  private same = (a: Constant, b: Constant): boolean => a === b;

  private foldBinary(op: BinaryOpcode | Comparison, a: Constant, b: Constant): Constant | undefined {
    const c = this.foldByRules(op, a, b);
    if (c !== undefined) return c;

    if (isComparison(op)) {
      if (a.kind === 'undef' || b.kind === 'undef') return this.u({ kind: 'undef', type: P.bool });
      const known = (v: boolean): Constant => this.u(boolOf(v));
      switch (this.evaluateRelation(a, b)) {
        case 'seteq':
          return known(op === 'seteq' || op === 'setle' || op === 'setge');
        case 'setlt':
          return known(op === 'setlt' || op === 'setne' || op === 'setle');
        case 'setgt':
          return known(op === 'setgt' || op === 'setne' || op === 'setge');
        case 'setle':
          if (op === 'setgt') return known(false);
          if (op === 'setlt') return known(true);
          break;
        case 'setge':
          if (op === 'setlt') return known(false);
          if (op === 'setgt') return known(true);
          break;
        case 'setne':
          if (op === 'seteq') return known(false);
          if (op === 'setne') return known(true);
          break;
        default:
          break;
      }
    }

    if (a.kind === 'undef' || b.kind === 'undef') {
      switch (op) {
        case 'add':
        case 'sub':
        case 'xor':
          return this.u({ kind: 'undef', type: a.type });
        case 'mul':
        case 'and':
          return this.u(nullOf(a.type));
        case 'udiv':
        case 'sdiv':
        case 'fdiv':
        case 'urem':
        case 'srem':
        case 'frem':
          return b.kind !== 'undef' ? this.u(nullOf(a.type)) : b;
        case 'or':
          return this.u(allOnesOf(a.type));
        case 'shr': {
          const signed = a.type.kind === 'sbyte' || a.type.kind === 'short' || a.type.kind === 'int' || a.type.kind === 'long';
          if (b.kind !== 'undef') {
            if (signed) return a;
          } else if (a.kind === 'undef') return a;
          else if (signed) return a;
          return this.u(nullOf(a.type));
        }
        case 'shl':
          return this.u(nullOf(a.type));
        default:
          break;
      }
    }

    if (a.kind === 'expr') {
      if (b.kind !== 'expr') {
        // A few identities.
        switch (op) {
          case 'add':
          case 'sub':
          case 'xor':
            if (isNullValue(b)) return a;
            break;
          case 'mul':
            if (isNullValue(b)) return b;
            if (b.kind === 'int' && zext(b.value, integerBits(b.type)) === 1n) return a;
            break;
          case 'udiv':
          case 'sdiv':
            if (b.kind === 'int' && zext(b.value, integerBits(b.type)) === 1n) return a;
            break;
          case 'urem':
          case 'srem':
            if (b.kind === 'int' && zext(b.value, integerBits(b.type)) === 1n) return this.u(nullOf(b.type));
            break;
          case 'and':
            if (isAllOnes(b)) return a;
            if (isNullValue(b)) return b;
            // Functions are at least 4-byte aligned.
            if (a.opcode === 'cast' && a.operands[0]!.kind === 'function' && b.kind === 'int' && zext(b.value, integerBits(b.type)) < 4n)
              return this.u(nullOf(b.type));
            break;
          case 'or':
            if (isNullValue(b)) return a;
            if (isAllOnes(b)) return b;
            break;
          default:
            break;
        }
      }
    } else if (b.kind === 'expr') {
      // An expression on the right: fold the other way round where the operation allows.
      switch (op) {
        case 'add':
        case 'mul':
        case 'and':
        case 'or':
        case 'xor':
        case 'seteq':
        case 'setne':
          return this.foldBinary(op, b, a);
        case 'setlt':
        case 'setgt':
        case 'setle':
        case 'setge':
          return this.foldBinary(SWAPPED[op], b, a);
        default:
          break;
      }
    }
    return undefined;
  }

  /** The rule-table part of the folder (`ConstRules`), comparisons included. */
  private foldByRules(op: BinaryOpcode | Comparison, a: Constant, b: Constant): Constant | undefined {
    const rules = rulesFor(a, b);
    const result = (c: Constant | undefined): Constant | undefined => (c === undefined ? undefined : this.u(c));
    if (rules === 'packed') return this.foldPacked(op, a as Constant & { kind: 'packed' }, b as Constant & { kind: 'packed' });
    switch (op) {
      case 'seteq':
        return result(foldEqualTo(a, b, this.same));
      case 'setne': {
        const eq = foldEqualTo(a, b, this.same);
        return eq === undefined ? undefined : this.not(this.u(eq));
      }
      case 'setlt':
        return result(foldLessThan(a, b));
      case 'setgt':
        return result(foldLessThan(b, a));
      case 'setle': {
        const gt = foldLessThan(b, a);
        return gt === undefined ? undefined : this.not(this.u(gt));
      }
      case 'setge': {
        const lt = foldLessThan(a, b);
        return lt === undefined ? undefined : this.not(this.u(lt));
      }
      default:
        return result(foldScalarBinary(op, a, b));
    }
  }

  /** `ConstantPackedRules`: element by element; `==` decided by the first element pair that folds. */
  private foldPacked(op: BinaryOpcode | Comparison, a: Constant & { kind: 'packed' }, b: Constant & { kind: 'packed' }): Constant | undefined {
    if (isComparison(op)) {
      if (op !== 'seteq' && op !== 'setne') return undefined;
      for (let i = 0; i < a.elements.length; i++) {
        const c = this.binary('seteq', a.elements[i]!, b.elements[i]!);
        if (c.kind === 'bool') return op === 'seteq' ? c : this.not(c);
      }
      return undefined;
    }
    return this.packed(
      a.type,
      a.elements.map((x, i) => this.binary(op, x, b.elements[i]!)),
    );
  }

  /** `evaluateRelation`: what can be said of two constants that are not both simple. */
  private evaluateRelation(v1: Constant, v2: Constant): Relation {
    if (v1 === v2) return 'seteq';
    const complex = (c: Constant): boolean => c.kind === 'expr' || isGlobal(c);
    if (!complex(v1)) {
      if (!complex(v2)) {
        // Two simple constants the rules could not compare (LLVM recursed here without end).
        if (this.relatingSimple) return 'unknown';
        this.relatingSimple = true;
        try {
          return this.simpleRelation(v1, v2);
        } finally {
          this.relatingSimple = false;
        }
      }
      const swapped = this.evaluateRelation(v2, v1);
      return swapped === 'unknown' ? 'unknown' : SWAPPED[swapped];
    }
    return this.complexRelation(v1, v2);
  }

  private relatingSimple = false;

  private simpleRelation(v1: Constant, v2: Constant): Relation {
    const holds = (c: Constant | undefined): boolean => c !== undefined && c.kind === 'bool' && c.value;
    if (holds(this.foldBinary('seteq', v1, v2))) return 'seteq';
    if (holds(this.foldBinary('setlt', v1, v2))) return 'setlt';
    if (holds(this.foldBinary('setgt', v1, v2))) return 'setgt';
    return 'unknown';
  }

  private complexRelation(v1: Constant, v2: Constant): Relation {
    if (isGlobal(v1)) {
      if (v2.kind === 'expr') {
        const swapped = this.evaluateRelation(v2, v1);
        return swapped === 'unknown' ? 'unknown' : SWAPPED[swapped];
      }
      // Another global, or null: different addresses, and a global is never null.
      return 'setne';
    }
    const ce1 = v1 as ConstantExpr;
    const op0 = ce1.operands[0]!;
    if (ce1.opcode === 'cast') {
      if (isNullValue(v2) && (ce1.type.kind === 'pointer' || isInteger(ce1.type) || ce1.type.kind === 'bool')) {
        return this.evaluateRelation(op0, this.u(nullOf(op0.type)));
      }
      if (
        v2.kind === 'expr' &&
        ce1.type.kind === 'pointer' &&
        v2.opcode === 'cast' &&
        op0.type === v2.operands[0]!.type &&
        (isInteger(op0.type) || op0.type.kind === 'bool')
      ) {
        return this.evaluateRelation(op0, v2.operands[0]!);
      }
      return 'unknown';
    }
    if (ce1.opcode !== 'getelementptr') return 'unknown';
    if (v2.kind === 'null') {
      if (isGlobal(op0)) return 'setgt';
      if (op0.kind === 'null') return ce1.operands.slice(1).every(isNullValue) ? 'seteq' : 'setgt';
      return 'unknown';
    }
    if (isGlobal(v2)) {
      if (op0.kind === 'null') return 'setlt';
      if (isGlobal(op0)) return op0 === v2 ? 'setgt' : 'setne';
      return 'unknown';
    }
    if (v2.kind !== 'expr' || v2.opcode !== 'getelementptr') return 'unknown';
    const op0b = v2.operands[0]!;
    if (!isGlobal(op0) || !isGlobal(op0b)) return 'unknown';
    if (op0 !== op0b) return 'setne';
    // Both index the same global: compare the indices they share, then the rest.
    const steps = gepStepTypes(op0.type, ce1.operands.slice(1));
    const n1 = ce1.operands.length;
    const n2 = v2.operands.length;
    let i = 1;
    for (; i < n1 && i < n2; i++) {
      const cmp = this.idxCompare(ce1.operands[i]!, v2.operands[i]!, steps[i - 1] ?? op0.type);
      if (cmp === -1) return 'setlt';
      if (cmp === 1) return 'setgt';
      if (cmp === -2) return 'unknown';
    }
    for (; i < n1; i++) {
      const x = ce1.operands[i]!;
      if (!isNullValue(x)) return x.kind === 'int' || x.kind === 'bool' ? 'setgt' : 'unknown';
    }
    for (; i < n2; i++) {
      const x = v2.operands[i]!;
      if (!isNullValue(x)) return x.kind === 'int' || x.kind === 'bool' ? 'setlt' : 'unknown';
    }
    return 'seteq';
  }

  /**
   * `IdxCompare`: two getelementptr indices compared as signed longs; -2 when unknown. `step` is
   * the type the first one indexes (the type it selects decides whether offsets can differ).
   */
  private idxCompare(c1: Constant, c2: Constant, step: Type): number {
    if (c1 === c2) return 0;
    if (c1.kind !== 'int' || c2.kind !== 'int') return -2;
    const a = sext(c1.value, integerBits(c1.type));
    const b = sext(c2.value, integerBits(c2.type));
    if (a === b) return 0;
    const selected =
      step.kind === 'struct'
        ? step.elements[Number(c1.value)]
        : step.kind === 'pointer' || step.kind === 'array' || step.kind === 'packed'
          ? step.element
          : undefined;
    if (selected === undefined || isMaybeZeroSized(selected)) return -2;
    return a < b ? -1 : 1;
  }

  // -------------------------------------------------------------------------------------------
  // ConstantFoldGetElementPtr

  private foldGetElementPtr(c: Constant, indices: readonly Constant[]): Constant | undefined {
    if (indices.length === 0 || (indices.length === 1 && isNullValue(indices[0]!))) return c;
    if (c.kind === 'undef') {
      const t = indexedType(c.type, indices);
      return t === undefined ? undefined : this.u({ kind: 'undef', type: this.host.pointerTo(t) });
    }
    const idx0 = indices[0]!;
    if (isNullValue(c)) {
      if (indices.every(isNullValue)) {
        const t = indexedType(c.type, indices);
        return t === undefined ? undefined : this.u({ kind: 'null', type: this.host.pointerTo(t) });
      }
      if (indices.length === 1) {
        const size = primitiveSize((c.type as PointerType).element);
        if (size !== 0) {
          // gep null, N is N * sizeof(element).
          let r = this.cast(this.u(intOf(P.uint, BigInt(size))), idx0.type);
          r = this.binary('mul', r, idx0);
          return this.cast(r, c.type);
        }
      }
    }
    if (c.kind === 'expr') {
      if (c.opcode === 'getelementptr') {
        const steps = gepStepTypes(c.operands[0]!.type, c.operands.slice(1));
        const lastType = steps[steps.length - 1];
        if ((lastType !== undefined && lastType.kind === 'array') || isNullValue(idx0)) {
          const inner = c.operands;
          const combinedIndices = inner.slice(1, inner.length - 1);
          let combined = inner[inner.length - 1]!;
          if (!isNullValue(idx0)) {
            const indexType = combined.type === idx0.type ? combined.type : P.long;
            combined = this.binary('add', this.cast(idx0, indexType), this.cast(combined, indexType));
          }
          return this.getElementPtr(inner[0]!, [...combinedIndices, combined, ...indices.slice(1)]);
        }
      }
      // getelementptr (cast ([3 x T]* to [2 x T]*), 0, …) indexes the [3 x T] directly.
      if (c.opcode === 'cast' && indices.length > 1 && isNullValue(idx0)) {
        const source = c.operands[0]!;
        if (
          source.type.kind === 'pointer' &&
          source.type.element.kind === 'array' &&
          c.type.kind === 'pointer' &&
          c.type.element.kind === 'array' &&
          c.type.element.element === source.type.element.element
        ) {
          return this.getElementPtr(source, indices);
        }
      }
    }
    return undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Select and vector operations

  private foldSelect(cond: Constant, a: Constant, b: Constant): Constant | undefined {
    if (cond.kind === 'bool') return cond.value ? a : b;
    if (a.kind === 'undef') return b;
    if (b.kind === 'undef') return a;
    if (cond.kind === 'undef') return a;
    if (a === b) return a;
    return undefined;
  }

  private foldExtractElement(vector: Constant, index: Constant): Constant | undefined {
    const element = (vector.type as PackedType).element;
    if (vector.kind === 'undef') return this.u({ kind: 'undef', type: element });
    if (isNullValue(vector)) return this.u(nullOf(element));
    if (vector.kind === 'packed') {
      if (index.kind === 'int') return vector.elements[Number(zext(index.value, integerBits(index.type)))];
      if (index.kind === 'undef') return vector.elements[0];
    }
    return undefined;
  }

  private foldInsertElement(vector: Constant, element: Constant, index: Constant): Constant | undefined {
    if (index.kind !== 'int') return undefined;
    const at = zext(index.value, integerBits(index.type));
    const length = (vector.type as PackedType).length;
    const build = (fill: (i: number) => Constant): Constant =>
      this.packed(
        vector.type,
        Array.from({ length }, (_, i) => (BigInt(i) === at ? element : fill(i))),
      );
    if (vector.kind === 'undef') {
      if (element.kind === 'undef') return vector;
      return build(() => this.u({ kind: 'undef', type: element.type }));
    }
    if (vector.kind === 'zeroinitializer' || (vector.kind === 'packed' && isNullValue(vector))) {
      if (isNullValue(element)) return vector;
      return build(() => this.u(nullOf(element.type)));
    }
    if (vector.kind === 'packed') return build((i) => vector.elements[i]!);
    return undefined;
  }
}
