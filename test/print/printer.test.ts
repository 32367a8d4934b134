/** The printer on modules built in code: dialect choice, numbering, use counts, types, upgrades. */
import { describe, expect, it } from 'vitest';
import type { Module } from '../../src/graph/module.js';
import type { StructType } from '../../src/graph/type.js';
import type { ConstantExpr, Instruction, Value } from '../../src/graph/value.js';
import { compactBodyOf } from '../../src/graph/compact-body.js';
import { writeModule } from '../../src/encode/write.js';
import { readModule } from '../../src/read.js';
import { dialectFor, printModule, printModuleChunks, PrintError } from '../../src/print/index.js';
import { block, emptyModule, fnType, func, global, inst, int, P, ptr } from '../encode/helpers.js';

const source = (bytecodeVersion: number): Module['source'] => ({ signature: 'llvc0', compression: 'null', bytecodeVersion, uncompressedSize: 0 });

/** int %f(int %a, int) { entry: %0 = sdiv a, 2 ; br loop ; loop: ... } */
function divModule(version?: number): Module {
  const m = emptyModule();
  if (version !== undefined) m.source = source(version);
  const f = func(fnType(P.int, [P.int, P.int]), 'f');
  f.args[0]!.name = 'a';
  const q = inst('sdiv', P.int, [f.args[0]!, int(P.int, 2)]);
  const r = inst('urem', P.uint, [int(P.uint, 7), int(P.uint, 3)], { name: 'r' });
  const exit = block([inst('ret', P.void, [q])]);
  const loop = block([], 'loop');
  const entry = block([q, r, inst('br', P.void, [loop])], 'entry');
  loop.instructions.push(inst('br', P.void, [{ kind: 'bool', type: P.bool, value: false }, loop, exit]));
  f.blocks.push(entry, loop, exit);
  f.isDeclaration = false;
  m.functions.push(f);
  return m;
}

describe('dialects', () => {
  it('prints LLVM 1.9 by default and the writing release natively', () => {
    const v5 = divModule(5);
    expect(printModule(v5)).toContain('\tsdiv int %a, 2\t\t; <int>:1 [#uses=1]\n');
    expect(printModule(v5)).toContain('\t%r = urem uint 7, 3\t\t; <uint> [#uses=0]\n');
    const native = printModule(v5, { syntax: 'native' });
    expect(native).toContain('\tdiv int %a, 2\t\t; <int>:1 [#uses=1]\n');
    expect(native).toContain('\t%r = rem uint 7, 3');
    expect(printModule(divModule(6), { syntax: 'native' })).toContain('sdiv int %a, 2');
    expect(dialectFor(divModule(), 'native').release).toBe('1.9');
  });

  it('prints the target data layout only in the 1.9 dialect', () => {
    const m = divModule(5);
    m.endianness = 'big';
    m.pointerSize = 64;
    expect(printModule(m)).toMatch(/^; ModuleID = '<stdin>'\ntarget datalayout = "E-p:64:64"\ntarget endian = big\ntarget pointersize = 64\n/);
    expect(printModule(m, { syntax: 'native' })).toMatch(/^; ModuleID = '<stdin>'\ntarget endian = big\ntarget pointersize = 64\n/);
  });
});

describe('function bodies', () => {
  it('numbers unnamed values, counts uses and lists predecessors newest first', () => {
    const text = printModule(divModule(6));
    expect(text).toBe(
      [
        "; ModuleID = '<stdin>'",
        '',
        'implementation   ; Functions:',
        '',
        'int %f(int %a, int) {',
        'entry:',
        // Unnamed values show their number only in the comment; the unnamed argument is int %0.
        '\tsdiv int %a, 2\t\t; <int>:1 [#uses=1]',
        '\t%r = urem uint 7, 3\t\t; <uint> [#uses=0]',
        '\tbr label %loop',
        '',
        'loop:\t\t; preds = %loop, %entry',
        '\tbr bool false, label %loop, label %0',
        '',
        '; <label>:0\t\t; preds = %loop',
        '\tret int %1',
        '}',
        '',
      ].join('\n'),
    );
  });
});

describe('types', () => {
  it('names types, skips names of pointers to primitives, and writes cycles as up-references', () => {
    const m = emptyModule();
    const s: StructType = { kind: 'struct', elements: [] };
    s.elements.push(ptr(s));
    const named: StructType = { kind: 'struct', elements: [P.int, P.double] };
    const intPtr = ptr(P.int);
    m.types.push(s, named, intPtr);
    m.typeNames.set('pair', named);
    m.typeNames.set('ip', intPtr);
    m.globals.push(global(s, undefined, 'rec'), global(named, undefined, 'p'), global(intPtr, undefined, 'q'));
    const text = printModule(m);
    expect(text).toContain('\t%ip = type int*\n\t%pair = type { int, double }\n');
    expect(text).toContain('%rec = external global { \\2* }\t\t; <{ \\2* }*> [#uses=0]\n');
    expect(text).toContain('%p = external global %pair\t\t; <%pair*> [#uses=0]\n');
    expect(text).toContain('%q = external global int*\t\t; <int**> [#uses=0]\n');
  });

  it('prints all-zero aggregates as zeroinitializer and byte arrays as strings', () => {
    const m = emptyModule();
    const arr = { kind: 'array' as const, element: P.sbyte, length: 3 };
    const zeros = { kind: 'array' as const, element: P.int, length: 2 };
    m.globals.push(global(arr, { kind: 'array', type: arr, elements: [int(P.sbyte, 104), int(P.sbyte, 105), int(P.sbyte, 0)] }, 's'));
    m.globals.push(global(zeros, { kind: 'array', type: zeros, elements: [int(P.int, 0), int(P.int, 0)] }, 'z'));
    const text = printModule(m);
    expect(text).toContain('%s = global [3 x sbyte] c"hi\\00"');
    expect(text).toContain('%z = global [2 x int] zeroinitializer');
  });
});

describe('LLVM 1.9 intrinsic upgrade view', () => {
  it('renames an old intrinsic, leaves an unnamed stub and renames the new call', () => {
    const m = emptyModule();
    m.source = source(3);
    const ft = fnType(P.bool, [P.double, P.double]);
    const old = func(ft, 'llvm.isunordered');
    const f = func(fnType(P.bool, []), 'g');
    const fp = (v: number): never => ({ kind: 'fp', type: P.double, value: v, bits: 0n }) as never;
    const call: Instruction = inst('call', P.bool, [old, fp(0), fp(0)], { name: 'A' });
    f.blocks.push(block([call, inst('ret', P.void, [call])]));
    f.isDeclaration = false;
    m.functions.push(old, f);
    const text = printModule(m);
    expect(text).toContain('declare bool ""(double, double)\n');
    expect(text).toContain('\t%A1 = call bool %llvm.isunordered.f64( double 0.000000e+00, double 0.000000e+00 )\t\t; <bool> [#uses=1]\n');
    expect(text).toContain('\tret bool %A1\n');
    expect(text.trimEnd().endsWith('declare bool %llvm.isunordered.f64(double, double)')).toBe(true);
    // The graph itself is untouched.
    expect(old.name).toBe('llvm.isunordered');
    expect(f.blocks[0]!.instructions[0]).toBe(call);
    // LLVM 1.3's own dialect shows the file as it is.
    const native = printModule(m, { syntax: 'native' });
    expect(native.startsWith('\nimplementation   ; Functions:\n\ndeclare bool %llvm.isunordered(double, double)\n')).toBe(true);
    expect(native).toContain('\t%A = call bool %llvm.isunordered( double 0x0, double 0x0 )');
  });
});

describe('bad graphs', () => {
  it('reports a constant that contains itself as a PrintError (a graph problem, no byte offset), not a stack overflow', () => {
    const m = emptyModule();
    const t = ptr(P.int);
    const e: ConstantExpr = { kind: 'expr', type: t, opcode: 'cast', operands: [] };
    e.operands.push(e);
    m.globals.push(global(t, e, 'g'));
    expect(() => printModule(m)).toThrow(PrintError);
  });
});

describe('module-level details', () => {
  function detailed(version: number): Module {
    const m = emptyModule();
    m.source = source(version);
    m.inlineAsm = 'foo\nbar "x"';
    m.dependentLibraries = ['m', 'c'];
    const st = { kind: 'struct' as const, elements: [P.int, P.int, P.int] };
    m.globals.push({ ...global(st, { kind: 'struct', type: st, elements: [int(P.int, 1), int(P.int, 2), int(P.int, 3)] }, 's'), linkage: 'internal' });
    m.globals.push({ ...global(P.int, undefined, 'imp'), linkage: 'dllimport' });
    const f = func(fnType(P.void, []), 'std');
    f.callingConv = 64;
    f.linkage = 'extern_weak';
    m.functions.push(f);
    return m;
  }

  it('prints module asm, deplibs, multi-line structs and LLVM 1.9 linkages and conventions', () => {
    const text = printModule(detailed(6));
    expect(text).toContain('module asm "foo"\nmodule asm "bar \\22x\\22"\ndeplibs = [ "m", "c" ]\n');
    expect(text).toContain('%s = internal global { int, int, int } {\n    int 1, \n    int 2, \n    int 3 }\t\t; <{ int, int, int }*> [#uses=0]\n');
    expect(text).toContain('%imp = dllimport global int\t\t; <int*> [#uses=0]\n');
    expect(text).toContain('\ndeclare extern_weak x86_stdcallcc void %std()\n');
  });

  it('prints deplibs one a line and structs on one line in LLVM 1.3', () => {
    const text = printModule(detailed(3), { syntax: 'native' });
    expect(text.startsWith('module asm "foo"')).toBe(true);
    expect(text).toContain('deplibs = [\n"m",\n"c" ]\n');
    expect(text).toContain('%s = internal global { int, int, int } { int 1, int 2, int 3 }\t\t; <{ int, int, int }*> [#uses=0]\n');
  });
});

describe('printing in chunks', () => {
  const latin1 = (chunks: Iterable<Uint8Array>): string[] => [...chunks].map((c) => Buffer.from(c).toString('latin1'));

  function manyFunctions(): Module {
    const m = emptyModule();
    m.globals.push(global(P.int, int(P.int, 1), 'g\u00e9'));
    for (let k = 0; k < 20; k++) {
      const f = func(fnType(P.int, [P.int]), `f${k}`);
      f.blocks.push(block([inst('ret', P.void, [f.args[0]!])]));
      f.isDeclaration = false;
      m.functions.push(f);
    }
    return m;
  }

  it('joins to exactly the text of printModule, in both syntaxes', () => {
    const m = manyFunctions();
    for (const syntax of ['1.9', 'native'] as const) {
      expect(latin1(printModuleChunks(m, { syntax })).join('')).toBe(printModule(m, { syntax }));
      expect(latin1(printModuleChunks(m, { syntax, chunkBytes: 1 })).join('')).toBe(printModule(m, { syntax }));
    }
  });

  it('gives the header first, then whole functions once a chunk is full', () => {
    const chunks = latin1(printModuleChunks(manyFunctions(), { chunkBytes: 1 }));
    expect(chunks).toHaveLength(21);
    expect(chunks[0]).toMatch(/^; ModuleID = '<stdin>'\n"g\u00e9" = global int 1.*\nimplementation   ; Functions:\n$/s);
    for (const [k, c] of chunks.slice(1).entries()) expect(c).toBe(`\nint %f${k}(int) {\n\tret int %0\n}\n`);
    expect(latin1(printModuleChunks(manyFunctions()))).toHaveLength(2);
  });

  it('prints the modern syntax as one chunk', () => {
    const m = manyFunctions();
    expect(latin1(printModuleChunks(m, { syntax: 'modern' })).join('')).toBe(printModule(m, { syntax: 'modern' }));
  });
});

describe('printing a body read from a file (held compactly)', () => {
  /** One function of `n` adds in a chain over blocks that branch forward, some values named. */
  function bigModule(n: number): Module {
    const m = emptyModule();
    const g = global(P.int, int(P.int, 7), 'counter');
    m.globals.push(g);
    const f = func(fnType(P.int, [P.int]), 'chain');
    f.isDeclaration = false;
    const blocks = Array.from({ length: 10 }, (_, b) => block([], b % 3 === 0 ? `bb${b}` : undefined));
    let last: Value = f.args[0]!;
    for (let b = 0; b < blocks.length; b++) {
      const list = blocks[b]!.instructions;
      for (let k = 0; k < n / blocks.length; k++) {
        const i = inst('add', P.int, [last, k % 2 ? int(P.int, k) : last], k % 5 === 0 ? { name: `v${b}.${k}` } : {});
        list.push(i);
        last = i;
      }
      const loaded = inst('load', P.int, [g]);
      list.push(loaded);
      list.push(b + 1 < blocks.length ? inst('br', P.void, [blocks[b + 1]!]) : inst('ret', P.void, [last]));
    }
    f.blocks.push(...blocks);
    m.functions.push(f);
    return m;
  }

  it('prints as the same body materialized into objects does, in both syntaxes', () => {
    const bytes = writeModule(bigModule(2000), { compression: 'none' });
    for (const syntax of ['1.9', 'native'] as const) {
      const compact = readModule(bytes);
      expect(compactBodyOf(compact.functions[0]!)).toBeDefined();
      const materialized = readModule(bytes);
      void materialized.functions[0]!.blocks;
      expect(compactBodyOf(materialized.functions[0]!)).toBeUndefined();
      const text = printModule(compact, { syntax });
      expect(text).toBe(printModule(materialized, { syntax }));
      expect(text).toContain('\t%v9.5 = add int %1453, 5\t\t; <int> [#uses=2]\n\tadd int %v9.5, %v9.5\t\t; <int>:1454 [#uses=1]\n');
      // Printing did not build the body's objects.
      expect(compactBodyOf(compact.functions[0]!)).toBeDefined();
    }
  });

  it('splits a function with a long text at ends of lines, so that no chunk holds it whole', () => {
    const m = readModule(writeModule(bigModule(20000), { compression: 'none' }));
    const chunks = [...printModuleChunks(m)].map((c) => Buffer.from(c).toString('latin1'));
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c.endsWith('\n')).toBe(true);
      expect(c.length).toBeLessThan(300_000);
    }
    expect(chunks.join('')).toBe(printModule(readModule(writeModule(bigModule(20000), { compression: 'none' }))));
  });

  it('with reuseBuffer, hands over views of one buffer that, taken one at a time, join to the listing', () => {
    const m = readModule(writeModule(bigModule(20000), { compression: 'none' }));
    const pieces: string[] = [];
    const buffers = new Set<ArrayBufferLike>();
    for (const c of printModuleChunks(m, { reuseBuffer: true })) {
      pieces.push(Buffer.from(c).toString('latin1'));
      buffers.add(c.buffer);
    }
    expect(pieces.length).toBeGreaterThan(2);
    expect(buffers.size).toBeLessThan(pieces.length);
    expect(pieces.join('')).toBe(printModule(readModule(writeModule(bigModule(20000), { compression: 'none' }))));
  });
});
