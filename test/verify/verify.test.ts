/**
 * The verifier names what is wrong with a module built in code, and `writeModule` refuses such a
 * module with its message. (That it finds nothing wrong in real modules is checked by the corpus
 * round trips, which go through `writeModule` and so through the verifier.)
 */
import { describe, expect, it } from 'vitest';
import { writeModule } from '../../src/encode/write.js';
import { InvalidModuleError, verifyModule } from '../../src/verify/verify.js';
import type { Module } from '../../src/graph/module.js';
import type { Type } from '../../src/graph/type.js';
import type { BasicBlock, Instruction, Value } from '../../src/graph/value.js';
import { block, emptyModule, fnType, func, global, inst, int, P, ptr } from '../encode/helpers.js';

/** A module with one function `f` of the given type whose blocks `body` builds from its arguments. */
function fn(ret: Type, params: Type[], body: (args: Value[]) => BasicBlock[]): Module {
  const m = emptyModule();
  const f = func(fnType(ret, params), 'f', []);
  f.blocks = body(f.args);
  f.isDeclaration = f.blocks.length === 0;
  m.functions.push(f);
  return m;
}

const ret = (v?: Value): Instruction => inst('ret', P.void, v ? [v] : []);
const br = (...ops: Value[]): Instruction => inst('br', P.void, ops);

function only(m: Module): string {
  const problems = verifyModule(m);
  expect(problems).toHaveLength(1);
  return problems[0]!;
}

describe('verifyModule', () => {
  it('finds nothing wrong in a valid module with a loop and a phi', () => {
    const m = fn(P.int, [P.int], ([n]) => {
      const entry = block([], 'entry');
      const loop = block([], 'loop');
      const exit = block([], 'exit');
      const i = inst('phi', P.int, [], { name: 'i' });
      const next = inst('add', P.int, [i, int(P.int, 1)], { name: 'next' });
      const done = inst('setge', P.bool, [next, n!], { name: 'done' });
      i.operands.push(int(P.int, 0), entry, next, loop);
      entry.instructions.push(br(loop));
      loop.instructions.push(i, next, done, br(done, exit, loop));
      exit.instructions.push(inst('ret', P.void, [next]));
      return [entry, loop, exit];
    });
    expect(verifyModule(m)).toEqual([]);
  });

  it('names an operand type mismatch, with the place', () => {
    const m = fn(P.void, [P.int, P.uint], ([a, b]) => [block([inst('add', P.int, [a!, b!], { name: 'sum' }), ret()], 'entry')]);
    expect(only(m)).toBe('function @f, block %entry (#0), instruction #0 (add %sum): the right operand has type uint, expected int');
  });

  it('names a missing terminator, an empty block and a terminator in the middle', () => {
    expect(only(fn(P.void, [P.int], ([a]) => [block([inst('add', P.int, [a!, a!])], 'entry')]))).toBe(
      'function @f, block %entry (#0): missing terminator (the last instruction is add)',
    );
    expect(only(fn(P.void, [], () => [block([ret()]), block([], 'dead')]))).toBe('function @f, block %dead (#1): the block is empty (it needs a terminator)');
    expect(only(fn(P.void, [], () => [block([ret(), ret()])]))).toBe(
      'function @f, block (unnamed) (#0), instruction #0 (ret): a terminator in the middle of the block',
    );
  });

  it('names a use of a value not defined in the function (an instruction of another function)', () => {
    const m = fn(P.void, [P.int], ([a]) => [block([inst('add', P.int, [a!, a!], { name: 'x' }), ret()])]);
    const x = m.functions[0]!.blocks[0]!.instructions[0]!;
    const g = func(fnType(P.void, []), 'g', [block([inst('add', P.int, [x, x], { name: 'y' }), ret()])]);
    m.functions.push(g);
    expect(verifyModule(m)).toEqual([
      'function @g, block (unnamed) (#0), instruction #0 (add %y): operand 0 is an instruction %x not defined in function @g',
      'function @g, block (unnamed) (#0), instruction #0 (add %y): operand 1 is an instruction %x not defined in function @g',
    ]);
  });

  it('names a global or function that is not in the module', () => {
    const stray = global(P.int, int(P.int, 1), 'stray');
    const m = fn(P.int, [], () => [block([inst('load', P.int, [stray], { name: 'v' }), inst('ret', P.void, [])])]);
    m.functions[0]!.blocks[0]!.instructions[1]!.operands.push(m.functions[0]!.blocks[0]!.instructions[0]!);
    expect(only(m)).toBe('function @f, block (unnamed) (#0), instruction #0 (load %v): uses global @stray, which is not in the module');
  });

  it('names a use that its definition does not dominate (same block, and across blocks)', () => {
    const early = fn(P.void, [P.int], ([a]) => {
      const y = inst('add', P.int, [a!, a!], { name: 'y' });
      const x = inst('add', P.int, [y, a!], { name: 'x' });
      return [block([x, y, ret()])];
    });
    expect(only(early)).toBe(
      'function @f, block (unnamed) (#0), instruction #0 (add %x): operand 0 (%y) is used before it is defined (its definition does not dominate this use)',
    );
    const diamond = fn(P.void, [P.bool, P.int], ([c, a]) => {
      const [entry, then, other, join] = ['entry', 'then', 'else', 'join'].map((n) => block([], n)) as [BasicBlock, BasicBlock, BasicBlock, BasicBlock];
      const t = inst('add', P.int, [a!, a!], { name: 't' });
      entry.instructions.push(br(c!, then, other));
      then.instructions.push(t, br(join));
      other.instructions.push(br(join));
      join.instructions.push(inst('add', P.int, [t, a!], { name: 'u' }), ret());
      return [entry, then, other, join];
    });
    expect(only(diamond)).toBe(
      'function @f, block %join (#3), instruction #0 (add %u): operand 0 (%t) is used before it is defined (its definition does not dominate this use)',
    );
  });

  it('names a use of an instruction that produces no value', () => {
    const m = fn(P.void, [P.int, ptr(P.int)], ([a, p]) => {
      const st = inst('store', P.void, [a!, p!]);
      return [block([st, inst('add', P.int, [a!, st as unknown as Value]), ret()])];
    });
    expect(verifyModule(m)).toContain('function @f, block (unnamed) (#0), instruction #1 (add): operand 1 is a store instruction, which produces no value');
  });

  it('names a phi after other instructions', () => {
    const m = fn(P.void, [P.int], ([a]) => {
      const entry = block([], 'entry');
      entry.instructions.push(inst('add', P.int, [a!, a!]), inst('phi', P.int, [a!, entry]), ret());
      return [entry];
    });
    expect(verifyModule(m)).toContain('function @f, block %entry (#0), instruction #1 (phi): phi nodes must come first in their block');
  });

  it("names a phi whose incoming blocks are not its block's predecessors", () => {
    const m = fn(P.int, [P.bool, P.int], ([c, a]) => {
      const [entry, left, right, join] = ['entry', 'left', 'right', 'join'].map((n) => block([], n)) as [BasicBlock, BasicBlock, BasicBlock, BasicBlock];
      entry.instructions.push(br(c!, left, right));
      left.instructions.push(br(join));
      right.instructions.push(br(join));
      // Missing the entry from %right; %entry is no predecessor of %join.
      join.instructions.push(inst('phi', P.int, [a!, left, a!, entry], { name: 'p' }), inst('ret', P.void, [a!]));
      return [entry, left, right, join];
    });
    expect(only(m)).toBe(
      "function @f, block %join (#3), instruction #0 (phi %p): the phi's incoming blocks (#0, #1) are not its block's predecessors (#1, #2)",
    );
  });

  it('names wrong calls: argument count and argument type', () => {
    const callee = func(fnType(P.int, [P.int]), 'callee');
    const few = fn(P.void, [], () => [block([inst('call', P.int, [callee]), ret()])]);
    few.functions.push(callee);
    expect(only(few)).toBe('function @f, block (unnamed) (#0), instruction #0 (call): 0 arguments for a callee taking 1');
    const wrong = fn(P.void, [P.uint], ([a]) => [block([inst('call', P.int, [callee, a!]), ret()])]);
    wrong.functions.push(callee);
    expect(only(wrong)).toBe('function @f, block (unnamed) (#0), instruction #0 (call): argument 0 has type uint, expected int');
  });

  it('names a wrong return, a load from a non-pointer and a wrong store', () => {
    expect(only(fn(P.int, [P.uint], ([a]) => [block([ret(a)])]))).toBe(
      'function @f, block (unnamed) (#0), instruction #0 (ret): the returned value has type uint, expected int',
    );
    expect(only(fn(P.void, [P.int], ([a]) => [block([inst('load', P.int, [a!]), ret()])]))).toBe(
      'function @f, block (unnamed) (#0), instruction #0 (load): loads from a int, not a pointer',
    );
    expect(only(fn(P.void, [P.int, ptr(P.uint)], ([a, p]) => [block([inst('store', P.void, [a!, p!]), ret()])]))).toBe(
      'function @f, block (unnamed) (#0), instruction #0 (store): the stored value has type int, expected uint',
    );
  });

  it('names wrong globals: initializer type and a constant out of range', () => {
    const m = emptyModule();
    m.globals.push(global(P.int, int(P.uint, 1), 'g'));
    expect(only(m)).toBe('global @g: initializer of type uint, expected int');
    const m2 = emptyModule();
    m2.globals.push(global(P.ubyte, int(P.ubyte, 300), 'h'));
    expect(only(m2)).toBe('global @h: the constant 300 does not fit type ubyte');
  });

  it('stops after maxProblems', () => {
    const m = emptyModule();
    for (let i = 0; i < 10; i++) m.globals.push(global(P.int, int(P.uint, 1), `g${i}`));
    expect(verifyModule(m, { maxProblems: 3 })).toHaveLength(3);
  });
});

describe('writeModule refuses an invalid module with the verifier message', () => {
  it('throws InvalidModuleError listing the problems', () => {
    const m = fn(P.void, [P.int, P.uint], ([a, b]) => [block([inst('add', P.int, [a!, b!]), ret()], 'entry')]);
    let error: unknown;
    try {
      writeModule(m);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidModuleError);
    expect((error as InvalidModuleError).message).toBe(
      'invalid module: function @f, block %entry (#0), instruction #0 (add): the right operand has type uint, expected int',
    );
    expect((error as InvalidModuleError).problems).toHaveLength(1);
  });

  it('writes a valid module built in code', () => {
    const m = fn(P.int, [P.int], ([a]) => [block([inst('ret', P.void, [a!])])]);
    expect(writeModule(m).length).toBeGreaterThan(0);
  });
});
