/**
 * The verifier under r36867's rules (bytecode version 7, LLVM 2.0's development trunk): each rule
 * shown on a hand-built module that breaks it, beside one that keeps it. That LLVM-written
 * version-7 modules pass is checked over the corpus (corpus-v7.test.ts), and that r36867 itself
 * draws the line in the same places by the differential (differential-v7.test.ts, `npm run
 * fuzz:verify7`).
 */
import { describe, expect, it } from 'vitest';
import { writeModule } from '../../src/encode/write.js';
import type { Module } from '../../src/graph/module.js';
import { integerType, PARAM_ATTRIBUTE_BITS, type FunctionType, type Type } from '../../src/graph/type.js';
import type { BasicBlock, CastOpcode, Constant, Function, GlobalAlias, Instruction, Value } from '../../src/graph/value.js';
import { InvalidModuleError, verifyModule } from '../../src/verify/verify.js';
import { block, emptyModule, fnType, func, global, inst, P, ptr } from '../encode/helpers.js';

const i1 = integerType(1);
const i8 = integerType(8);
const i16 = integerType(16);
const i32 = integerType(32);
const i64 = integerType(64);
const c = (type: Type, value: number | bigint): Constant => ({ kind: 'int', type, value: BigInt(value) });
const ret = (v?: Value): Instruction => inst('ret', P.void, v ? [v] : []);
const br = (...ops: Value[]): Instruction => inst('br', P.void, ops);

/** A version-7 module (it has a data layout) with one function `f`, whose blocks `body` builds from its arguments. */
function v7(retType: Type, params: Type[], body: (args: Value[], f: Function) => BasicBlock[], ft?: FunctionType): Module {
  const m = emptyModule();
  m.dataLayout = '';
  const f = func(ft ?? fnType(retType, params), 'f', []);
  f.blocks = body(f.args, f);
  f.isDeclaration = f.blocks.length === 0;
  m.functions.push(f);
  return m;
}

function problems(m: Module): string[] {
  return verifyModule(m, { bytecodeVersion: 7 });
}

function expectOne(m: Module, words: string | RegExp): void {
  const found = problems(m);
  expect(found, found.join('\n')).toHaveLength(1);
  expect(found[0]).toMatch(words);
}

/** `%r = OP %a` in a function taking `from` and returning `to`. */
function castModule(op: CastOpcode, from: Type, to: Type): Module {
  return v7(P.void, [from], ([a]) => [block([inst(op, to, [a!], { name: 'r' }), ret()], 'entry')]);
}

describe('version 7 (r36867): the rules a module is held to', () => {
  it('takes a valid module with i1 conditions, icmp, a phi and the integer casts', () => {
    const m = v7(i32, [i32], ([n]) => {
      const entry = block([], 'entry');
      const loop = block([], 'loop');
      const exit = block([], 'exit');
      const i = inst('phi', i32, [], { name: 'i' });
      const next = inst('add', i32, [i, c(i32, 1)], { name: 'next' });
      const done = inst('icmp', i1, [next, n!], { name: 'done', predicate: 'sge' });
      const wide = inst('sext', i64, [next], { name: 'wide' });
      const narrow = inst('trunc', i8, [wide], { name: 'narrow' });
      const back = inst('zext', i32, [narrow], { name: 'back' });
      i.operands = [c(i32, 0), entry, next, loop];
      entry.instructions = [br(loop)];
      loop.instructions = [i, next, done, wide, narrow, back, br(done, exit, loop)];
      exit.instructions = [ret(back)];
      return [entry, loop, exit];
    });
    expect(problems(m)).toEqual([]);
  });

  it('is what writeModule applies at version 7 by default, and verify: false skips it', () => {
    const m = v7(i32, [], () => [block([ret(c(i16, 1))], 'entry')]);
    expect(() => writeModule(m, { bytecodeVersion: 7 })).toThrow(InvalidModuleError);
    expect(() => writeModule(m, { bytecodeVersion: 7 })).toThrow(/the returned value has type i16, expected i32/);
    expect(writeModule(m, { bytecodeVersion: 7, verify: false }).length).toBeGreaterThan(0);
  });

  it('chooses r36867 rules for a version-7 module when no version is given', () => {
    const m = v7(i32, [], () => [block([ret(c(i32, 1))], 'entry')]);
    expect(verifyModule(m)).toEqual([]);
    // The same module under LLVM 1.x's rules: i32 is no type of LLVM 1.9.
    expect(verifyModule(m, { bytecodeVersion: 6 }).join('\n')).toMatch(/an integer constant of type i32/);
  });

  describe('casts (castIsValid, visitTruncInst … visitBitCastInst)', () => {
    const valid: [CastOpcode, Type, Type][] = [
      ['trunc', i32, i8],
      ['zext', i1, i32],
      ['sext', i8, i64],
      ['fptrunc', P.double, P.float],
      ['fpext', P.float, P.double],
      ['fptoui', P.double, i32],
      ['fptosi', P.float, i8],
      ['uitofp', i64, P.double],
      ['sitofp', i16, P.float],
      ['ptrtoint', ptr(i8), i64],
      ['inttoptr', i32, ptr(i32)],
      ['bitcast', ptr(i8), ptr(i32)],
      ['bitcast', i32, P.float],
      ['bitcast', { kind: 'packed', element: i32, length: 2 }, i64],
    ];
    it.each(valid)('takes %s from %j', (op, from, to) => {
      expect(problems(castModule(op, from, to))).toEqual([]);
    });
    const invalid: [CastOpcode, Type, Type, string][] = [
      ['trunc', i8, i32, 'DestTy too big for Trunc'],
      ['trunc', i32, i32, 'DestTy too big for Trunc'],
      ['zext', i32, i8, 'Type too small for ZExt'],
      ['sext', P.float, i64, 'SExt only operates on integer'],
      ['fptrunc', P.float, P.double, 'DestTy too big for FPTrunc'],
      ['fpext', P.double, P.float, 'DestTy too small for FPExt'],
      ['fptoui', i32, i32, 'FP2UInt source must be FP'],
      ['fptosi', P.double, P.float, 'FP2ToI result must be integral'],
      ['uitofp', P.double, P.double, 'UInt2FP source must be integral'],
      ['sitofp', i32, i32, 'SInt2FP result must be FP'],
      ['ptrtoint', i32, i64, 'PtrToInt source must be pointer'],
      ['inttoptr', i32, i64, 'IntToPtr result must be a pointer'],
      ['bitcast', ptr(i8), i32, 'Bitcast requires both operands to be pointer or neither'],
      ['bitcast', i32, i64, 'Bitcast requies types of same width'],
    ];
    it.each(invalid)('refuses %s from %j to %j: %s', (op, from, to, words) => {
      expectOne(castModule(op, from, to), words);
    });
    it('refuses LLVM 1.x’s single cast opcode', () => {
      expectOne(castModule('cast' as CastOpcode, i32, i8), /cast is not an instruction of r36867/);
    });
  });

  describe('comparisons (visitICmpInst, visitFCmpInst)', () => {
    const cmp = (opcode: 'icmp' | 'fcmp', type: Type, predicate: string, other: Type = type): Module =>
      v7(P.void, [type, other], ([a, b]) => [
        block([inst(opcode, i1, [a!, b!], { name: 'r', predicate: predicate as Instruction['predicate'] }), ret()], 'entry'),
      ]);
    it('takes icmp of integers and of pointers, fcmp of floating point', () => {
      expect(problems(cmp('icmp', i8, 'ult'))).toEqual([]);
      expect(problems(cmp('icmp', ptr(i8), 'eq'))).toEqual([]);
      expect(problems(cmp('fcmp', P.double, 'uno'))).toEqual([]);
    });
    it('refuses icmp of floating point and fcmp of integers', () => {
      expectOne(cmp('icmp', P.float, 'eq'), /Invalid operand types for ICmp instruction/);
      expectOne(cmp('fcmp', i32, 'oeq'), /Invalid operand types for FCmp instruction/);
    });
    it('refuses operands of two types and the other family’s predicate', () => {
      expectOne(cmp('icmp', i32, 'eq', i64), /the right operand has type i64, expected i32/);
      expectOne(cmp('icmp', i32, 'oeq'), /icmp needs an integer predicate/);
      expectOne(cmp('fcmp', P.float, 'sgt'), /fcmp needs a floating-point predicate/);
    });
  });

  describe('arithmetic, shifts and logic (visitBinaryOperator and the parser)', () => {
    const bin = (opcode: Instruction['opcode'], type: Type, other: Type = type): Module =>
      v7(P.void, [type, other], ([a, b]) => [block([inst(opcode, type, [a!, b!], { name: 'r' }), ret()], 'entry')]);
    const v4 = { kind: 'packed', element: i32, length: 4 } as const;
    it('takes udiv/sdiv/urem/srem of integers, fdiv/frem of floating point, vectors for add', () => {
      for (const op of ['udiv', 'sdiv', 'urem', 'srem'] as const) expect(problems(bin(op, i17()))).toEqual([]);
      for (const op of ['fdiv', 'frem'] as const) expect(problems(bin(op, P.double))).toEqual([]);
      expect(problems(bin('add', v4))).toEqual([]);
      expect(problems(bin('sdiv', v4))).toEqual([]);
    });
    it('refuses integer division of floating point, fdiv of integers, a remainder of vectors', () => {
      expectOne(bin('udiv', P.float), /udiv needs integer operands/);
      expectOne(bin('fdiv', i32), /fdiv needs floating-point operands/);
      expectOne(bin('srem', v4), /remainder not supported on vector types/);
    });
    it('refuses operands of two widths', () => {
      expectOne(bin('add', i32, i64), /the right operand has type i64, expected i32/);
    });
    it('takes a shift amount of the shifted value’s type, not ubyte', () => {
      expect(problems(bin('lshr', i32))).toEqual([]);
      expectOne(bin('ashr', i32, i8), /the shift amount has type i8, expected i32/);
      expectOne(bin('shl', P.double), /shl of non-integer type double/);
    });
    it('refuses and/or/xor of floating point', () => {
      expectOne(bin('xor', P.float), /xor needs integer operands/);
    });
  });

  describe('blocks, phis and dominance (visitBasicBlock, visitPHINode, visitInstruction)', () => {
    it('refuses a block without a terminator and a terminator in the middle', () => {
      expectOne(
        v7(P.void, [], () => [block([inst('alloca', ptr(i32), [c(i32, 1)], { allocatedType: i32, name: 'a' })], 'entry')]),
        /missing terminator/,
      );
      expect(problems(v7(P.void, [], () => [block([inst('unreachable', P.void, []), ret()], 'entry')])).join('\n')).toMatch(
        /a terminator in the middle of the block/,
      );
    });
    it('takes unreachable as a terminator', () => {
      expect(problems(v7(P.void, [], () => [block([inst('unreachable', P.void, [])], 'entry')]))).toEqual([]);
    });
    it('refuses a branch to the entry block', () => {
      expectOne(
        v7(P.void, [], () => {
          const entry = block([], 'entry');
          entry.instructions = [br(entry)];
          return [entry];
        }),
        /Entry block to function must not have predecessors!/,
      );
    });
    it('refuses a phi whose entries are not its block’s predecessors, and two entries for one block with different values', () => {
      const build = (pairs: (entry: BasicBlock) => Value[]): Module =>
        v7(i32, [i1], ([cond]) => {
          const entry = block([], 'entry');
          const join = block([], 'join');
          const phi = inst('phi', i32, [], { name: 'p' });
          entry.instructions = [br(cond!, join, join)];
          phi.operands = pairs(entry);
          join.instructions = [phi, ret(phi)];
          return [entry, join];
        });
      expect(problems(build((e) => [c(i32, 1), e, c(i32, 1), e]))).toEqual([]);
      expectOne(
        build((e) => [c(i32, 1), e]),
        /incoming blocks \(#0\) are not its block's predecessors \(#0, #0\)/,
      );
      expectOne(
        build((e) => [c(i32, 1), e, c(i32, 2), e]),
        /PHI node has multiple entries for the same basic block with different incoming values!/,
      );
    });
    it('refuses a use its definition does not dominate', () => {
      const m = v7(i32, [i32], ([a]) => {
        const x = inst('add', i32, [a!, c(i32, 1)], { name: 'x' });
        const y = inst('add', i32, [x, c(i32, 1)], { name: 'y' });
        return [block([y, x, ret(y)], 'entry')];
      });
      expectOne(m, /operand 0 \(%x\) is used before it is defined/);
    });
    it('refuses a name on an instruction that gives no value', () => {
      expectOne(
        v7(P.void, [], () => [block([inst('ret', P.void, [], { name: 'r' })], 'entry')]),
        /Instruction has a name, but provides a void value!/,
      );
    });
  });

  describe('invoke: its value is defined on the normal edge', () => {
    function invokeModule(useIn: 'normal' | 'unwind', sameDest = false): Module {
      const g = func(fnType(i32, []), 'g');
      const m = v7(i32, [], () => {
        const entry = block([], 'entry');
        const ok = block([], 'ok');
        const bad = block([], 'bad');
        const r = inst('invoke', i32, [g, ok, sameDest ? ok : bad], { name: 'r' });
        entry.instructions = [r];
        ok.instructions = [ret(useIn === 'normal' ? r : c(i32, 0))];
        bad.instructions = [ret(useIn === 'unwind' ? r : c(i32, 0))];
        return sameDest ? [entry, ok] : [entry, ok, bad];
      });
      m.functions.unshift(g);
      return m;
    }
    it('takes a use in the normal destination', () => {
      expect(problems(invokeModule('normal'))).toEqual([]);
    });
    it('refuses a use in the unwind destination', () => {
      expectOne(invokeModule('unwind'), /Instruction does not dominate all uses!/);
    });
    it('refuses any use when both edges go to one block', () => {
      expect(problems(invokeModule('normal', true)).join('\n')).toMatch(/No uses of invoke possible due to dominance structure!/);
    });
  });

  describe('calls and intrinsics (visitCallInst, VerifyIntrinsicPrototype)', () => {
    function caller(callee: Function, args: Value[], result: Type = callee.functionType.returnType): Module {
      const m = v7(P.void, [], () => [block([inst('call', result, [callee, ...args], result.kind === 'void' ? {} : { name: 'r' }), ret()], 'entry')]);
      m.functions.unshift(callee);
      return m;
    }
    it('refuses a wrong argument count or type', () => {
      const g = func(fnType(P.void, [i32]), 'g');
      expect(problems(caller(g, [c(i32, 1)]))).toEqual([]);
      expectOne(caller(g, []), /0 arguments for a callee taking 1/);
      expectOne(caller(g, [c(i64, 1)]), /argument 0 has type i64, expected i32/);
    });
    it('checks a called intrinsic’s prototype and name', () => {
      // r36867 named an overloaded intrinsic by every integer of its prototype, the result's too.
      expect(problems(caller(func(fnType(i16, [i16]), 'llvm.bswap.i16.i16'), [c(i16, 1)]))).toEqual([]);
      expectOne(caller(func(fnType(i16, [i16]), 'llvm.bswap.i16'), [c(i16, 1)]), /Overloaded intrinsic has incorrect suffix: '.i16'. It should be '.i16.i16'/);
      expect(problems(caller(func(fnType(i32, [i8]), 'llvm.ctpop.i8'), [c(i8, 1)]))).toEqual([]);
      expectOne(caller(func(fnType(i8, [i8]), 'llvm.bswap.i8.i8'), [c(i8, 1)]), /Intrinsic requires even byte width argument/);
      expectOne(caller(func(fnType(i32, [i16]), 'llvm.ctpop.i32'), [c(i16, 1)]), /Overloaded intrinsic has incorrect suffix: '.i32'. It should be '.i16'/);
      expectOne(
        caller(func(fnType(P.void, [ptr(i8), ptr(i8), i64, i32]), 'llvm.memcpy.i32'), [
          { kind: 'null', type: ptr(i8) },
          { kind: 'null', type: ptr(i8) },
          c(i64, 1),
          c(i32, 1),
        ]),
        /Intrinsic parameter #2 has incorrect integer width! Expected 32 but got 64 bits./,
      );
      expectOne(caller(func(fnType(P.void, []), 'llvm.nosuch'), []), /Call to invalid LLVM intrinsic function 'llvm.nosuch'/);
    });
    it('refuses an intrinsic’s address and a definition of one', () => {
      const g = func(fnType(ptr(i8), []), 'llvm.stacksave');
      const m = v7(P.void, [], () => [block([inst('store', P.void, [g, { kind: 'null', type: ptr(g.type) }]), ret()], 'entry')]);
      m.functions.unshift(g);
      expectOne(m, /Cannot take the address of an intrinsic! \(@llvm.stacksave\)/);
      const defined = v7(P.void, [], () => [block([ret()], 'entry')]);
      defined.functions[0]!.name = 'llvm.mine';
      expectOne(defined, /llvm intrinsics cannot be defined!/);
    });
  });

  describe('signatures and parameter attributes (visitFunction and the grammar)', () => {
    it('refuses a varargs function with fastcc', () => {
      const m = v7(P.void, [], () => [block([ret()], 'entry')], fnType(P.void, [], true));
      m.functions[0]!.callingConv = 8;
      expectOne(m, /Varargs functions must have C calling conventions!/);
    });
    it('refuses an aggregate return and an aggregate argument', () => {
      const s: Type = { kind: 'struct', elements: [i32] };
      const m = emptyModule();
      m.dataLayout = '';
      m.functions.push(func(fnType(s, []), 'r'), func(fnType(P.void, [s]), 'a'));
      const found = problems(m);
      expect(found.join('\n')).toMatch(/function @r: Functions cannot return aggregate values!/);
      expect(found.join('\n')).toMatch(/function @a: Functions cannot take aggregates as arguments by value!/);
    });
    it('refuses sret on a function returning a value, and noreturn on a parameter', () => {
      const sret: FunctionType = { ...fnType(i32, [ptr(i32)]), paramAttributes: [{ index: 1, attributes: PARAM_ATTRIBUTE_BITS.sret }] };
      const m = emptyModule();
      m.dataLayout = '';
      m.functions.push(func(sret, 's'));
      expect(problems(m).join('\n')).toMatch(/Invalid struct-return function!/);
      const noreturn: FunctionType = { ...fnType(P.void, [i32]), paramAttributes: [{ index: 1, attributes: PARAM_ATTRIBUTE_BITS.noreturn }] };
      const n = emptyModule();
      n.dataLayout = '';
      n.functions.push(func(noreturn, 'n'));
      expect(problems(n).join('\n')).toMatch(/a parameter takes zext, sext, inreg, sret/);
    });
  });

  describe('global values and aliases (visitGlobalValue, visitGlobalAlias)', () => {
    function module(): Module {
      const m = emptyModule();
      m.dataLayout = '';
      return m;
    }
    it('refuses a declaration with other than external, dllimport or extern_weak linkage', () => {
      const m = module();
      const g = global(i32, undefined, 'g');
      g.linkage = 'internal';
      m.globals.push(g);
      expect(problems(m).join('\n')).toMatch(/a declaration \(no initializer\) must have external, dllimport or extern_weak linkage, not internal/);
    });
    it('refuses dllimport and extern_weak on a definition, appending on other than an array', () => {
      const m = module();
      const a = global(i32, c(i32, 1), 'a');
      a.linkage = 'dllimport';
      const b = global(i32, c(i32, 1), 'b');
      b.linkage = 'appending';
      const w = global(i32, c(i32, 1), 'w');
      w.linkage = 'extern_weak';
      m.globals.push(a, b, w);
      const found = problems(m).join('\n');
      expect(found).toMatch(/global @a: Global is marked as dllimport, but not external/);
      expect(found).toMatch(/global @b: Only global arrays can have appending linkage!/);
      expect(found).toMatch(/global @w: extern_weak linkage on a definition/);
    });
    it('refuses an initializer of another type', () => {
      const m = module();
      m.globals.push(global(i32, c(i64, 1), 'g'));
      expectOne(m, /initializer of type i64, expected i32/);
    });
    it('takes an alias of a global or of its bitcast, refuses one of anything else or of another type', () => {
      const m = module();
      const g = global(i32, c(i32, 1), 'g');
      m.globals.push(g);
      const alias = (aliasee: Constant, type = g.type): GlobalAlias => ({ kind: 'alias', type, name: 'a', linkage: 'external', aliasee });
      m.aliases = [alias(g)];
      expect(problems(m)).toEqual([]);
      const p8 = ptr(i8);
      m.aliases = [alias({ kind: 'expr', opcode: 'bitcast', type: p8, operands: [g] }, p8)];
      expect(problems(m)).toEqual([]);
      m.aliases = [alias({ kind: 'null', type: g.type })];
      expectOne(m, /Aliasee should be either GlobalValue or bitcast of GlobalValue/);
      m.aliases = [alias(g, p8)];
      expectOne(m, /Alias and aliasee types should match!/);
    });
  });
});

/** An odd width, as version 7 allows (i17). */
function i17(): Type {
  return integerType(17);
}
