/**
 * `ConstantBuilder`: typed constructors for the graph's constants. Each checks its operands
 * against the types (an `int` constant in range, array elements of the element type, a constant
 * expression whose operands fit the operation) and throws a `BuildError` naming what is wrong.
 * The results are plain graph objects; aggregate and expression types come from the module's
 * `TypeBuilder`, so they are the module's interned types.
 */
import { describeType } from '../graph/describe.js';
import {
  integerRange,
  isFloatingPoint,
  isInteger,
  sameType,
  type ArrayType,
  type FunctionType,
  type PackedType,
  type PointerType,
  type StructType,
  type Type,
} from '../graph/type.js';
import type {
  Constant,
  ConstantAggregate,
  ConstantBool,
  ConstantExpr,
  ConstantFP,
  ConstantInt,
  ConstantNull,
  ConstantUndef,
  ConstantZero,
  InlineAsm,
  Value,
} from '../graph/value.js';
import { BuildError } from './error.js';
import {
  binaryResult,
  checkCast,
  compareResult,
  describeValue,
  gepResult,
  selectResult,
  shiftResult,
  type BinaryOpcode,
  type CompareOpcode,
  type ShiftOpcode,
} from './rules.js';
import type { TypeBuilder } from './types.js';

const CONSTANT_KINDS = new Set([
  'bool',
  'int',
  'fp',
  'null',
  'zeroinitializer',
  'undef',
  'array',
  'struct',
  'packed',
  'expr',
  'inlineasm',
  'global',
  'function',
]);

/** Refuses a non-constant (an instruction, argument or block) where a constant is needed. */
export function asConstant(operation: string, v: Value, role: string): Constant {
  if (!CONSTANT_KINDS.has(v.kind))
    throw new BuildError(operation, `${role} must be a constant, not ${v.kind === 'instruction' ? 'an instruction' : `a ${v.kind}`} (${describeValue(v)})`);
  return v as Constant;
}

/**
 * Typed constructors for constants (`mb.constants`): each checks its operands against its types
 * and throws a `BuildError` naming the mistake. Types must come from the same builder's `types`.
 *
 * @category Build
 */
export class ConstantBuilder {
  /** @internal Made by `ModuleBuilder` as `mb.constants`. */
  constructor(private readonly types: TypeBuilder) {}

  /** An integer constant; `value` must fit the type (signed types take signed values). */
  int(type: Type, value: bigint | number): ConstantInt {
    if (!isInteger(type)) throw new BuildError('int constant', `${describeType(type)} is not an integer type${type.kind === 'bool' ? ' (use bool())' : ''}`);
    if (typeof value === 'number' && !Number.isSafeInteger(value)) {
      throw new BuildError('int constant', `${value} is not a safe integer (pass a bigint for large values)`);
    }
    const v = BigInt(value);
    const [lo, hi] = integerRange(type);
    if (v < lo || v > hi) throw new BuildError('int constant', `${v} does not fit ${type.kind} (${lo} to ${hi})`);
    return { kind: 'int', type, value: v };
  }

  /** The bool constant `true` or `false`. */
  bool(value: boolean): ConstantBool {
    return { kind: 'bool', type: this.types.bool, value };
  }

  /** A float or double constant; a float's value is rounded to single precision. */
  fp(type: Type, value: number): ConstantFP {
    if (!isFloatingPoint(type)) throw new BuildError('fp constant', `${describeType(type)} is not float or double`);
    if (type.kind === 'float') {
      const f = Math.fround(value);
      if (Number.isFinite(value) && !Number.isFinite(f)) throw new BuildError('fp constant', `${value} is too large for float`);
      const buf = new DataView(new ArrayBuffer(4));
      buf.setFloat32(0, f, true);
      return { kind: 'fp', type, value: f, bits: BigInt(buf.getUint32(0, true)) };
    }
    const buf = new DataView(new ArrayBuffer(8));
    buf.setFloat64(0, value, true);
    return { kind: 'fp', type, value, bits: buf.getBigUint64(0, true) };
  }

  /** `null` of a pointer type. */
  nullPtr(type: Type): ConstantNull {
    if (type.kind !== 'pointer') throw new BuildError('null constant', `null needs a pointer type, not ${describeType(type)}`);
    return { kind: 'null', type };
  }

  /** The zero of any first-class or aggregate type: false, 0, 0.0, null or zeroinitializer. */
  zero(type: Type): Constant {
    switch (type.kind) {
      case 'bool':
        return this.bool(false);
      case 'float':
      case 'double':
        return this.fp(type, 0);
      case 'pointer':
        return this.nullPtr(type);
      case 'struct':
      case 'array':
      case 'packed':
        return { kind: 'zeroinitializer', type } satisfies ConstantZero;
      case 'void':
      case 'label':
      case 'function':
      case 'opaque':
        throw new BuildError('zero constant', `type ${describeType(type)} has no values`);
      default:
        return this.int(type, 0);
    }
  }

  /** `undef` of `type` (bytecode version 5 and later). */
  undef(type: Type): ConstantUndef {
    if (type.kind === 'void' || type.kind === 'label' || type.kind === 'function' || type.kind === 'opaque') {
      throw new BuildError('undef constant', `type ${describeType(type)} has no values`);
    }
    return { kind: 'undef', type };
  }

  /** `[ T e1, T e2, … ]` of type `[n x elementType]` (an empty array needs `elementType`). */
  array(elementType: Type, elements: readonly Constant[]): ConstantAggregate {
    elements.forEach((e, i) => {
      asConstant('array constant', e, `element ${i}`);
      if (!sameType(e.type, elementType))
        throw new BuildError('array constant', `element ${i} has type ${describeType(e.type)}, expected ${describeType(elementType)}`);
    });
    const type: ArrayType = this.types.array(elementType, elements.length);
    return { kind: 'array', type, elements: [...elements] };
  }

  /**
   * `{ e1, e2, … }`. Without `type` the struct type is the interned one of the elements' types;
   * with it (e.g. a named or recursive struct) the elements must match its fields.
   */
  struct(elements: readonly Constant[], type?: StructType): ConstantAggregate {
    elements.forEach((e, i) => asConstant('struct constant', e, `element ${i}`));
    const t = type ?? this.types.struct(elements.map((e) => e.type));
    if (t.elements.length !== elements.length) {
      throw new BuildError('struct constant', `${elements.length} elements for ${describeType(t)}, which has ${t.elements.length} fields`);
    }
    elements.forEach((e, i) => {
      if (!sameType(e.type, t.elements[i]!))
        throw new BuildError('struct constant', `element ${i} has type ${describeType(e.type)}, field ${i} is ${describeType(t.elements[i]!)}`);
    });
    return { kind: 'struct', type: t, elements: [...elements] };
  }

  /** `< T e1, T e2, … >`: at least one element, all of one integer or floating-point type. */
  packed(elements: readonly Constant[]): ConstantAggregate {
    if (elements.length === 0) throw new BuildError('packed constant', 'needs at least one element');
    const et = elements[0]!.type;
    elements.forEach((e, i) => {
      asConstant('packed constant', e, `element ${i}`);
      if (!sameType(e.type, et)) throw new BuildError('packed constant', `element ${i} has type ${describeType(e.type)}, element 0 ${describeType(et)}`);
    });
    const type: PackedType = this.types.packed(et, elements.length);
    return { kind: 'packed', type, elements: [...elements] };
  }

  /**
   * `c"…"`: an array of sbyte holding the text's UTF-8 bytes (or the given bytes), with a
   * terminating NUL unless `nulTerminate` is false. Bytes above 127 become negative sbytes.
   */
  string(text: string | Uint8Array, nulTerminate = true): ConstantAggregate {
    const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
    const sbyte = this.types.sbyte;
    const elements: Constant[] = [];
    for (const b of bytes) elements.push({ kind: 'int', type: sbyte, value: BigInt(b > 127 ? b - 256 : b) });
    if (nulTerminate) elements.push({ kind: 'int', type: sbyte, value: 0n });
    return { kind: 'array', type: this.types.array(sbyte, elements.length), elements };
  }

  // ---- constant expressions ----------------------------------------------------------------

  /** `cast (T v to U)`. */
  cast(value: Constant, to: Type): ConstantExpr {
    asConstant('cast', value, 'the operand');
    checkCast(value, to);
    return { kind: 'expr', type: to, opcode: 'cast', operands: [value] };
  }

  /** `getelementptr (T* p, idx…)`; the result type is computed from the indices. */
  getelementptr(ptr: Constant, indices: readonly Constant[]): ConstantExpr {
    asConstant('getelementptr', ptr, 'the base');
    indices.forEach((x, i) => asConstant('getelementptr', x, `index ${i + 1}`));
    const type = gepResult(this.types, ptr, indices);
    return { kind: 'expr', type, opcode: 'getelementptr', operands: [ptr, ...indices] };
  }

  /** A binary operation (`add` … `xor`) on two constants of one type. */
  binary(op: BinaryOpcode, lhs: Constant, rhs: Constant): ConstantExpr {
    asConstant(op, lhs, 'the left operand');
    asConstant(op, rhs, 'the right operand');
    return { kind: 'expr', type: binaryResult(op, lhs, rhs), opcode: op, operands: [lhs, rhs] };
  }

  /** The constant expression `add (lhs, rhs)`. */
  add(lhs: Constant, rhs: Constant): ConstantExpr {
    return this.binary('add', lhs, rhs);
  }

  /** The constant expression `sub (lhs, rhs)`. */
  sub(lhs: Constant, rhs: Constant): ConstantExpr {
    return this.binary('sub', lhs, rhs);
  }

  /** The constant expression `mul (lhs, rhs)`. */
  mul(lhs: Constant, rhs: Constant): ConstantExpr {
    return this.binary('mul', lhs, rhs);
  }

  /** A comparison (`seteq` … `setgt`); the result is bool. */
  compare(op: CompareOpcode, lhs: Constant, rhs: Constant): ConstantExpr {
    asConstant(op, lhs, 'the left operand');
    asConstant(op, rhs, 'the right operand');
    return { kind: 'expr', type: compareResult(this.types, op, lhs, rhs), opcode: op, operands: [lhs, rhs] };
  }

  /** The constant expression `shl`/`shr (value, amount)`; `amount` is a ubyte. */
  shift(op: ShiftOpcode, value: Constant, amount: Constant): ConstantExpr {
    asConstant(op, value, 'the shifted value');
    asConstant(op, amount, 'the shift amount');
    return { kind: 'expr', type: shiftResult(op, value, amount), opcode: op, operands: [value, amount] };
  }

  /** The constant expression `select (cond, ifTrue, ifFalse)`. */
  select(cond: Constant, ifTrue: Constant, ifFalse: Constant): ConstantExpr {
    asConstant('select', cond, 'the condition');
    asConstant('select', ifTrue, 'the true value');
    asConstant('select', ifFalse, 'the false value');
    return { kind: 'expr', type: selectResult(cond, ifTrue, ifFalse), opcode: 'select', operands: [cond, ifTrue, ifFalse] };
  }

  /**
   * Inline assembly to be called as a function of type `fnType` (`call int asm "…", "=r,r"(…)`).
   * Its type is `fnType*`; only a call or invoke may use it.
   */
  inlineAsm(fnType: FunctionType, asm: string, constraints: string, hasSideEffects = false): InlineAsm {
    if (fnType.kind !== 'function') throw new BuildError('inline asm', `needs a function type, not ${describeType(fnType)}`);
    return { kind: 'inlineasm', type: this.types.pointer(fnType), asm, constraints, hasSideEffects };
  }

  /** A pointer type's null, for convenience: `nullOf(T)` is `null` of `T*`. */
  nullOf(pointee: Type): ConstantNull {
    const type: PointerType = this.types.pointer(pointee);
    return { kind: 'null', type };
  }
}
