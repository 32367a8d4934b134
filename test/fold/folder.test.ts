/**
 * LLVM 1.9's constant folder, rule by rule (src/fold): what `ConstantExpr::get*` returned for
 * the cases LLVM folded, and the expression itself where it did not.
 */
import { describe, expect, it } from 'vitest';
import { ConstantFolder } from '../../src/fold/index.js';
import { primitiveTypes as P, type PointerType, type Type } from '../../src/graph/type.js';
import type { Constant, GlobalVariable } from '../../src/graph/value.js';

const pointers = new Map<Type, PointerType>();
/** The one pointer type to `t` (the folder's host hands out the same). */
const pointerTo = (t: Type): PointerType => pointers.get(t) ?? (pointers.set(t, { kind: 'pointer', element: t }), pointers.get(t)!);

/** A folder whose uniquing keys constants by their printed structure (globals by identity). */
function folder(): ConstantFolder {
  const unique = new Map<string, Constant>();
  const ids = new Map<object, number>();
  const id = (o: object): number => ids.get(o) ?? (ids.set(o, ids.size), ids.size - 1);
  const key = (c: Constant): string => {
    switch (c.kind) {
      case 'int':
      case 'bool':
        return `${c.kind}${id(c.type)}:${String(c.value)}`;
      case 'fp':
        return `fp${id(c.type)}:${c.bits}`;
      case 'expr':
        return `expr${id(c.type)}:${c.opcode}(${c.operands.map((o) => id(o)).join(',')})`;
      case 'packed':
        return `packed${id(c.type)}(${c.elements.map((o) => id(o)).join(',')})`;
      case 'null':
      case 'undef':
      case 'zeroinitializer':
        return `${c.kind}${id(c.type)}`;
      default:
        return `value${id(c)}`;
    }
  };
  return new ConstantFolder({
    unique: (c) => {
      const k = key(c);
      const existing = unique.get(k);
      if (existing) return existing;
      unique.set(k, c);
      return c;
    },
    pointerTo,
  });
}

const int = (type: Type, value: bigint): Constant => ({ kind: 'int', type, value });
const global = (valueType: Type, name: string): GlobalVariable =>
  ({
    kind: 'global',
    name,
    type: { kind: 'pointer', element: valueType },
    valueType,
    linkage: 'external',
    isConstant: false,
    alignment: 0,
  }) as unknown as GlobalVariable;

describe('integer arithmetic: C on x86-64 in the constant type', () => {
  const f = folder();
  it('wraps at the type width', () => {
    expect(f.binary('add', int(P.sbyte, 127n), int(P.sbyte, 1n))).toMatchObject({ kind: 'int', value: -128n });
    expect(f.binary('mul', int(P.ubyte, 16n), int(P.ubyte, 17n))).toMatchObject({ kind: 'int', value: 16n });
    expect(f.binary('sub', int(P.uint, 0n), int(P.uint, 1n))).toMatchObject({ value: 0xffffffffn });
  });

  it("leaves division by zero, MIN / -1 (and, by LLVM's own test, 0 / -1) unfolded", () => {
    expect(f.binary('sdiv', int(P.int, 7n), int(P.int, 0n))).toMatchObject({ kind: 'expr', opcode: 'sdiv' });
    expect(f.binary('sdiv', int(P.int, -(1n << 31n)), int(P.int, -1n))).toMatchObject({ kind: 'expr' });
    expect(f.binary('sdiv', int(P.int, 0n), int(P.int, -1n))).toMatchObject({ kind: 'expr' });
    // sbyte's -128 / -1 promotes to int, where it does not overflow: 128, back in a byte -128.
    expect(f.binary('sdiv', int(P.sbyte, -128n), int(P.sbyte, -1n))).toMatchObject({ kind: 'int', value: -128n });
    expect(f.binary('srem', int(P.int, -7n), int(P.int, 2n))).toMatchObject({ value: -1n });
    expect(f.binary('udiv', int(P.sbyte, -8n), int(P.sbyte, 2n))).toMatchObject({ value: 124n });
  });

  it('shifts by the count modulo 32 (64 for longs), arithmetic right shifts for signed types', () => {
    expect(f.binary('shl', int(P.int, 1n), int(P.ubyte, 33n))).toMatchObject({ value: 2n });
    expect(f.binary('shl', int(P.ubyte, 1n), int(P.ubyte, 9n))).toMatchObject({ value: 0n });
    expect(f.binary('shr', int(P.sbyte, -128n), int(P.ubyte, 3n))).toMatchObject({ value: -16n });
    expect(f.binary('shr', int(P.long, -1n), int(P.ubyte, 70n))).toMatchObject({ value: -1n });
  });

  it("compares in the type's signedness, and setne/setle/setge as the negation LLVM built", () => {
    expect(f.binary('setlt', int(P.sbyte, -1n), int(P.sbyte, 0n))).toMatchObject({ kind: 'bool', value: true });
    expect(f.binary('setlt', int(P.ubyte, 255n), int(P.ubyte, 0n))).toMatchObject({ value: false });
    expect(f.binary('setge', int(P.int, 3n), int(P.int, 3n))).toMatchObject({ value: true });
  });
});

describe('floating point', () => {
  const f = folder();
  const fp = (type: Type, value: number): Constant => ({
    kind: 'fp',
    type,
    value,
    bits: type.kind === 'float' ? BigInt(new Uint32Array(new Float32Array([value]).buffer)[0]!) : new BigUint64Array(new Float64Array([value]).buffer)[0]!,
  });
  it('divides by ±0.0 into ±infinity, as LLVM tested it', () => {
    expect(f.binary('fdiv', fp(P.double, 0), fp(P.double, 0))).toMatchObject({ value: Infinity });
    expect(f.binary('fdiv', fp(P.double, 1), fp(P.double, -0))).toMatchObject({ value: -Infinity });
  });
  it('converts to integers as x86-64 does: out of range gives the minimum, ulong through x - 2^63', () => {
    expect(f.cast(fp(P.float, Infinity), P.int)).toMatchObject({ value: -(1n << 31n) });
    expect(f.cast(fp(P.double, Infinity), P.ulong)).toMatchObject({ value: 0n });
    expect(f.cast(fp(P.double, -2.5), P.ulong)).toMatchObject({ value: 0xfffffffffffffffen });
    expect(f.cast(fp(P.double, 3.9), P.sbyte)).toMatchObject({ value: 3n });
  });
});

describe('casts', () => {
  const f = folder();
  const arr: Type = { kind: 'array', element: P.sbyte, length: 4 };
  const g = global(arr, 't0');
  it('a pointer to an aggregate cast to a pointer to its first element is a getelementptr of int 0s', () => {
    const c = f.cast(g, pointerTo(P.sbyte));
    expect(c).toMatchObject({ kind: 'expr', opcode: 'getelementptr' });
    expect((c as { operands: Constant[] }).operands.slice(1)).toEqual([int(P.int, 0n), int(P.int, 0n)]);
  });
  it('a global is never null: cast to bool is true', () => {
    expect(f.cast(g, P.bool)).toMatchObject({ kind: 'bool', value: true });
  });
  it('a cast of a cast is one cast when no float is involved and the sizes allow', () => {
    const inner = f.cast(g, P.long);
    expect(f.cast(inner, P.int)).toMatchObject({ kind: 'expr', opcode: 'cast', operands: [g] });
  });
  it('null and integers: null casts to 0, only 0 casts to null', () => {
    expect(f.cast({ kind: 'null', type: pointerTo(P.int) }, P.long)).toMatchObject({ kind: 'int', value: 0n });
    expect(f.cast(int(P.long, 4n), pointerTo(P.int))).toMatchObject({ kind: 'expr', opcode: 'cast' });
  });
});

describe('comparisons of addresses (evaluateRelation)', () => {
  const f = folder();
  const a = global(P.int, 'a');
  const b = global(P.int, 'b');
  it('two globals are different addresses, and neither is null', () => {
    expect(f.binary('seteq', a, b)).toMatchObject({ kind: 'bool', value: false });
    expect(f.binary('setne', a, { kind: 'null', type: a.type })).toMatchObject({ kind: 'bool', value: true });
    // Their order is unknown.
    expect(f.binary('setlt', a, b)).toMatchObject({ kind: 'expr', opcode: 'setlt' });
  });
  it('getelementptrs into the same global compare by their indices', () => {
    const four: Type = { kind: 'array', element: P.int, length: 4 };
    const arr = global(four, 'arr');
    const at = (i: bigint): Constant => f.getElementPtr(arr, [int(P.long, 0n), int(P.long, i)]);
    expect(f.binary('setlt', at(1n), at(3n))).toMatchObject({ kind: 'bool', value: true });
    expect(f.binary('seteq', at(2n), at(2n))).toMatchObject({ kind: 'bool', value: true });
  });
});

describe('getelementptr, select and vectors', () => {
  const f = folder();
  const four: Type = { kind: 'array', element: P.int, length: 4 };
  const arr = global(four, 'arr');
  it('a getelementptr of a getelementptr is one, the indices added where they meet', () => {
    const inner = f.getElementPtr(arr, [int(P.long, 0n), int(P.long, 1n)]);
    const outer = f.getElementPtr(inner, [int(P.long, 2n)]);
    expect(outer).toMatchObject({ kind: 'expr', opcode: 'getelementptr' });
    const ops = (outer as { operands: Constant[] }).operands;
    expect(ops[0]).toBe(arr);
    expect(ops[2]).toMatchObject({ kind: 'int', value: 3n });
  });
  it('one zero index is the pointer itself', () => {
    expect(f.getElementPtr(arr, [int(P.long, 0n)])).toBe(arr);
  });
  it('select of a constant condition is its choice', () => {
    expect(f.select({ kind: 'bool', type: P.bool, value: false }, int(P.int, 1n), int(P.int, 2n))).toMatchObject({ value: 2n });
  });
  it('extractelement and insertelement of constant vectors are the element and the new vector; shufflevector is kept', () => {
    const v2: Type = { kind: 'packed', element: P.int, length: 2 };
    const vector: Constant = { kind: 'packed', type: v2, elements: [int(P.int, 5n), int(P.int, 6n)] };
    expect(f.extractElement(vector, int(P.uint, 1n))).toMatchObject({ value: 6n });
    expect(f.insertElement(vector, int(P.int, 9n), int(P.uint, 0n))).toMatchObject({ kind: 'packed', elements: [{ value: 9n }, { value: 6n }] });
    expect(f.shuffleVector(vector, vector, vector)).toMatchObject({ kind: 'expr', opcode: 'shufflevector' });
  });
});
