/**
 * What a target bytecode version cannot express is refused with an `EncodeError` naming the
 * construct and the version (never silently dropped or changed); what it can express after
 * reversing a reader upgrade is written (udiv/sdiv/fdiv → div for versions ≤ 5).
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBzip2, unwrapContainer } from '../../src/container/index.js';
import { writeStream } from '../../src/encode/module-block.js';
import { EncodeError, writeModule } from '../../src/index.js';
import type { Module } from '../../src/graph/module.js';
import type { PackedType, Type } from '../../src/graph/type.js';
import type { Instruction, Value } from '../../src/graph/value.js';
import { block, emptyModule, fnType, func, global, hex, inst, int, P, ptr } from './helpers.js';
import { readModule } from '../../src/read.js';

/** A module with one defined function `f(args…)` whose body is `body(args)` then `ret void`. */
function withBody(params: Type[], body: (args: Value[]) => Instruction[]): Module {
  const m = emptyModule();
  const f = func(fnType(P.void, params), 'f', []);
  f.blocks = [block([...body(f.args), inst('ret', P.void, [])])];
  f.isDeclaration = false;
  m.functions.push(f);
  return m;
}

function refusal(m: Module, version: number): EncodeError {
  try {
    writeStream(m, version);
  } catch (e) {
    expect(e).toBeInstanceOf(EncodeError);
    return e as EncodeError;
  }
  throw new Error(`version ${version} accepted the module`);
}

describe('refusals naming the construct and the version', () => {
  it('a calling convention on a function before version 5', () => {
    const m = emptyModule();
    const g = func(fnType(P.void, []), 'g');
    g.callingConv = 9;
    m.functions.push(g);
    const e = refusal(m, 3);
    expect(e.message).toBe('calling convention 9 on a function cannot be written in bytecode version 3');
    expect(e.construct).toBe('calling convention 9 on a function');
    expect(e.version).toBe(3);
    expect(() => writeStream(m, 5)).not.toThrow();
  });

  it('a call with a calling convention, and a tail call, before version 5', () => {
    const callee = func(fnType(P.void, []), 'callee');
    const cold = withBody([], () => [inst('call', P.void, [callee], { callingConv: 9 })]);
    cold.functions.push(callee);
    expect(refusal(cold, 3).message).toMatch(/^a call with calling convention 9 cannot be written in bytecode version 3/);
    const fast = withBody([], () => [inst('call', P.void, [callee], { callingConv: 8 })]);
    fast.functions.push(callee);
    expect(refusal(fast, 3).message).toMatch(/^a fastcc call cannot be written in bytecode version 3/);
    const tail = withBody([], () => [inst('call', P.void, [callee], { isTailCall: true })]);
    tail.functions.push(callee);
    expect(refusal(tail, 3).message).toMatch(/^a tail call cannot be written in bytecode version 3/);
    for (const m of [cold, fast, tail]) expect(() => writeStream(m, 5)).not.toThrow();
  });

  it('undef before version 5 (in a global initializer and as an operand)', () => {
    const m = emptyModule();
    m.globals.push(global(P.int, { kind: 'undef', type: P.int }));
    expect(refusal(m, 3).message).toBe('undef cannot be written in bytecode version 3');
    const m2 = withBody([], () => [inst('add', P.int, [{ kind: 'undef', type: P.int }, int(P.int, 1)])]);
    expect(refusal(m2, 3).construct).toBe('undef');
    expect(() => writeStream(m, 5)).not.toThrow();
  });

  it('unreachable before version 5', () => {
    const m = emptyModule();
    const f = func(fnType(P.void, []), 'f', [block([inst('unreachable', P.void, [])])]);
    m.functions.push(f);
    expect(refusal(m, 3).message).toBe('the unreachable instruction cannot be written in bytecode version 3');
    expect(() => writeStream(m, 5)).not.toThrow();
  });

  it('packed types before version 5', () => {
    const v4: PackedType = { kind: 'packed', element: P.float, length: 4 };
    const m = emptyModule();
    m.globals.push(global(v4));
    expect(refusal(m, 3).message).toBe('a packed type cannot be written in bytecode version 3');
    expect(() => writeStream(m, 5)).not.toThrow();
  });

  it('dllimport, dllexport and extern_weak linkages before version 6', () => {
    for (const linkage of ['dllimport', 'dllexport', 'extern_weak'] as const) {
      const m = emptyModule();
      const g = global(P.int, linkage === 'dllexport' ? int(P.int, 1) : undefined, 'g');
      g.linkage = linkage;
      m.globals.push(g);
      expect(refusal(m, 5).message).toBe(`${linkage} linkage cannot be written in bytecode version 5`);
      expect(() => writeStream(m, 6)).not.toThrow();
    }
    const m = emptyModule();
    const f = func(fnType(P.void, []), 'f');
    f.linkage = 'extern_weak';
    m.functions.push(f);
    expect(refusal(m, 5).message).toBe('extern_weak linkage cannot be written in bytecode version 5');
  });

  it('alignment and sections on globals and functions, and on malloc/alloca, before version 5', () => {
    const aligned = emptyModule();
    const g = global(P.int, int(P.int, 1));
    g.alignment = 16;
    aligned.globals.push(g);
    expect(refusal(aligned, 3).message).toBe('a global alignment cannot be written in bytecode version 3');
    const sectioned = emptyModule();
    const h = global(P.int, int(P.int, 1));
    h.section = '.data.x';
    sectioned.globals.push(h);
    expect(refusal(sectioned, 3).message).toBe('a global section cannot be written in bytecode version 3');
    const fn = emptyModule();
    const f = func(fnType(P.void, []), 'f');
    f.alignment = 4;
    fn.functions.push(f);
    expect(refusal(fn, 3).message).toBe('a function alignment or section cannot be written in bytecode version 3');
    const alloca = withBody([], () => [inst('alloca', ptr(P.int), [int(P.uint, 1)], { allocatedType: P.int, alignment: 8 })]);
    expect(refusal(alloca, 3).message).toBe('alloca alignment cannot be written in bytecode version 3');
    for (const m of [aligned, sectioned, fn, alloca]) expect(() => writeStream(m, 5)).not.toThrow();
  });

  it('inline asm (module-level and as a callee) before version 5', () => {
    const m = emptyModule();
    m.inlineAsm = 'nop';
    expect(refusal(m, 3).message).toBe('module inline asm cannot be written in bytecode version 3');
    const ft = fnType(P.void, []);
    const asm = withBody([], () => [inst('call', P.void, [{ kind: 'inlineasm', type: ptr(ft), asm: 'nop', constraints: '', hasSideEffects: true }])]);
    expect(refusal(asm, 3).message).toBe('inline asm cannot be written in bytecode version 3');
  });

  it('a division whose opcode disagrees with its operand type before version 6, and div from the right one', () => {
    // Before LLVM 1.9 `div` of int operands meant sdiv; udiv of ints has no spelling there.
    const wrong = withBody([P.int, P.int], ([a, b]) => [inst('udiv', P.int, [a!, b!])]);
    const e = refusal(wrong, 5);
    expect(e.construct).toBe('udiv of int operands');
    expect(e.message).toMatch(/would read back as sdiv/);
    expect(
      refusal(
        withBody([P.uint, P.uint], ([a, b]) => [inst('srem', P.uint, [a!, b!])]),
        3,
      ).construct,
    ).toBe('srem of uint operands');
    expect(
      refusal(
        withBody([P.double, P.double], ([a, b]) => [inst('sdiv', P.double, [a!, b!])]),
        5,
      ).construct,
    ).toBe('sdiv of double operands');
    // The matching opcode becomes `div` and reads back as itself.
    for (const [op, t] of [
      ['sdiv', P.int],
      ['udiv', P.uint],
      ['fdiv', P.double],
      ['urem', P.ulong],
      ['frem', P.float],
    ] as const) {
      const m = withBody([t, t], ([a, b]) => [inst(op, t, [a!, b!], { name: 'q' })]);
      for (const v of [3, 5]) {
        const back = readModule(writeStream(m, v));
        expect(back.functions[0]!.blocks[0]!.instructions[0]!.opcode).toBe(op);
      }
    }
  });

  it('va_arg (LLVM 1.6+) before version 5, the pre-1.6 vaarg and vanext after version 5', () => {
    const list = ptr(P.sbyte);
    const modern = withBody([list], ([a]) => [inst('vaarg', P.int, [a!])]);
    expect(refusal(modern, 3).message).toBe('the va_arg instruction (LLVM 1.6+, taking a pointer to the va_list) cannot be written in bytecode version 3');
    const legacy = withBody([list], ([a]) => [inst('vaarg', P.int, [a!], { legacyVarArgs: true })]);
    expect(refusal(legacy, 6).message).toBe('the pre-LLVM-1.6 vaarg instruction (taking the va_list itself) cannot be written in bytecode version 6');
    const next = withBody([list], ([a]) => [inst('vanext', list, [a!], { argType: P.int })]);
    expect(refusal(next, 6).message).toBe('the vanext instruction cannot be written in bytecode version 6');
    // Version 5 (LLVM 1.4–1.8) has both generations.
    for (const m of [modern, legacy, next]) expect(() => writeStream(m, 5)).not.toThrow();
    expect(() => writeStream(legacy, 3)).not.toThrow();
  });

  it('versions the writer cannot produce', () => {
    for (const v of [2, 4, 8, -1]) {
      expect(() => writeStream(emptyModule(), v)).toThrow(EncodeError);
      expect(() => writeStream(emptyModule(), v)).toThrow(new RegExp(`bytecode version ${v}\\b`));
    }
  });
});

describe("compression: 'auto' | 'none' | 'bzip2'", () => {
  beforeAll(async () => {
    await loadBzip2();
  });

  /** A module whose stream is about `n` bytes: one global initialised with an n-byte string. */
  function sized(n: number): Module {
    const m = emptyModule();
    const arr: Type = { kind: 'array', element: P.sbyte, length: n };
    const elements = Array.from({ length: n }, (_, i) => int(P.sbyte, (i * 7) % 100));
    m.globals.push(global(arr, { kind: 'array', type: arr, elements }));
    return m;
  }

  const signature = (b: Uint8Array): string => new TextDecoder('latin1').decode(b.subarray(0, b[3] === 0x63 ? 5 : 4));

  it("'auto' writes llvc0 up to 64 KiB of payload and llvc2 (bzip2 -5) above; never llvc1", () => {
    const small = writeModule(sized(1000));
    expect(signature(small)).toBe('llvc0');
    const big = writeModule(sized(70_000));
    expect(signature(big)).toBe('llvc2');
    // The threshold is on the payload (the stream after `llvm`), as in LLVM 1.4+.
    const stream = writeStream(sized(70_000), 6);
    expect(unwrapContainer(big).stream).toEqual(stream);
  });

  it("'none' writes the bare llvm stream at any version, 'bzip2' forces llvc2 from version 5", () => {
    const m = sized(100);
    expect(signature(writeModule(m, { compression: 'none' }))).toBe('llvm');
    expect(hex(writeModule(m, { compression: 'none' }))).toBe(hex(writeStream(m, 6)));
    const forced = writeModule(m, { compression: 'bzip2', bytecodeVersion: 5 });
    expect(signature(forced)).toBe('llvc2');
    expect(unwrapContainer(forced).stream).toEqual(writeStream(m, 5));
  });

  it('versions 3 and older are always the bare llvm stream; bzip2 there is refused', () => {
    const big = sized(70_000);
    expect(signature(writeModule(big, { bytecodeVersion: 3 }))).toBe('llvm');
    expect(signature(writeModule(big, { bytecodeVersion: 3, compression: 'auto' }))).toBe('llvm');
    expect(() => writeModule(big, { bytecodeVersion: 3, compression: 'bzip2' })).toThrow(new EncodeError('bzip2 compression', 3));
  });

  it.skipIf(spawnSync('bzip2', ['--help']).error !== undefined)('every bzip2 stream passes the system bzip2 -t', () => {
    for (const out of [writeModule(sized(70_000)), writeModule(sized(10), { compression: 'bzip2' })]) {
      expect(signature(out)).toBe('llvc2');
      // llvc2 = 'llvc' '2' + a standard bzip2 stream ('BZh5…').
      const r = spawnSync('bzip2', ['-t'], { input: out.subarray(5) });
      expect(r.status, r.stderr.toString()).toBe(0);
    }
  });
});
