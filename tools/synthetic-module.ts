/**
 * A large module made in code, for benchmarks that must not depend on the corpus: `functions`
 * copies of a small numeric kernel (a loop with phis, arithmetic on every integer width, loads and
 * stores through a global, calls between functions, a switch), about 60 instructions each.
 */
import { emptyModule } from '../src/graph/describe.js';
import type { Module } from '../src/graph/module.js';
import { primitiveTypes as P, type FunctionType, type PointerType, type Type } from '../src/graph/type.js';
import type { BasicBlock, Constant, Function, GlobalVariable, Instruction, Value } from '../src/graph/value.js';

const int = (t: Type, v: number): Constant => ({ kind: 'int', type: t, value: BigInt(v) });
const inst = (opcode: Instruction['opcode'], type: Type, operands: Value[], extra: Partial<Instruction> = {}): Instruction => ({
  kind: 'instruction',
  opcode,
  type,
  operands,
  ...extra,
});
const block = (name: string): BasicBlock => ({ kind: 'block', type: P.label, name, instructions: [] });

export function syntheticModule(functions: number): Module {
  const m = emptyModule();
  m.endianness = 'little';
  m.pointerSize = 32;
  m.targetTriple = 'i686-pc-linux-gnu';
  const intPtr: PointerType = { kind: 'pointer', element: P.int };
  const fnType: FunctionType = { kind: 'function', returnType: P.int, params: [P.int, P.int], isVarArg: false };
  const fnPtr: PointerType = { kind: 'pointer', element: fnType };
  m.types = [intPtr, fnType, fnPtr];
  const counter: GlobalVariable = {
    kind: 'global',
    type: intPtr,
    valueType: P.int,
    name: 'counter',
    linkage: 'internal',
    isConstant: false,
    alignment: 0,
    initializer: int(P.int, 0),
  };
  m.globals.push(counter);
  let previous: Function | undefined;
  for (let f = 0; f < functions; f++) {
    const fn: Function = {
      kind: 'function',
      type: fnPtr,
      functionType: fnType,
      name: `kernel${f}`,
      linkage: f === 0 ? 'external' : 'internal',
      callingConv: 0,
      alignment: 0,
      isDeclaration: false,
      blocks: [],
      args: [
        { kind: 'argument', type: P.int, index: 0, name: 'n' },
        { kind: 'argument', type: P.int, index: 1, name: 'seed' },
      ],
    };
    const [n, seed] = fn.args as [Value, Value];
    const entry = block('entry');
    const loop = block('loop');
    const odd = block('odd');
    const next = block('next');
    const exit = block('exit');
    const empty = inst('setle', P.bool, [n, int(P.int, 0)], { name: 'empty' });
    entry.instructions.push(empty, inst('br', P.void, [empty, exit, loop]));
    const i = inst('phi', P.int, [], { name: 'i' });
    const acc = inst('phi', P.int, [], { name: 'acc' });
    const body: Instruction[] = [];
    let x: Value = acc;
    for (let k = 0; k < 8; k++) {
      const op = (['add', 'mul', 'xor', 'sub', 'and', 'or', 'shl', 'shr'] as const)[k]!;
      const rhs: Value = op === 'shl' || op === 'shr' ? int(P.ubyte, k + 1) : k % 2 ? i : int(P.int, 31 * k + 7);
      const y = inst(op, P.int, [x, rhs]);
      body.push(y);
      x = y;
    }
    const asLong = inst('cast', P.long, [x]);
    const wide = inst('mul', P.long, [asLong, int(P.long, 1_000_003)]);
    const back = inst('cast', P.int, [wide]);
    const old = inst('load', P.int, [counter]);
    const sum = inst('add', P.int, [old, back]);
    const bit = inst('and', P.int, [sum, int(P.int, 1)]);
    const isOdd = inst('setne', P.bool, [bit, int(P.int, 0)]);
    loop.instructions.push(
      i,
      acc,
      ...body,
      asLong,
      wide,
      back,
      old,
      sum,
      inst('store', P.void, [sum, counter]),
      bit,
      isOdd,
      inst('br', P.void, [isOdd, odd, next]),
    );
    const called = previous ? inst('call', P.int, [previous, i, sum], { callingConv: 0, isTailCall: false }) : inst('add', P.int, [sum, seed]);
    odd.instructions.push(called, inst('br', P.void, [next]));
    const merged = inst('phi', P.int, [sum, loop, called, odd], { name: 'merged' });
    const i1 = inst('add', P.int, [i, int(P.int, 1)], { name: 'i.next' });
    const done = inst('setge', P.bool, [i1, n]);
    next.instructions.push(merged, i1, done, inst('br', P.void, [done, exit, loop]));
    i.operands = [int(P.int, 0), entry, i1, next];
    acc.operands = [seed, entry, merged, next];
    const result = inst('phi', P.int, [seed, entry, merged, next], { name: 'result' });
    exit.instructions.push(result, inst('ret', P.void, [result]));
    fn.blocks = [entry, loop, odd, next, exit];
    m.functions.push(fn);
    previous = fn;
  }
  return m;
}
