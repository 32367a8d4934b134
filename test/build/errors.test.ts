/**
 * What the construction API refuses: every mistake is a `BuildError` thrown where it is made,
 * whose message names the operation and what is wrong.
 */
import { describe, expect, it } from 'vitest';
import { BuildError, ModuleBuilder } from '../../src/build/index.js';
import type { Type } from '../../src/graph/type.js';

/** `f` throws a BuildError whose message matches `message`. */
function refuses(f: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, 'a BuildError').toBeInstanceOf(BuildError);
  expect((thrown as Error).message).toMatch(message);
}

/** A module with `f(int %a, uint %b, double %d, int* %p)` and a builder at its entry block. */
function setup() {
  const mb = new ModuleBuilder();
  const { types: t, constants: c } = mb;
  const f = mb.addFunction('f', t.function(t.int, [t.int, t.uint, t.double, t.pointer(t.int)]), { argNames: ['a', 'b', 'd', 'p'] });
  const entry = mb.addBlock(f, 'entry');
  const b = mb.builder(entry);
  const [a, u, d, p] = f.args as [(typeof f.args)[0], (typeof f.args)[0], (typeof f.args)[0], (typeof f.args)[0]];
  return { mb, t, c, f, entry, b, a: a!, u: u!, d: d!, p: p! };
}

describe('BuildError', () => {
  it('is a TypeError naming the operation', () => {
    const e = new BuildError('add', 'the operands differ');
    expect(e).toBeInstanceOf(TypeError);
    expect(e.name).toBe('BuildError');
    expect(e.operation).toBe('add');
    expect(e.message).toBe('add: the operands differ');
  });
});

describe('constants', () => {
  const { t, c } = setup();
  it('integers must fit their type', () => {
    refuses(() => c.int(t.sbyte, 200), /int constant: 200 does not fit sbyte \(-128 to 127\)/);
    refuses(() => c.int(t.uint, -1), /-1 does not fit uint/);
    refuses(() => c.int(t.long, 2n ** 63n), /does not fit long/);
    refuses(() => c.int(t.int, 1.5), /1.5 is not a safe integer/);
    refuses(() => c.int(t.bool, 1), /bool is not an integer type \(use bool\(\)\)/);
    refuses(() => c.int(t.float, 1), /float is not an integer type/);
  });
  it('floating-point constants need float or double, in range', () => {
    refuses(() => c.fp(t.int, 1), /fp constant: int is not float or double/);
    refuses(() => c.fp(t.float, 1e40), /1e\+40 is too large for float/);
  });
  it('null, zero and undef need types with values', () => {
    refuses(() => c.nullPtr(t.int), /null needs a pointer type, not int/);
    refuses(() => c.zero(t.void), /type void has no values/);
    refuses(() => c.undef(t.label), /undef constant: type label has no values/);
  });
  it('aggregates check their elements', () => {
    refuses(() => c.array(t.int, [c.int(t.int, 1), c.int(t.uint, 2)]), /array constant: element 1 has type uint, expected int/);
    const pair = t.struct([t.int, t.double]);
    refuses(() => c.struct([c.int(t.int, 1)], pair), /1 elements for \{ int, double \}, which has 2 fields/);
    refuses(() => c.struct([c.int(t.int, 1), c.int(t.int, 2)], pair), /element 1 has type int, field 1 is double/);
    refuses(() => c.packed([]), /needs at least one element/);
    refuses(() => c.packed([c.int(t.int, 1), c.fp(t.float, 2)]), /element 1 has type float, element 0 int/);
  });
  it('constant expressions check their operands', () => {
    refuses(() => c.add(c.int(t.int, 1), c.int(t.uint, 1)), /add: the operands have different types \(int and uint\)/);
    refuses(() => c.cast(c.int(t.int, 1), t.struct([t.int])), /cast: cannot cast to \{ int \}/);
    refuses(() => c.getelementptr(c.int(t.int, 0), []), /getelementptr: the base must be a pointer, not int/);
    refuses(() => c.shift('shl', c.int(t.int, 1), c.int(t.int, 1)), /shl: the shift amount must be a ubyte, not int/);
    refuses(() => c.select(c.int(t.int, 1), c.int(t.int, 1), c.int(t.int, 2)), /select: the condition must be a bool, not int/);
  });
});

describe('types', () => {
  it('come from the module’s type builder', () => {
    const { t } = setup();
    const foreign: Type = { kind: 'pointer', element: t.int };
    refuses(() => t.pointer(foreign), /pointer type: the element int\* was not made by this module's type builder/);
    refuses(() => t.pointer(t.void), /no pointer to void/);
    refuses(() => t.array(t.int, -1), /length -1 is not an integer/);
    refuses(() => t.packed(t.pointer(t.int), 4), /elements must be integer or floating-point, not int\*/);
    refuses(() => t.function(t.int, [t.void]), /parameter 0 cannot have type void/);
    refuses(() => t.function(t.int, [t.struct([t.int])]), /parameter 0 cannot have type \{ int \} \(only first-class types; pass a pointer/);
    refuses(() => t.function(t.array(t.int, 2), []), /cannot return \[2 x int\] \(only void or a first-class type/);
    refuses(() => t.struct([t.label]), /field 0 cannot have type label/);
  });
  it('recursive structs get one body, which may not hold the struct by value', () => {
    const { mb, t } = setup();
    const s = mb.namedStruct('s');
    refuses(() => mb.setBody(s, [t.int, s]), /setBody: the struct would contain itself by value/);
    refuses(() => mb.setBody(s, [t.array(s, 2)]), /contain itself by value/);
    mb.setBody(s, [t.int, t.pointer(s)]);
    refuses(() => mb.setBody(s, [t.int]), /already has its body/);
    refuses(() => mb.setBody(t.struct([t.int]), [t.int]), /already has its body/);
  });
  it('a shell without a body, or two identical recursive structs, are refused at build', () => {
    let { mb } = setup();
    mb.namedStruct('node');
    refuses(() => mb.build(), /build: the struct %node never got a body/);
    ({ mb } = setup());
    const t = mb.types;
    mb.namedStruct('a', (self) => [t.pointer(self)]);
    mb.namedStruct('b', (self) => [t.pointer(self)]);
    refuses(() => mb.build(), /the recursive structs a and b have the same structure/);
  });
  it('a non-recursive shell may not duplicate an existing struct', () => {
    const { mb, t } = setup();
    t.struct([t.int, t.int]);
    refuses(() => mb.namedStruct('pair', () => [t.int, t.int]), /a struct \{ int, int \} already exists; name that one/);
  });
  it('a type name names one type', () => {
    const { mb, t } = setup();
    mb.nameType('x', t.int);
    refuses(() => mb.nameType('x', t.uint), /nameType: the name %x already names int/);
  });
});

describe('globals and functions', () => {
  it('names are unique, types and options checked', () => {
    const { mb, t, c } = setup();
    refuses(() => mb.addGlobal('f', t.int), /addGlobal: the module already has a global or function named @f/);
    refuses(() => mb.addGlobal('g', t.function(t.void, [])), /a global cannot hold void \(\) \(use addFunction\)/);
    refuses(() => mb.addGlobal('g', t.int, { initializer: c.int(t.uint, 1) }), /initializer of @g has type uint, expected int/);
    refuses(() => mb.addGlobal('h', t.int, { alignment: 3 }), /alignment 3 is not a power of two/);
    refuses(() => mb.addFunction('k', t.function(t.void, []), { callingConv: 'pascal' as never }), /unknown calling convention pascal/);
    refuses(() => mb.addFunction('k', t.function(t.void, [t.int]), { argNames: ['a', 'b'] }), /2 argument names for 1 parameters/);
  });
  it('build runs the verifier and lists what it finds', () => {
    const { mb } = setup();
    refuses(() => mb.build(), /build: the module is not valid:\n.*block %entry.*empty/);
  });
});

describe('instructions', () => {
  it('binary operators need operands of one suitable type', () => {
    const { b, c, t, a, u, d } = setup();
    refuses(() => b.add(a, u), /^add: the operands have different types \(int %a and uint %b\); cast one first$/);
    refuses(() => b.fdiv(a, a), /fdiv: needs floating-point operands, not int \(use sdiv or udiv for integers\)/);
    refuses(() => b.sdiv(d, d), /sdiv: needs integer operands, not double \(use fdiv\)/);
    refuses(() => b.and(d, d), /and: needs integer or bool operands, not double/);
    refuses(() => b.add(c.bool(true), c.bool(false)), /add: needs integer or floating-point operands, not bool/);
    refuses(() => b.setlt(a, d), /setlt: the operands have different types/);
    refuses(() => b.shl(a, a), /shl: the shift amount must be a ubyte, not int %a/);
    refuses(() => b.shr(d, c.int(t.ubyte, 1)), /shr: shifts an integer, not double %d/);
  });
  it('memory operations need pointers of the right type', () => {
    const { b, t, a, d, p } = setup();
    refuses(() => b.load(a), /load: loads through a pointer, not int %a/);
    refuses(() => b.store(d, p), /store: stores double %d through int\* %p; the value must have type int/);
    refuses(() => b.store(a, a), /store: stores through a pointer, not int %a/);
    refuses(() => b.free(a), /free: frees a pointer, not int %a/);
    refuses(() => b.alloca(t.void), /alloca: cannot allocate a value of type void/);
    refuses(() => b.malloc(t.int, { count: a }), /malloc: the element count must be a uint, not int %a/);
    refuses(() => b.alloca(t.int, { alignment: 6 }), /alloca: alignment 6 is not a power of two/);
  });
  it('getelementptr follows the indexed type', () => {
    const { mb, b, t, c, a, p } = setup();
    const s = t.struct([t.int, t.pointer(t.int)]);
    const sp = mb.addGlobal('s', s, { initializer: c.zero(s) });
    refuses(() => b.getelementptr(a, [c.int(t.long, 0)]), /the base must be a pointer, not int %a/);
    refuses(() => b.getelementptr(sp, [c.int(t.long, 0), a]), /index 2 selects a field of \{ int, int\* \}, so it must be a uint constant, not int %a/);
    refuses(() => b.getelementptr(sp, [c.int(t.long, 0), c.int(t.uint, 2)]), /index 2 selects field 2 of \{ int, int\* \}, which has 2 fields/);
    refuses(() => b.getelementptr(sp, [c.int(t.long, 0), c.int(t.uint, 1), c.int(t.long, 0)]), /index 3 indexes into int\*.*load it first/);
    refuses(() => b.getelementptr(p, [c.bool(true)]), /index 1 must be a uint, int, ulong or long, not bool/);
  });
  it('calls check the callee, the argument count and the argument types', () => {
    const { mb, b, t, c, a, u, f } = setup();
    const printf = mb.addFunction('printf', t.function(t.int, [t.pointer(t.sbyte)], true));
    refuses(() => b.call(printf, []), /call: @printf takes 1 or more arguments, given 0/);
    refuses(() => b.call(f, [a]), /call: @f takes 4 arguments, given 1/);
    refuses(() => b.call(f, [u, u, u, u]), /call: argument 0 of @f must be int, not uint %b/);
    refuses(() => b.call(a, []), /call: the callee must be a function \(or a pointer to one\), not int %a/);
    const g = mb.addFunction('g', t.function(t.void, []));
    refuses(() => b.call(g, [], 'x'), /call: the instruction produces no value, so it cannot be named "x"/);
    refuses(() => b.call(printf, [c.nullOf(t.sbyte)], { callingConv: 1234 }), /unknown calling convention 1234/);
  });
  it('terminators check their operands, and end the block', () => {
    const { mb, b, t, c, a, d, f, entry } = setup();
    refuses(() => b.ret(), /ret: function @f returns int, so ret needs a value/);
    refuses(() => b.ret(d), /ret: returns double %d from a function returning int/);
    const other = mb.addFunction('other', t.function(t.void, []));
    const elsewhere = mb.addBlock(other, 'elsewhere');
    refuses(() => b.br(elsewhere), /br: the destination must be a block of function @f/);
    refuses(() => b.condBr(a, entry, entry), /br: the condition must be a bool, not int %a/);
    refuses(() => b.switch(d, entry), /switch: the condition must be an integer, not double %d/);
    const sw = b.switch(a, entry, [[c.int(t.int, 1), entry]]);
    refuses(() => b.addCase(sw, c.int(t.int, 1), entry), /switch: the case value 1 is already listed/);
    refuses(() => b.addCase(sw, c.int(t.uint, 2), entry), /the case value uint does not have the condition's type int/);
    refuses(() => b.add(a, a), /add: block %entry already ends with switch; start a new block/);
    expect(f.blocks[0]!.instructions).toHaveLength(1);
  });
  it('phis come first and take values of their type from blocks of their function', () => {
    const { mb, b, t, a, d, entry } = setup();
    const next = mb.addBlock(b.function, 'next');
    b.br(next);
    b.positionAtEnd(next);
    const phi = b.phi(t.int, [[a, entry]], 'x');
    refuses(() => b.addIncoming(phi, d, entry), /phi: the incoming value double %d does not have the phi's type int/);
    b.add(phi, a, 'y');
    refuses(() => b.phi(t.int), /phis must come first in their block/);
    refuses(() => mb.builder(entry).phi(t.void), /a phi cannot have type void/);
  });
  it('values belong to one function', () => {
    const { mb, b, t, a } = setup();
    const g = mb.addFunction('g', t.function(t.int, [t.int]), { argNames: ['z'] });
    const gb = mb.builder(mb.addBlock(g, 'entry'));
    const sum = gb.add(g.args[0]!, g.args[0]!, 'sum');
    refuses(() => b.add(a, sum), /add: the right operand \(int %sum\) belongs to another function than @f/);
    refuses(() => b.add(a, g.args[0]!), /belongs to another function than @f/);
    const st = b.store(a, b.alloca(t.int));
    refuses(() => b.load(st), /load: the address is a store instruction, which produces no value/);
    refuses(() => b.add(a, b.block as never), /the right operand is a basic block, which is not a value here/);
    refuses(() => new ModuleBuilder().builder().ret(), /ret: the builder is not positioned at a block/);
  });
  it('vector operations need packed types', () => {
    const { b, t, c, a } = setup();
    refuses(() => b.extractElement(a, c.int(t.uint, 0)), /extractelement: extracts from a packed vector, not int %a/);
    const v = c.packed([c.int(t.int, 1), c.int(t.int, 2)]);
    refuses(() => b.insertElement(v, c.fp(t.float, 1), c.int(t.uint, 0)), /the element float does not have the vector's element type int/);
    refuses(() => b.shuffleVector(v, v, c.packed([c.int(t.uint, 0)])), /shufflevector: the mask must be a <2 x uint>, not <1 x uint>/);
    refuses(() => b.vaarg(a, t.int), /va_arg: takes a pointer to the va_list, not int %a/);
    refuses(() => b.cast(a, t.struct([t.int])), /cast: cannot cast to \{ int \}/);
    refuses(() => b.select(a, a, a), /select: the condition must be a bool, not int %a/);
  });
});

describe('types of another builder', () => {
  it('a function type made by another ModuleBuilder is refused as such, not as "not a function type"', () => {
    const mine = new ModuleBuilder();
    const other = new ModuleBuilder();
    refuses(
      () => mine.addFunction('f', other.types.function(other.types.int, [])),
      /the function type int \(\) belongs to another ModuleBuilder: make it with this builder's types\.function/,
    );
    refuses(() => mine.addFunction('g', mine.types.int as never), /must be a function type made with types\.function\(\.\.\.\), not int/);
  });
});
