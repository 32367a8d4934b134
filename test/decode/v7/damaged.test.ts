/**
 * Damaged version-7 input stops with a BytecodeError that says where (offset and block path),
 * for each check r36867's reader made (or asserted in the constructors it called), and never with
 * anything else. The files are spelled out byte by byte (test/support/assemble.ts), so these tests
 * state the format independently of the decoder.
 */
import { describe, expect, it } from 'vitest';
import { BytecodeError } from '../../../src/errors/bytecode-error.js';
import { UnsupportedVersionError } from '../../../src/format/version-word.js';
import { integerType } from '../../../src/graph/type.js';
import type { Limits } from '../../../src/limits.js';
import { readModule } from '../../../src/read.js';
import { assemble, block, str, u32, vbr, type Part } from '../../support/assemble.js';

// Type ids of r36867 (format/version7.ts) and the slots this module's types take.
const INTEGER = 4,
  FUNCTION = 5,
  POINTER = 9;
const I1 = 4,
  I32 = 7,
  I32P = 9,
  FN = 10,
  FNP = 11;

/** i1, i8, i16, i32, i64, i32*, i32 (), i32 ()* — as r36867's writer began every pool. */
const TYPES: Part[] = [
  ...vbr(8),
  ...[1, 8, 16, 32, 64].flatMap((b) => [INTEGER, ...vbr(b)]),
  POINTER,
  I32,
  FUNCTION,
  I32,
  0,
  0, // returns i32, no parameters, no attributes
  POINTER,
  FN,
];

interface Parts {
  types?: Part[];
  globals?: Part[];
  pool?: Part[];
  body?: Part[];
  linkage?: number;
}

/** A module: `@g = global i32 42`, `define i32 @f() { ret i32 42 }`, each part replaceable. */
function module(p: Parts = {}): Uint8Array {
  return assemble([
    block(1, true, [
      7, // the bare version word (2007-01-26 on)
      block(6, false, p.types ?? TYPES),
      block(
        5,
        false,
        p.globals ?? [
          ...vbr((I32P << 6) | 2),
          1,
          0, // global i32*, with initializer slot 1; end
          ...vbr((FNP << 5) | 1),
          0, // i32 ()*, C calling convention + 1, has a body; end
          0,
          ...str(''),
          ...str(''), // no libraries, no triple, no data layout
        ],
      ),
      block(3, false, p.pool ?? [1, I32, 0, 42]), // one i32 plane: 42 (slot 1, after the null)
      block(2, false, [...vbr(p.linkage ?? 0), block(7, false, p.body ?? [...u32(1 | (1 << 2) | (I32 << 8) | (1 << 20))])]),
    ]),
  ]);
}

function damage(bytes: Uint8Array, limits?: Partial<Limits>): BytecodeError {
  let error: unknown;
  try {
    readModule(bytes, { limits });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(BytecodeError);
  return error as BytecodeError;
}

/** The word of an instruction with three small operands. */
const inst3 = (opcode: number, type: number, a: number, b: number, c: number): Part[] =>
  u32(3 | (opcode << 2) | (type << 8) | (a << 14) | (b << 20) | (c << 26));
const inst2 = (opcode: number, type: number, a: number, b: number): Part[] => u32(2 | (opcode << 2) | (type << 8) | (a << 16) | (b << 24));
const ret = (slot: number): Part[] => u32(1 | (1 << 2) | (I32 << 8) | (slot << 20));

describe('a well-formed version-7 module (the baseline every damaged one departs from)', () => {
  it('reads: @g = global i32 42; define i32 @f() { ret i32 42 }', () => {
    const m = readModule(module());
    expect(m.source?.bytecodeVersion).toBe(7);
    expect(m.globals[0]!.initializer).toMatchObject({ kind: 'int', type: integerType(32), value: 42n });
    const r = m.functions[0]!.blocks[0]!.instructions[0]!;
    expect(r).toMatchObject({ opcode: 'ret', operands: [m.globals[0]!.initializer] });
  });

  it('reads slot 0 of a plane as its null value, and a forward reference once defined', () => {
    // %1 = add i32 %2, 0 … no: add i32 0, 0 then ret %1 — slot 1 of the function is the add (after the module's 42).
    const m = readModule(module({ body: [...inst2(7, I32, 0, 0), ...ret(2)] }));
    const [add, r] = m.functions[0]!.blocks[0]!.instructions;
    expect(add!.operands.map((o) => (o as { value: bigint }).value)).toEqual([0n, 0n]);
    expect(r!.operands[0]).toBe(add);
    // add i32 %3, 42 where %3 is the add itself… a forward reference to a later instruction:
    const fwd = readModule(module({ body: [...inst2(7, I32, 3, 1), ...inst2(7, I32, 1, 1), ...ret(2)] }));
    const [a1, a2] = fwd.functions[0]!.blocks[0]!.instructions;
    expect(a1!.operands[0]).toBe(a2);
  });
});

describe('damaged version-7 input', () => {
  it('an integer type of 0 bits, or wider than the limit (LLVM: 1 … 2^23 - 1)', () => {
    const zero = damage(module({ types: [...vbr(1), INTEGER, 0] }));
    expect(zero.reason).toMatch(/integer type of 0 bits/);
    expect(zero.blockPath).toEqual(['Module', 'GlobalTypePlane']);
    expect(zero.offset).toBe(4 + 8 + 1 + 4 + 1);
    expect(damage(module({ types: [...vbr(1), INTEGER, ...vbr(1 << 23)] })).reason).toMatch(/8388608 bits/);
    expect(damage(module(), { maxIntegerBits: 32 }).reason).toMatch(/integer type of 64 bits.*limit/);
  });

  it('an unknown type id, and a type slot nothing defines', () => {
    expect(damage(module({ types: [...vbr(1), 12] })).reason).toMatch(/unknown type id 12/);
    expect(damage(module({ types: [...vbr(1), POINTER, 9] })).reason).toMatch(/type slot 9 is not defined/);
  });

  it('an integer constant that does not fit its type', () => {
    const e = damage(module({ pool: [1, 5, 0, ...vbr(256)] })); // plane i8: 256
    expect(e.reason).toMatch(/256 does not fit in i8/);
    expect(e.blockPath).toEqual(['Module', 'ConstantPool']);
  });

  it('a constant expression that is not one (two operands of different types; a one-operand non-cast)', () => {
    // i32 plane: add (i32 42, i1 true) — operands (slot, type slot) pairs after the opcode.
    const mixed = damage(module({ pool: [1, I32, 0, 42, 1, I1, 0, 1, 1, I32, 3, 7, 1, I32, 1, I1] }));
    expect(mixed.reason).toMatch(/operand types differ/);
    const notCast = damage(module({ pool: [1, I32, 0, 42, 1, I32, 2, 7, 1, I32] }));
    expect(notCast.reason).toMatch(/only casts have one/);
  });

  it('a constant referring to one its pool never defines', () => {
    // i32 plane: bitcast (i32 slot 5) to i32 — slot 5 is never defined.
    expect(damage(module({ pool: [1, I32, 2, 39, 5, I32] })).reason).toMatch(/never defines/);
  });

  it('an unknown instruction opcode (45, one of LLVM’s internal user opcodes)', () => {
    const e = damage(module({ body: [...inst2(45, I32, 1, 1), ...ret(1)] }));
    expect(e.reason).toMatch(/unknown instruction opcode 45/);
    expect(e.blockPath).toEqual(['Module', 'Function #0', 'InstructionList']);
    expect(e.offset).toBeGreaterThan(20);
  });

  it('an invalid cast (trunc i32 to i64) and an invalid binary operator (fdiv on i32)', () => {
    expect(damage(module({ body: [...inst2(28, I32, 1, 8), ...ret(1)] })).reason).toMatch(/invalid trunc from i32 to i64/);
    expect(damage(module({ body: [...inst2(12, I32, 1, 1), ...ret(1)] })).reason).toMatch(/fdiv on i32/);
  });

  it('an icmp predicate out of range (integer predicates are 32 … 41)', () => {
    expect(damage(module({ body: [...inst3(40, I32, 1, 1, 5), ...ret(1)] })).reason).toMatch(/icmp predicate 5/);
  });

  it('an operand the function never defines, and a branch to a block it does not have', () => {
    expect(damage(module({ body: [...ret(9)] })).reason).toMatch(/slot 9 of type i32, which the function never defines/);
    expect(damage(module({ body: [...u32(1 | (2 << 2) | (3 << 8) | (4 << 20))] })).reason).toMatch(/basic block 4/);
  });

  it('a basic block without a terminator', () => {
    expect(damage(module({ body: [...inst2(7, I32, 1, 1)] })).reason).toMatch(/no terminator/);
  });

  it('a call that passes the wrong number of arguments', () => {
    // call i32 ()* @f with one argument: opcode 43, type slot of the callee's plane.
    expect(damage(module({ body: [...inst2(43, FNP, 1, 1), ...ret(1)] })).reason).toMatch(/1 argument operand\(s\) for a function type of 0 parameter/);
  });

  it('an unknown linkage or visibility of a function', () => {
    expect(damage(module({ linkage: 8 })).reason).toMatch(/unknown linkage 8/);
    expect(damage(module({ linkage: 3 << 16 })).reason).toMatch(/unknown visibility 3/);
  });

  it('a global whose type is not a pointer, and an initializer that is not a constant of the module', () => {
    const fnAndTrailer: Part[] = [...vbr((FNP << 5) | 1), 0, 0, ...str(''), ...str('')];
    expect(damage(module({ globals: [...vbr(I32 << 6), 0, ...fnAndTrailer] })).reason).toMatch(/global variable of type i32, not a pointer/);
    expect(damage(module({ globals: [...vbr((I32P << 6) | 2), 7, 0, ...fnAndTrailer] })).reason).toMatch(
      /the initializer \(slot 7 of type i32\) is not a constant/,
    );
  });

  it('says that a file from an earlier version-7 stage may be why', () => {
    expect(damage(module({ body: [...ret(9)] })).reason).toMatch(/earlier version-7 layout/);
  });
});

describe('earlier version-7 stages are refused by name, never misread', () => {
  it('a compaction table in a function (2007-01-26 … 01-30)', () => {
    const bytes = assemble([
      block(1, true, [
        7,
        block(6, false, TYPES),
        block(5, false, [0, ...vbr((FNP << 5) | 1), 0, 0, ...str(''), ...str('')]),
        block(2, false, [0, block(8, false, [0]), block(7, false, ret(0))]),
      ]),
    ]);
    const e = damage(bytes);
    expect(e).toBeInstanceOf(UnsupportedVersionError);
    expect(e.reason).toMatch(/compaction table.*2007-01-26 and 2007-01-30/);
    expect(e.blockPath).toEqual(['Module', 'Function #0']);
  });

  it('dense parameter attributes (2006-12-31 … 2007-04-08): an attribute for a parameter the type does not have', () => {
    // i32 () with the list [(index 1, zext)]: r36867 would have taken it; the stage is named instead.
    const types: Part[] = [...vbr(8), ...[1, 8, 16, 32, 64].flatMap((b) => [INTEGER, ...vbr(b)]), POINTER, I32, FUNCTION, I32, 0, 1, 1, 1, POINTER, FN];
    const e = damage(module({ types }));
    expect(e).toBeInstanceOf(UnsupportedVersionError);
    expect(e.reason).toMatch(/parameter 1 of 0.*2006-12-31 and 2007-04-08/);
    expect(e.blockPath).toEqual(['Module', 'GlobalTypePlane']);
  });

  it('a volatile load or store without the alignment operand (before 2007-04-22)', () => {
    const load = damage(module({ body: [...u32(1 | (62 << 2) | (I32P << 8) | (1 << 20)), ...ret(1)] }));
    expect(load).toBeInstanceOf(UnsupportedVersionError);
    expect(load.reason).toMatch(/volatile load without the alignment operand.*before 2007-04-22/);
    const store = damage(module({ body: [...inst2(63, I32P, 1, 1), ...ret(1)] }));
    expect(store.reason).toMatch(/volatile store without the alignment operand/);
  });

  it('a flagged version word (2006-11-08 … 2007-01-25)', () => {
    const e = damage(assemble([block(1, true, [0x70])]));
    expect(e).toBeInstanceOf(UnsupportedVersionError);
    expect(e.reason).toMatch(/2006-11-08 and 2007-01-25/);
  });
});
