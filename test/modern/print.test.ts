/**
 * The upgrade's mapping rules, checked without LLVM installed: the cast and comparison tables,
 * names, constants, inline-asm constraints, and a small built module covering the lowerings.
 */
import { describe, expect, it } from 'vitest';
import type { Module } from '../../src/graph/module.js';
import { integerType, primitiveTypes as P, type FunctionType, type PointerType, type Type } from '../../src/graph/type.js';
import type { Argument, BasicBlock, Constant, Function, GlobalVariable, Instruction, Opcode, Value } from '../../src/graph/value.js';
import { planCast } from '../../src/modern/casts.js';
import { fpString } from '../../src/modern/constants.js';
import { constraintProblem, upgradeConstraints } from '../../src/modern/asm.js';
import { printModern } from '../../src/modern/index.js';
import { parseAssembly } from '../../src/asm/index.js';
import { formatName } from '../../src/modern/names.js';
import { comparison } from '../../src/modern/ops.js';

const ptr = (element: Type): PointerType => ({ kind: 'pointer', element });
const int = (type: Type, value: number): Constant => ({ kind: 'int', type, value: BigInt(value) });

describe('cast table', () => {
  const steps = (a: Type, b: Type): string => {
    const p = planCast(a, b);
    return p.kind === 'steps' ? p.steps.map((s) => s.op).join('+') : p.kind;
  };
  it('extends by the source signedness, truncates, and treats same width as a no-op', () => {
    expect(steps(P.sbyte, P.uint)).toBe('sext');
    expect(steps(P.ubyte, P.int)).toBe('zext');
    expect(steps(P.bool, P.int)).toBe('zext');
    expect(steps(P.long, P.short)).toBe('trunc');
    expect(steps(P.int, P.uint)).toBe('noop');
  });
  it('casts to bool compare with zero', () => {
    expect(planCast(P.int, P.bool)).toEqual({ kind: 'nonzero', fp: false });
    expect(planCast(P.double, P.bool)).toEqual({ kind: 'nonzero', fp: true });
    expect(planCast(ptr(P.int), P.bool)).toEqual({ kind: 'nonzero', fp: false });
  });
  it('picks the floating-point and pointer conversions', () => {
    expect(steps(P.int, P.double)).toBe('sitofp');
    expect(steps(P.uint, P.float)).toBe('uitofp');
    expect(steps(P.double, P.ubyte)).toBe('fptoui');
    expect(steps(P.float, P.long)).toBe('fptosi');
    expect(steps(P.float, P.double)).toBe('fpext');
    expect(steps(P.double, P.float)).toBe('fptrunc');
    expect(steps(ptr(P.int), P.ulong)).toBe('ptrtoint');
    expect(steps(P.int, ptr(P.int))).toBe('sext+inttoptr');
    expect(steps(P.ulong, ptr(P.int))).toBe('inttoptr');
    expect(steps(ptr(P.int), ptr(P.sbyte))).toBe('noop');
    expect(steps(ptr(P.int), P.float)).toBe('ptrtoint+uitofp');
  });
  it('reinterprets the bits of a packed type, and refuses a cast between types of different sizes', () => {
    const packed = (element: Type, length: number): Type => ({ kind: 'packed', element, length }) as Type;
    expect(steps(packed(P.int, 4), packed(P.long, 2))).toBe('bitcast');
    expect(steps(P.long, packed(P.float, 2))).toBe('bitcast');
    expect(() => planCast(packed(P.int, 4), packed(P.long, 3))).toThrow(/differ in size/);
    expect(() => planCast(ptr(P.int), packed(P.int, 2))).toThrow(/differ in size/);
  });
});

describe('comparisons', () => {
  it('uses signed or unsigned predicates by operand type, ordered fp except setne', () => {
    expect(comparison('setlt', P.int)).toEqual({ inst: 'icmp', pred: 'slt' });
    expect(comparison('setlt', P.uint)).toEqual({ inst: 'icmp', pred: 'ult' });
    expect(comparison('setge', ptr(P.int))).toEqual({ inst: 'icmp', pred: 'uge' });
    expect(comparison('setle', P.double)).toEqual({ inst: 'fcmp', pred: 'ole' });
    expect(comparison('setne', P.float)).toEqual({ inst: 'fcmp', pred: 'une' });
  });
});

describe('names, constants, constraints', () => {
  it('quotes names modern syntax cannot take bare', () => {
    expect(formatName('%', 'x')).toBe('%x');
    expect(formatName('%', 'tmp.1')).toBe('%tmp.1');
    expect(formatName('%', '0')).toBe('%"0"');
    expect(formatName('@', 'java/lang/Object')).toBe('@"java/lang/Object"');
    expect(formatName('%', 'a"b')).toBe('%"a\\22b"');
  });
  it('prints floating point so that it reads back exactly', () => {
    const f = (type: Type, bits: bigint): string => fpString({ kind: 'fp', type, value: 0, bits });
    expect(f(P.double, 0x3ff8000000000000n)).toBe('1.5');
    expect(f(P.double, 0x3ff0000000000000n)).toBe('1.0');
    expect(f(P.float, 0x3dcccccdn)).toBe('0.10000000149011612');
    expect(f(P.double, 0x8000000000000000n)).toBe('-0.0');
    expect(f(P.float, 0x7fc00000n)).toBe('0x7FF8000000000000');
  });
  it('rewrites 1.x indirect outputs (==m) to =*m and marks their operands', () => {
    const r = upgradeConstraints('=r,==m,==&r,m,1,~{flags}');
    expect(r.constraints).toBe('=r,=*m,=*&r,m,1,~{flags}');
    expect([...r.indirectArgs]).toEqual([0, 1]);
    expect(r.problem).toBeUndefined();
  });
  it('says what LLVM’s constraint parser refuses', () => {
    expect(constraintProblem('=r,mx,mr,x,0,~{dirflag},~{fpsr},~{flags}')).toBeUndefined();
    expect(constraintProblem('={ax},N{dx},~{dirflag}')).toBeUndefined();
    expect(constraintProblem('=r,~|flags}')).toMatch(/clobber not written/);
    expect(constraintProblem('={ax~')).toMatch(/without its }/);
    expect(constraintProblem('r,')).toMatch(/only a prefix/);
    expect(constraintProblem('=r,r,0,1')).toMatch(/matches operand 1/);
    expect(constraintProblem('=r,0,0')).toMatch(/matches operand 0/);
    expect(constraintProblem('r,=r')).toMatch(/an output after an input/);
    expect(constraintProblem('~{memory},r')).toMatch(/an input after a clobber/);
    expect(constraintProblem('=#r')).toMatch(/modifier #/);
    expect(constraintProblem('&r')).toMatch(/& other than once on an output/);
  });
});

// A small module built by hand: one function using the constructs that need lowering.
function inst(opcode: Opcode, type: Type, operands: Value[], extra: Partial<Instruction> = {}): Instruction {
  return { kind: 'instruction', opcode, type, operands, ...extra };
}

function buildModule(): Module {
  const mainType: FunctionType = { kind: 'function', returnType: P.int, params: [P.int], isVarArg: false };
  const calleeType: FunctionType = { kind: 'function', returnType: P.int, params: [], isVarArg: false };
  const callee: Function = {
    kind: 'function',
    type: ptr(calleeType),
    functionType: calleeType,
    name: 'callee',
    linkage: 'external',
    callingConv: 8,
    alignment: 0,
    isDeclaration: true,
    args: [],
    blocks: [],
  };
  const n: Argument = { kind: 'argument', type: P.int, name: 'n', index: 0 };
  const entry: BasicBlock = { kind: 'block', type: P.label, instructions: [] };
  const ok: BasicBlock = { kind: 'block', type: P.label, name: 'ok', instructions: [] };
  const bad: BasicBlock = { kind: 'block', type: P.label, name: 'bad', instructions: [] };
  const mem = inst('malloc', ptr(P.int), [n], { name: 'mem', allocatedType: P.int });
  const shifted = inst('shr', P.int, [n, int(P.ubyte, 3)], { name: 'x' });
  const truth = inst('cast', P.bool, [shifted]);
  const r = inst('invoke', P.int, [callee, ok, bad], { name: 'r', callingConv: 8 });
  entry.instructions.push(mem, shifted, truth, r);
  const p = inst('phi', P.int, [r, entry], { name: 'p' });
  ok.instructions.push(p, inst('free', P.void, [mem]), inst('ret', P.void, [p]));
  const q = inst('phi', P.int, [int(P.int, 0), entry], { name: 'q' });
  bad.instructions.push(q, inst('unwind', P.void, []));
  const main: Function = {
    kind: 'function',
    type: ptr(mainType),
    functionType: mainType,
    name: 'main',
    linkage: 'internal',
    callingConv: 0,
    alignment: 0,
    isDeclaration: false,
    args: [n],
    blocks: [entry, ok, bad],
  };
  return {
    kind: 'module',
    endianness: 'little',
    pointerSize: 32,
    targetTriple: '',
    inlineAsm: '',
    dependentLibraries: [],
    types: [],
    typeNames: new Map(),
    globals: [],
    functions: [callee, main],
  };
}

describe('printModern on a built module', () => {
  const text = printModern(buildModule());
  it('keeps names and numbers unnamed values in order', () => {
    expect(text).toContain('define internal i32 @main(i32 %n) personality ptr @__gxx_personality_v0 {');
    expect(text).toMatch(/^0:$/m);
    expect(text).toContain('%1 = icmp ne i32 %x, 0');
  });
  it('moves signedness into the instructions', () => {
    expect(text).toContain('%x = ashr i32 %n, 3');
  });
  it('lowers malloc/free to C library calls', () => {
    expect(text).toContain('%up.1 = sext i32 %n to i64');
    expect(text).toMatch(/%mem = call ptr @malloc\(i64 %up\.\d+\)/);
    expect(text).toContain('call void @free(ptr %mem)');
    expect(text).toContain('declare ptr @malloc(i64)');
  });
  it("keeps invoke with a landing pad whose block the unwind destination's phis name, and raises unwind", () => {
    expect(text).toContain('%r = invoke fastcc i32 @callee() to label %ok unwind label %lpad ; LLVM 1.x: except label %bad');
    expect(text).toContain('lpad:\n  %exn = landingpad { ptr, i32 } catch ptr null\n');
    expect(text).toContain('%q = phi i32 [ 0, %lpad ]');
    expect(text).toContain('%p = phi i32 [ %r, %0 ]');
    expect(text).toContain('call void @llvm1.unwind() ; LLVM 1.x: unwind');
    expect(text).toContain('declare fastcc i32 @callee()');
  });
  it('with exceptions: abort, turns invoke into call + br and unwind into abort, dropping the unwind edge from phis', () => {
    const flat = printModern(buildModule(), { exceptions: 'abort' });
    expect(flat).toContain('define internal i32 @main(i32 %n) {');
    expect(flat).toContain('%r = call fastcc i32 @callee()');
    expect(flat).toContain('br label %ok');
    expect(flat).toContain('%q = freeze i32 undef');
    expect(flat).toContain('call void @abort()');
    expect(flat).not.toContain('llvm1.unwind');
  });
  it('records the 1.x target facts as comments', () => {
    expect(text).toContain('; LLVM 1.x: target endian = little');
    expect(text).toContain('; LLVM 1.x: target pointersize = 32');
  });
});

describe('shufflevector masks', () => {
  // LLVM 1.x checked the mask's type, not its values: an element past both vectors gave an
  // undefined element. Modern LLVM refuses such an index; undef means what it meant.
  it('writes undef for a mask element at or past twice the vectors’ length, in an instruction and in a constant expression', () => {
    const m = parseAssembly(
      'implementation\n<4 x int> %f(<4 x int> %a) {\n\t%x = shufflevector <4 x int> %a, <4 x int> undef, <4 x uint> < uint 65, uint 1, uint 7, uint 8 >\n\tret <4 x int> %x\n}\n',
    );
    expect(printModern(m, { llvm: 16 })).toContain('shufflevector <4 x i32> %a, <4 x i32> undef, <4 x i32> <i32 undef, i32 1, i32 7, i32 undef>');
    const g = parseAssembly(
      '%g = global <4 x int> shufflevector (<4 x int> < int 1, int 2, int 3, int 4 >, <4 x int> undef, <4 x uint> < uint 65, uint 1, uint 2, uint 3 >)\nimplementation\n',
    );
    expect(printModern(g, { llvm: 16 })).toContain(
      'shufflevector (<4 x i32> <i32 1, i32 2, i32 3, i32 4>, <4 x i32> undef, <4 x i32> <i32 undef, i32 1, i32 2, i32 3>)',
    );
  });

  it('leaves a mask within range as it is', () => {
    const m = parseAssembly(
      'implementation\n<4 x int> %f(<4 x int> %a) {\n\t%x = shufflevector <4 x int> %a, <4 x int> undef, <4 x uint> < uint 0, uint 1, uint 2, uint 7 >\n\tret <4 x int> %x\n}\n',
    );
    expect(printModern(m, { llvm: 16 })).toContain('<4 x i32> <i32 0, i32 1, i32 2, i32 7>');
  });
});

describe('aliases of declarations (version 7)', () => {
  // LLVM 2.0 let an alias name a declaration; LLVM 16 requires a definition. The alias becomes a
  // declaration of its own name and module asm sets the symbol, as LLVM 2.0's code generator did.
  const i32 = integerType(32);
  const fnType: FunctionType = { kind: 'function', returnType: i32, params: [], isVarArg: false };
  const bar: GlobalVariable = { kind: 'global', name: 'bar', type: ptr(i32), valueType: i32, linkage: 'external', isConstant: false, alignment: 0 };
  const fooF: Function = {
    kind: 'function',
    name: 'foo_f',
    type: ptr(fnType),
    functionType: fnType,
    linkage: 'external',
    callingConv: 0,
    alignment: 0,
    isDeclaration: true,
    args: [],
    blocks: [],
  };
  const module: Module = {
    kind: 'module',
    endianness: 'any',
    pointerSize: 'any',
    targetTriple: '',
    inlineAsm: '',
    dependentLibraries: [],
    types: [],
    typeNames: new Map(),
    globals: [bar],
    functions: [fooF],
    dataLayout: '',
    aliases: [
      { kind: 'alias', name: 'foo1', type: ptr(i32), linkage: 'external', aliasee: bar },
      { kind: 'alias', name: 'bar_f', type: ptr(fnType), linkage: 'weak', aliasee: fooF, visibility: 'hidden' },
      { kind: 'alias', name: 'bar_i', type: ptr(i32), linkage: 'internal', aliasee: bar },
    ],
  };
  const text = printModern(module);
  it('declares each alias under its own name', () => {
    expect(text).toContain('@foo1 = external global i32');
    expect(text).toContain('declare i32 @bar_f()');
    expect(text).toContain('@bar_i = external global i32');
    expect(text).not.toMatch(/= .*alias /);
  });
  it('sets the symbol in module asm with the alias linkage and visibility', () => {
    expect(text).toContain('module asm ".globl foo1"\nmodule asm ".set foo1, bar"');
    expect(text).toContain('module asm ".weak bar_f"\nmodule asm ".hidden bar_f"\nmodule asm ".set bar_f, foo_f"');
    expect(text).toContain('module asm ".set bar_i, bar"');
    expect(text).not.toContain('.globl bar_i');
  });
});
