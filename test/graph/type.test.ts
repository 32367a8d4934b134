/** Type helpers of the graph layer that the verifier, the writer and the builder share. */
import { describe, expect, it } from 'vitest';
import {
  integerRange,
  isFirstClassType,
  primitiveKindId,
  primitiveTypeId,
  primitiveTypes as P,
  primitiveTypesById,
  sameType,
  type Type,
} from '../../src/graph/type.js';

describe('integerRange', () => {
  it('gives the values each integer type holds (signed types hold signed values)', () => {
    expect(integerRange(P.ubyte)).toEqual([0n, 0xffn]);
    expect(integerRange(P.sbyte)).toEqual([-0x80n, 0x7fn]);
    expect(integerRange(P.ushort)).toEqual([0n, 0xffffn]);
    expect(integerRange(P.short)).toEqual([-0x8000n, 0x7fffn]);
    expect(integerRange(P.uint)).toEqual([0n, 0xffffffffn]);
    expect(integerRange(P.int)).toEqual([-0x80000000n, 0x7fffffffn]);
    expect(integerRange(P.ulong)).toEqual([0n, 0xffffffffffffffffn]);
    expect(integerRange(P.long)).toEqual([-0x8000000000000000n, 0x7fffffffffffffffn]);
  });
});

describe('primitiveTypeId', () => {
  it("is each primitive's index in primitiveTypesById (LLVM 1.9's type id)", () => {
    primitiveTypesById.forEach((t, id) => {
      expect(primitiveKindId(t.kind)).toBe(id);
      expect(primitiveTypeId(t)).toBe(id);
    });
  });

  it('is -1 for derived types and for a primitive-kind object that is not the shared singleton', () => {
    expect(primitiveTypeId({ kind: 'pointer', element: P.int })).toBe(-1);
    expect(primitiveKindId('struct')).toBe(-1);
    expect(primitiveTypeId({ kind: 'int' })).toBe(-1);
  });
});

describe('isFirstClassType (LLVM)', () => {
  it('holds for primitives but void (label included), pointers and packed types', () => {
    const yes: Type[] = [P.bool, P.int, P.double, P.label, { kind: 'pointer', element: P.int }, { kind: 'packed', element: P.float, length: 4 }];
    const no: Type[] = [
      P.void,
      { kind: 'struct', elements: [] },
      { kind: 'array', element: P.int, length: 2 },
      { kind: 'opaque' },
      { kind: 'function', returnType: P.void, params: [], isVarArg: false },
    ];
    for (const t of yes) expect(isFirstClassType(t), t.kind).toBe(true);
    for (const t of no) expect(isFirstClassType(t), t.kind).toBe(false);
  });
});

describe('sameType', () => {
  it('is structural equality', () => {
    const a: Type = { kind: 'pointer', element: P.int };
    const b: Type = { kind: 'pointer', element: P.int };
    expect(sameType(a, a)).toBe(true);
    expect(sameType(a, b)).toBe(true);
    expect(sameType(a, { kind: 'pointer', element: P.uint })).toBe(false);
  });
});
