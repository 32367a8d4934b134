/**
 * The direct lowering (src/modern/direct-lowering.ts, bitcode/direct-body.ts): `writeModern`
 * lowers a body of common instructions straight to bitcode records instead of printing it and
 * reading it back. What it writes must be, byte for byte, the bitcode of the text `printModern`
 * writes: for bodies of each construct it takes, for bodies it hands back to the printer, and for
 * every corpus file. Each case also says whether the direct way was taken, so that a lowering
 * that gave up on everything could not pass by writing the text's bytes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import type { Module } from '../../src/graph/module.js';
import { printModern, writeModern } from '../../src/modern/index.js';
import { bitcodeOfModernIr } from '../../src/modern/bitcode/index.js';
import { ModernIrReader } from '../../src/modern/bitcode/parse-ir.js';
import { readModule } from '../../src/read.js';
import { writeModule } from '../../src/encode/write.js';
import { CORPUS_PRESENT, corpusFiles, NEEDS_CORPUS, readCorpusFile, VERSION_FOLDERS } from '../support/corpus.js';

/** The bitcode (or the refusal, as its name and message), written by `f`. */
function outcome(f: () => Uint8Array): Uint8Array | string {
  try {
    return f();
  } catch (e) {
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
}

/**
 * The bitcode both ways for LLVM `llvm`, each of a module of its own (printing a body turns it
 * into objects, and the direct lowering reads only bodies still compact), and how many bodies went
 * the direct way.
 */
function bothWays(module: () => Module, llvm: number): { direct: Uint8Array | string; viaText: Uint8Array | string; directBodies: number } {
  const spy = vi.spyOn(ModernIrReader.prototype, 'addDirectBody');
  try {
    const direct = outcome(() => writeModern(module(), { llvm }));
    const directBodies = spy.mock.calls.length;
    const viaText = outcome(() => bitcodeOfModernIr(printModern(module(), { llvm }), { typedPointers: llvm <= 14 }));
    return { direct, viaText, directBodies };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** A body of every kind of instruction the lowering takes. */
const COMMON = `
%struct.S = type { int, double }
%G = global int 5
%A = global [10 x ubyte] zeroinitializer

implementation

declare int %putchar(int)

int %f(int %n, uint %i) {
entry:
	%p = getelementptr [10 x ubyte]* %A, int 0, uint %i
	%v = load ubyte* %p
	%w = add ubyte %v, 1
	store ubyte %w, ubyte* %p
	%q = getelementptr %struct.S* null, int 0, uint 1
	%c = setlt int %n, 10
	br bool %c, label %loop, label %done
loop:
	%k = phi int [ 0, %entry ], [ %k.next, %loop ]
	%k.next = add int %k, 1
	%d = cast int %k to double
	%b = cast int %k to bool
	%s = cast sbyte 3 to ulong
	%e = setne double %d, 0.0
	%r = tail call int %putchar(int %k)
	%m = malloc int
	free int* %m
	%cond = setgt int %k.next, %n
	br bool %cond, label %done, label %loop
done:
	%x = load int* %G
	ret int %x
}

void %g() {
	call int %putchar(int 1)
	cast uint 7 to int
	unreachable
}
`;

describe('the direct lowering', () => {
  it('writes the bytes of the text for a body of every instruction it takes, for LLVM 15 to 22', () => {
    for (const llvm of [15, 16, 19, 22]) {
      const { direct, viaText, directBodies } = bothWays(() => parseAssembly(COMMON), llvm);
      expect(directBodies).toBe(2);
      expect(direct).toEqual(viaText);
    }
  });

  it.each([
    ['an alloca', 'int %h() {\n\t%x = alloca int\n\t%y = load int* %x\n\tret int %y\n}'],
    ['a shift', 'int %h(int %a) {\n\t%x = shl int %a, ubyte 2\n\tret int %x\n}'],
    [
      'a call of a varargs function',
      'declare int %printf(sbyte*, ...)\nint %h(sbyte* %s) {\n\t%x = call int (sbyte*, ...)* %printf(sbyte* %s)\n\tret int %x\n}',
    ],
    ['an invoke', 'declare void %k()\nvoid %h() {\n\tinvoke void %k() to label %ok except label %bad\nok:\n\tret void\nbad:\n\tret void\n}'],
    ['a malloc of a count computed by an instruction', 'int* %h(uint %n) {\n\t%m = malloc int, uint %n\n\tret int* %m\n}'],
  ])('hands a body with %s back to the printer, with the same bytes', (_what, body) => {
    for (const llvm of [16, 22]) {
      const { direct, viaText, directBodies } = bothWays(() => parseAssembly(`implementation\n${body}\n`), llvm);
      expect(directBodies).toBe(0);
      expect(direct).toEqual(viaText);
    }
  });

  it('hands back a body with a name the text must quote (a bytecode file may name a value so)', () => {
    const built = parseAssembly('implementation\nint %h(int %a) {\n\t%x = add int %a, 1\n\tret int %x\n}\n');
    built.functions[0]!.blocks[0]!.instructions[0]!.name = 'a b';
    const bytes = writeModule(built);
    expect(printModern(readModule(bytes), { llvm: 16 })).toContain('%"a b" = add i32 %a, 1');
    const { direct, viaText, directBodies } = bothWays(() => readModule(bytes), 16);
    expect(directBodies).toBe(0);
    expect(direct).toEqual(viaText);
  });

  it('hands back a body changed in code (no longer compact), with the same bytes', () => {
    const { direct, viaText, directBodies } = bothWays(() => {
      const m = parseAssembly(COMMON);
      for (const f of m.functions) void f.blocks;
      return m;
    }, 16);
    expect(directBodies).toBe(0);
    expect(direct).toEqual(viaText);
  });

  it('hands back a malloc whose size needs an instruction where LLVM no longer takes `mul` (21 on)', () => {
    const m = (): Module => parseAssembly('implementation\nint* %h() {\n\t%m = malloc int, uint 4\n\tret int* %m\n}\n');
    expect(bothWays(m, 16).directBodies).toBe(1);
    const at22 = bothWays(m, 22);
    expect(at22.directBodies).toBe(0);
    expect(at22.direct).toEqual(at22.viaText);
  });

  it('is not used for typed pointers (LLVM 13 and 14)', () => {
    for (const llvm of [13, 14]) {
      const { direct, viaText, directBodies } = bothWays(() => parseAssembly(COMMON), llvm);
      expect(directBodies).toBe(0);
      expect(direct).toEqual(viaText);
    }
  });
});

/** Over every file of `folder`, for LLVM 16 and 22: the files whose bytes differ the two ways, and how many bodies went the direct way. */
function corpusBothWays(folder: string): { differing: string[]; directBodies: number } {
  let directBodies = 0;
  const differing: string[] = [];
  for (const name of corpusFiles(folder)) {
    const bytes = readCorpusFile(folder, name);
    try {
      readModule(bytes);
    } catch {
      continue; // the corpus's unreadable files: the reader's tests cover them
    }
    for (const llvm of [16, 22]) {
      const both = bothWays(() => readModule(bytes), llvm);
      directBodies += both.directBodies;
      const same =
        typeof both.direct === 'string' || typeof both.viaText === 'string' ? both.direct === both.viaText : Buffer.compare(both.direct, both.viaText) === 0;
      if (!same) differing.push(`${name} (LLVM ${llvm})`);
    }
  }
  return { differing, directBodies };
}

describe.skipIf(!CORPUS_PRESENT)('the direct lowering over the corpus', NEEDS_CORPUS, () => {
  it.each(VERSION_FOLDERS)('writes every %s file as its text reads, for LLVM 16 and 22, most bodies the direct way', (folder) => {
    const { differing, directBodies } = corpusBothWays(folder);
    expect(differing.slice(0, 10)).toEqual([]);
    expect(directBodies).toBeGreaterThan(0);
  });

  it('writes every v7 file as its text reads: all printed, as version 7 bodies are read into objects, not kept compact', () => {
    const { differing, directBodies } = corpusBothWays('v7');
    expect(differing.slice(0, 10)).toEqual([]);
    expect(directBodies).toBe(0);
  });
});
