/**
 * Modules built with the construction API: each verifies, prints as LLVM 1.9's llvm-dis would
 * print it (expected texts written by hand from LLVM 1.9 syntax, checked against the corpus's
 * `.dis.ll` formatting, e.g. the space after the tabs of a switch case; `|` stands for a tab), and
 * prints the same after writing bytecode and reading it back, at versions 6, 5, 3, 1 and 0 where the
 * version can express the module.
 */
import { describe, expect, it } from 'vitest';
import { ModuleBuilder } from '../../src/build/index.js';
import { writeModule } from '../../src/encode/write.js';
import { expectModule, llvm } from './helpers.js';

describe('built modules', () => {
  it('hello world: printf called with a string global through a getelementptr constant expression', () => {
    const mb = new ModuleBuilder({ targetTriple: 'i686-pc-linux-gnu', endianness: 'little', pointerSize: 32, dependentLibraries: ['c'] });
    const { types: t, constants: c } = mb;
    const text = c.string('hello, world\n');
    const str = mb.addGlobal('.str', text.type, { initializer: text, constant: true, linkage: 'internal' });
    const printf = mb.addFunction('printf', t.function(t.int, [t.pointer(t.sbyte)], true));
    const main = mb.addFunction('main', t.function(t.int, []));
    const b = mb.builder(mb.addBlock(main, 'entry'));
    const zero = c.int(t.long, 0);
    b.call(printf, [c.getelementptr(str, [zero, zero])], 'tmp');
    b.ret(c.int(t.int, 0));

    expectModule(
      mb.build(),
      llvm(`
; ModuleID = '<stdin>'
target datalayout = "e-p:32:32"
target endian = little
target pointersize = 32
target triple = "i686-pc-linux-gnu"
deplibs = [ "c" ]
%.str = internal constant [14 x sbyte] c"hello, world\\0A\\00"||; <[14 x sbyte]*> [#uses=1]

implementation   ; Functions:

declare int %printf(sbyte*, ...)

int %main() {
entry:
|%tmp = call int (sbyte*, ...)* %printf( sbyte* getelementptr ([14 x sbyte]* %.str, long 0, long 0) )||; <int> [#uses=0]
|ret int 0
}
`),
      [6, 5, 3], // a target triple and libraries: versions 0 and 1 have neither (refused, tested below)
    );
    expect(() => writeModule(mb.build(), { bytecodeVersion: 1 })).toThrow(/cannot be written in bytecode version 1: this version has no field for/);
  });

  it('a counting loop with phi nodes', () => {
    const mb = new ModuleBuilder();
    const { types: t, constants: c } = mb;
    const sum = mb.addFunction('sum', t.function(t.int, [t.int]), { argNames: ['n'] });
    const entry = mb.addBlock(sum, 'entry');
    const loop = mb.addBlock(sum, 'loop');
    const exit = mb.addBlock(sum, 'exit');
    const b = mb.builder(entry);
    b.br(loop);
    b.positionAtEnd(loop);
    const i = b.phi(t.int, [[c.int(t.int, 0), entry]], 'i');
    const acc = b.phi(t.int, [[c.int(t.int, 0), entry]], 'acc');
    const accNext = b.add(acc, i, 'acc.next');
    const next = b.add(i, c.int(t.int, 1), 'next');
    const done = b.setge(next, sum.args[0]!, 'done');
    b.condBr(done, exit, loop);
    b.addIncoming(i, next, loop);
    b.addIncoming(acc, accNext, loop);
    b.positionAtEnd(exit);
    b.ret(accNext);

    expectModule(
      mb.build(),
      llvm(`
; ModuleID = '<stdin>'

implementation   ; Functions:

int %sum(int %n) {
entry:
|br label %loop

loop:||; preds = %loop, %entry
|%i = phi int [ 0, %entry ], [ %next, %loop ]||; <int> [#uses=2]
|%acc = phi int [ 0, %entry ], [ %acc.next, %loop ]||; <int> [#uses=1]
|%acc.next = add int %acc, %i||; <int> [#uses=2]
|%next = add int %i, 1||; <int> [#uses=2]
|%done = setge int %next, %n||; <bool> [#uses=1]
|br bool %done, label %exit, label %loop

exit:||; preds = %loop
|ret int %acc.next
}
`),
    );
  });

  it('a named struct that points to itself', () => {
    const mb = new ModuleBuilder();
    const { types: t, constants: c } = mb;
    const list = mb.namedStruct('list', (self) => [t.int, t.pointer(self)]);
    const listPtr = t.pointer(list);
    const head = mb.addGlobal('head', list, { initializer: c.struct([c.int(t.int, 1), c.nullPtr(listPtr)], list) });
    const second = mb.addFunction('second', t.function(t.int, [listPtr]), { argNames: ['l'] });
    const b = mb.builder(mb.addBlock(second, 'entry'));
    const nextp = b.getelementptr(second.args[0]!, [c.int(t.long, 0), c.int(t.uint, 1)], 'nextp');
    expect(nextp.type).toBe(t.pointer(listPtr)); // the interned %list**
    const next = b.load(nextp, 'next');
    const valp = b.getelementptr(next, [c.int(t.long, 0), c.int(t.uint, 0)], 'valp');
    b.ret(b.load(valp, 'val'));
    const main = mb.addFunction('main', t.function(t.int, []));
    b.positionAtEnd(mb.addBlock(main, 'entry'));
    b.ret(b.call(second, [head], 'r'));

    expectModule(
      mb.build(),
      llvm(`
; ModuleID = '<stdin>'
|%list = type { int, %list* }
%head = global %list { int 1, %list* null }||; <%list*> [#uses=1]

implementation   ; Functions:

int %second(%list* %l) {
entry:
|%nextp = getelementptr %list* %l, long 0, uint 1||; <%list**> [#uses=1]
|%next = load %list** %nextp||; <%list*> [#uses=1]
|%valp = getelementptr %list* %next, long 0, uint 0||; <int*> [#uses=1]
|%val = load int* %valp||; <int> [#uses=1]
|ret int %val
}

int %main() {
entry:
|%r = call int %second( %list* %head )||; <int> [#uses=1]
|ret int %r
}
`),
    );
  });

  it('a switch', () => {
    const mb = new ModuleBuilder();
    const { types: t, constants: c } = mb;
    const f = mb.addFunction('classify', t.function(t.int, [t.uint]), { argNames: ['x'] });
    const entry = mb.addBlock(f, 'entry');
    const zero = mb.addBlock(f, 'zero');
    const one = mb.addBlock(f, 'one');
    const other = mb.addBlock(f, 'other');
    const b = mb.builder(entry);
    const sw = b.switch(f.args[0]!, other, [[c.int(t.uint, 0), zero]]);
    b.addCase(sw, c.int(t.uint, 1), one);
    b.positionAtEnd(zero).ret(c.int(t.int, 10));
    b.positionAtEnd(one).ret(c.int(t.int, 20));
    b.positionAtEnd(other).ret(c.int(t.int, -1));

    expectModule(
      mb.build(),
      llvm(`
; ModuleID = '<stdin>'

implementation   ; Functions:

int %classify(uint %x) {
entry:
|switch uint %x, label %other [
|| uint 0, label %zero
|| uint 1, label %one
|]

zero:||; preds = %entry
|ret int 10

one:||; preds = %entry
|ret int 20

other:||; preds = %entry
|ret int -1
}
`),
    );
  });

  it('invoke and unwind', () => {
    const mb = new ModuleBuilder();
    const { types: t, constants: c } = mb;
    const thrower = mb.addFunction('thrower', t.function(t.int, [t.int]), { linkage: 'internal', argNames: ['x'] });
    const b = mb.builder(mb.addBlock(thrower, 'entry'));
    b.unwind();
    const test = mb.addFunction('test', t.function(t.int, [t.int]), { argNames: ['x'] });
    const entry = mb.addBlock(test, 'entry');
    const ok = mb.addBlock(test, 'ok');
    const caught = mb.addBlock(test, 'caught');
    b.positionAtEnd(entry);
    const r = b.invoke(thrower, [test.args[0]!], ok, caught, 'r');
    b.positionAtEnd(ok).ret(r);
    b.positionAtEnd(caught).ret(c.int(t.int, -1));

    expectModule(
      mb.build(),
      llvm(`
; ModuleID = '<stdin>'

implementation   ; Functions:

internal int %thrower(int %x) {
entry:
|unwind
}

int %test(int %x) {
entry:
|%r = invoke int %thrower( int %x )
|||to label %ok unwind label %caught||; <int> [#uses=1]

ok:||; preds = %entry
|ret int %r

caught:||; preds = %entry
|ret int -1
}
`),
    );
  });

  it('memory, casts, select, floating point and calling conventions (versions 6 and 5)', () => {
    const mb = new ModuleBuilder();
    const { types: t, constants: c } = mb;
    const counter = mb.addGlobal('counter', t.double, { initializer: c.fp(t.double, 0.5), alignment: 8 });
    const helper = mb.addFunction('helper', t.function(t.double, [t.double]), { callingConv: 'fastcc', argNames: ['d'] });
    let b = mb.builder(mb.addBlock(helper, 'entry'));
    b.ret(b.binary('fdiv', helper.args[0]!, c.fp(t.double, 2), 'half'));
    const f = mb.addFunction('f', t.function(t.float, [t.int, t.bool]), { argNames: ['n', 'flag'] });
    b = mb.builder(mb.addBlock(f, 'entry'));
    const buf = b.malloc(t.int, { count: c.int(t.uint, 4), name: 'buf' });
    const slot = b.alloca(t.double, { name: 'slot', alignment: 8 });
    b.store(b.load(counter, { name: 'old', volatile: true }), slot);
    const d = b.cast(f.args[0]!, t.double, 'd');
    const h = b.call(helper, [d], { name: 'h', tail: true });
    const pick = b.select(f.args[1]!, h, c.fp(t.double, 1.5), 'pick');
    b.store(pick, counter, { volatile: true });
    b.free(buf);
    b.ret(b.cast(pick, t.float, 'res'));

    expectModule(
      mb.build(),
      llvm(`
; ModuleID = '<stdin>'
%counter = global double 5.000000e-01, align 8||; <double*> [#uses=2]

implementation   ; Functions:

fastcc double %helper(double %d) {
entry:
|%half = fdiv double %d, 2.000000e+00||; <double> [#uses=1]
|ret double %half
}

float %f(int %n, bool %flag) {
entry:
|%buf = malloc int, uint 4||; <int*> [#uses=1]
|%slot = alloca double, align 8||; <double*> [#uses=1]
|%old = volatile load double* %counter||; <double> [#uses=1]
|store double %old, double* %slot
|%d = cast int %n to double||; <double> [#uses=1]
|%h = tail call fastcc double %helper( double %d )||; <double> [#uses=1]
|%pick = select bool %flag, double %h, double 1.500000e+00||; <double> [#uses=2]
|volatile store double %pick, double* %counter
|free int* %buf
|%res = cast double %pick to float||; <float> [#uses=1]
|ret float %res
}
`),
      [6, 5],
    );
  });

  it('packed vectors and va_arg (version 6)', () => {
    const mb = new ModuleBuilder();
    const { types: t, constants: c } = mb;
    const v4 = t.packed(t.float, 4);
    const f = mb.addFunction('vec', t.function(t.float, [v4, t.pointer(t.pointer(t.sbyte))]), { argNames: ['v', 'ap'] });
    const b = mb.builder(mb.addBlock(f, 'entry'));
    const x = b.vaarg(f.args[1]!, t.float, 'x');
    const w = b.insertElement(f.args[0]!, x, c.int(t.uint, 0), 'w');
    const mask = c.packed([3, 2, 1, 0].map((k) => c.int(t.uint, k)));
    const s = b.shuffleVector(w, f.args[0]!, mask, 's');
    const sum = b.add(s, w, 'sum');
    b.ret(b.extractElement(sum, c.int(t.uint, 3), 'e'));

    expectModule(
      mb.build(),
      llvm(`
; ModuleID = '<stdin>'

implementation   ; Functions:

float %vec(<4 x float> %v, sbyte** %ap) {
entry:
|%x = va_arg sbyte** %ap, float||; <float> [#uses=1]
|%w = insertelement <4 x float> %v, float %x, uint 0||; <<4 x float>> [#uses=2]
|%s = shufflevector <4 x float> %w, <4 x float> %v, <4 x uint> < uint 3, uint 2, uint 1, uint 0 >||; <<4 x float>> [#uses=1]
|%sum = add <4 x float> %s, %w||; <<4 x float>> [#uses=1]
|%e = extractelement <4 x float> %sum, uint 3||; <float> [#uses=1]
|ret float %e
}
`),
      [6],
    );
  });

  it('inline assembly and module-level asm (version 6)', () => {
    const mb = new ModuleBuilder({ inlineAsm: 'nop' });
    const { types: t, constants: c } = mb;
    const f = mb.addFunction('f', t.function(t.int, [t.int]), { argNames: ['x'] });
    const b = mb.builder(mb.addBlock(f, 'entry'));
    const asm = c.inlineAsm(t.function(t.int, [t.int]), 'bswap $0', '=r,0', true);
    b.ret(b.call(asm, [f.args[0]!], 'y'));

    expectModule(
      mb.build(),
      llvm(`
; ModuleID = '<stdin>'
module asm "nop"

implementation   ; Functions:

int %f(int %x) {
entry:
|%y = call int asm sideeffect "bswap $0", "=r,0"( int %x )||; <int> [#uses=1]
|ret int %y
}
`),
      [6],
    );
  });

  it('a version that cannot express a construct refuses it when writing', () => {
    const mb = new ModuleBuilder();
    const { types: t } = mb;
    const f = mb.addFunction('f', t.function(t.void, []));
    mb.builder(mb.addBlock(f, 'entry')).unreachable();
    const m = mb.build();
    expect(() => writeModule(m, { bytecodeVersion: 3, compression: 'none' })).toThrow(/unreachable/);
  });
});
