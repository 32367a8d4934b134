/**
 * Version 7 (LLVM 2.0 development) is read as LLVM trunk r36867 wrote it: every file of the
 * corpus (written by that revision's llvm-as), in every container, and each of version 7's
 * additions comes out as docs/version7-graph.md says. The expectations are what r36867's llvm-dis
 * printed for the same files (`*.dis.ll`).
 */
import { describe, expect, it } from 'vitest';
import { wrapContainer } from '../../../src/container/index.js';
import { loadBzip2 } from '../../../src/container/bzip2.js';
import { integerType, primitiveTypes as P, PARAM_ATTRIBUTE_BITS, type Type } from '../../../src/graph/type.js';
import type { Constant, Function, Instruction } from '../../../src/graph/value.js';
import { readModule } from '../../../src/read.js';
import { unwrapContainer } from '../../../src/container/index.js';
import { CORPUS_PRESENT, CORPUS_SKIP_REASON, corpusFiles, NEEDS_CORPUS, readCorpusFile } from '../../support/corpus.js';

const read = (name: string) => readModule(readCorpusFile('v7', name));
const fn = (m: ReturnType<typeof read>, name: string): Function => m.functions.find((f) => f.name === name)!;
const instructions = (f: Function): Instruction[] => f.blocks.flatMap((b) => b.instructions);
const named = (f: Function, name: string): Instruction => instructions(f).find((i) => i.name === name)!;

describe.skipIf(!CORPUS_PRESENT)(`version 7 as r36867 wrote it (${CORPUS_PRESENT ? 'corpus present' : CORPUS_SKIP_REASON})`, NEEDS_CORPUS, () => {
  it('reads every file of the corpus, as version 7', () => {
    const failures: string[] = [];
    const files = corpusFiles('v7');
    for (const name of files) {
      try {
        expect(read(name).source?.bytecodeVersion).toBe(7);
      } catch (e) {
        failures.push(`${name}: ${(e as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
    expect(files).toHaveLength(1537);
  });

  it('reads them in an llvc0 (stored) and an llvc2 (bzip2) container too', async () => {
    await loadBzip2();
    for (const name of ['Feature__aliases.bc', 'Transforms__InstCombine__apint-and2.bc', 'Feature__paramattrs.bc']) {
      const bytes = readCorpusFile('v7', name);
      const stream = unwrapContainer(bytes).stream;
      for (const compression of ['null', 'bzip2'] as const) {
        const m = readModule(wrapContainer(stream, compression));
        expect(m.source).toMatchObject({ bytecodeVersion: 7, signature: compression === 'null' ? 'llvc0' : 'llvc2' });
        expect(m.functions.map((f) => f.name)).toEqual(read(name).functions.map((f) => f.name));
      }
    }
  });

  it('gives every module a type pool that starts with i1, i8, i16, i32, i64, as r36867 wrote it', () => {
    const m = read('Analysis__Andersens__arg-must-alias.bc');
    expect(m.types.slice(0, 5)).toEqual([1, 8, 16, 32, 64].map((b) => integerType(b)));
    expect(m.types[0]).toBe(integerType(1));
    expect(m.endianness).toBe('any');
    expect(m.pointerSize).toBe('any');
    expect(m.dataLayout).toBe('');
  });

  it('keeps the data layout string (target datalayout = "E-p:32:32")', () => {
    expect(read('Analysis__BasicAA__2006-11-03-BasicAAVectorCrash.bc').dataLayout).toBe('E-p:32:32');
  });

  it('reads integer constants of any width, signed, i1 as booleans (apint-and2: xor i477 %A, -1; and i999 %A, 0)', () => {
    const m = read('Transforms__InstCombine__apint-and2.bc');
    const not = named(fn(m, 'test1'), 'NotA');
    expect(not.opcode).toBe('xor');
    expect(not.type).toBe(integerType(477));
    expect(not.operands[1]).toMatchObject({ kind: 'int', type: integerType(477), value: -1n });
    expect(named(fn(m, 'test0'), 'B').operands[1]).toMatchObject({ kind: 'int', value: 0n });
  });

  it('reads wide constants from their 64-bit words (apint-add2: shl i1024 1, 1023)', () => {
    const m = read('Transforms__InstCombine__apint-add2.bc');
    const shl = named(fn(m, 'test3'), 'tmp.0');
    expect(shl.opcode).toBe('shl');
    expect(shl.operands.map((o) => (o as { value: bigint }).value)).toEqual([1n, 1023n]);
  });

  it('reads icmp with its predicate and i1 result (trip-count: icmp sle i32 %i.0, 9999)', () => {
    const f = read('Analysis__ScalarEvolution__trip-count.bc').functions[0]!;
    const cmp = named(f, 'tmp3');
    expect(cmp).toMatchObject({ opcode: 'icmp', predicate: 'sle', type: integerType(1) });
    expect(cmp.operands[1]).toMatchObject({ kind: 'int', type: integerType(32), value: 9999n });
  });

  it('reads packed structs (%struct.anon = type <{ i8, i32, i32, i32 }>)', () => {
    const t = read('Feature__packed_struct.bc').typeNames.get('struct.anon')!;
    expect(t).toMatchObject({ kind: 'struct', isPacked: true });
    expect((t as { elements: Type[] }).elements).toEqual([8, 32, 32, 32].map((b) => integerType(b)));
  });

  it('reads parameter attributes on function types (declare i16 @test(i16 sext) sext; declare void @exit(i32) noreturn nounwind)', () => {
    const m = read('Feature__paramattrs.bc');
    const A = PARAM_ATTRIBUTE_BITS;
    expect(fn(m, 'test').functionType.paramAttributes).toEqual([
      { index: 0, attributes: A.sext },
      { index: 1, attributes: A.sext },
    ]);
    expect(fn(m, 'exit').functionType.paramAttributes).toEqual([{ index: 0, attributes: A.noreturn | A.nounwind }]);
  });

  it('reads thread_local and visibility (@i = thread_local global i32 15; @a = hidden global; define weak hidden void …)', () => {
    const tls = read('CodeGen__X86__tls1.bc').globals[0]!;
    expect(tls).toMatchObject({ name: 'i', isThreadLocal: true });
    expect(tls.initializer).toMatchObject({ kind: 'int', value: 15n });
    const m = read('CodeGen__X86__test-hidden.bc');
    expect(m.globals.find((g) => g.name === 'a')?.visibility).toBe('hidden');
    expect(m.globals.find((g) => g.name === 'b')?.visibility).toBeUndefined();
    expect(fn(m, '_ZN6Person13privateMethodEv')).toMatchObject({ linkage: 'weak', visibility: 'hidden' });
  });

  it('reads aliases: linkage, aliasee (a global, a function, or a constant expression), and their uses as operands', () => {
    const m = read('Feature__aliases.bc');
    const byName = new Map(m.aliases!.map((a) => [a.name, a]));
    expect([...byName.keys()]).toEqual(['foo1', 'foo2', 'bar_f', 'bar_i', 'A']);
    const bar = m.globals.find((g) => g.name === 'bar')!;
    expect(byName.get('foo1')).toMatchObject({ linkage: 'external', aliasee: bar });
    expect(byName.get('bar_f')).toMatchObject({ linkage: 'weak', aliasee: fn(m, 'foo_f') });
    expect(byName.get('bar_i')?.linkage).toBe('internal');
    const a = byName.get('A')!;
    expect(a.aliasee).toMatchObject({ kind: 'expr', opcode: 'bitcast', operands: [bar] });
    expect(a.type).toMatchObject({ kind: 'pointer', element: integerType(64) });
    expect(named(fn(m, 'test'), 'tmp').operands[0]).toBe(byName.get('foo1'));
  });

  it('reads load/store alignment (load i32* %arg, align 1024)', () => {
    const f = read('Assembler__2007-04-20-AlignedLoad.bc').functions[0]!;
    expect(named(f, 'tmp2')).toMatchObject({ opcode: 'load', alignment: 1024 });
  });

  it('reads the twelve casts with their target types, and calling conventions (fastcc = 8)', () => {
    const counts = new Map<string, number>();
    for (const name of corpusFiles('v7').slice(0, 400)) {
      for (const f of read(name).functions) {
        for (const i of instructions(f)) {
          if (['trunc', 'zext', 'sext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'fptrunc', 'fpext', 'ptrtoint', 'inttoptr', 'bitcast'].includes(i.opcode)) {
            counts.set(i.opcode, (counts.get(i.opcode) ?? 0) + 1);
            expect(i.operands).toHaveLength(1);
          }
          expect(['cast', 'shr', 'seteq', 'setne', 'setlt', 'setgt', 'setle', 'setge']).not.toContain(i.opcode);
        }
      }
    }
    expect(counts.size).toBeGreaterThanOrEqual(8);
    const m = read('Assembler__2007-02-07-UpgradeGVarConflict.bc');
    expect(fn(m, 'hash')).toMatchObject({ callingConv: 8, linkage: 'internal' });
    expect(named(fn(m, 'somefunc'), 'tmp22')).toMatchObject({
      opcode: 'call',
      callingConv: 8,
      operands: [fn(m, 'hash'), expect.anything(), expect.anything()],
    });
    // call void @foo( i32* %A ) … tail call void @bar( )
    const calls = read('Analysis__BasicAA__tailcall-modref.bc')
      .functions.flatMap(instructions)
      .filter((i) => i.opcode === 'call');
    expect(calls.map((c) => [(c.operands[0] as Function).name, c.isTailCall ?? false])).toEqual([
      ['foo', false],
      ['bar', true],
    ]);
  });

  it('reads invoke: callee, normal and unwind destinations, arguments (invoke i32 @callee( i32 %X, i32 5 ))', () => {
    const m = read('CodeGen__CBackend__2003-06-28-InvokeSupport.bc');
    const inv = instructions(m.functions.find((f) => !f.isDeclaration)!).find((i) => i.opcode === 'invoke')!;
    expect(inv.name).toBe('A');
    expect(inv.operands[0]).toBe(fn(m, 'callee'));
    expect(inv.operands.slice(1, 3).map((b) => b.kind)).toEqual(['block', 'block']);
    expect(inv.operands[4]).toMatchObject({ kind: 'int', value: 5n });
  });

  it('types every operand as its plane says: a store stores a value of the pointer’s element type', () => {
    for (const name of ['Feature__globalvars.bc', 'Analysis__Andersens__arg-must-alias.bc']) {
      for (const f of read(name).functions) {
        for (const i of instructions(f)) {
          if (i.opcode === 'store') expect((i.operands[1]!.type as { element: Type }).element).toBe(i.operands[0]!.type);
          if (i.opcode === 'ret' && i.operands.length) expect(i.operands[0]!.type).toBe(f.functionType.returnType);
        }
      }
    }
  });

  it('gives a global without initializer none, and reads the string constants as i8 arrays', () => {
    const m = read('Feature__globalvars.bc');
    expect(m.globals.find((g) => g.name === 'MyVar')?.initializer).toBeUndefined();
    const s = m.globals.find((g) => g.name === 'AString')!.initializer as Constant & { elements: Constant[] };
    expect(s.elements.map((e) => Number((e as { value: bigint }).value))).toEqual([...'test'].map((c) => c.charCodeAt(0)));
    expect(m.globals.find((g) => g.name === 'ZeroInit')?.initializer?.kind).toBe('zeroinitializer');
    expect(P.float).toBe(((m.globals.find((g) => g.name === 'ZeroInit')!.valueType as { elements: Type[] }).elements[1] as { element: Type }).element);
  });
});
