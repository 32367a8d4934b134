/**
 * The module behind `corpus/hello.bc`, the project's own sample: built here with the graph types,
 * written by our writer (`npm run make-hello`), and printed by `npm start`.
 *
 * Small, but it touches most of what a reader and printer must get right: target settings, a named
 * struct type, string constants, a zero-initialized global, an external and a varargs declaration,
 * a loop with phi nodes, calls (named, unnamed, through a constant getelementptr), a struct field
 * store and a value numbered instead of named. In LLVM 1.9 assembly it reads:
 *
 *     %.str = internal constant [14 x sbyte] c"Hello, world!\00"
 *     int %sum(int %n)   ; 1 + 2 + … + n, with a loop and two phis
 *     int %main()        ; puts, sum(10), store into %state, printf
 *
 * (the exact listing is `corpus/hello.ll`).
 */
import type { Module } from '../src/graph/module.js';
import { primitiveTypes as P, type ArrayType, type FunctionType, type PointerType, type StructType, type Type } from '../src/graph/type.js';
import type { BasicBlock, Constant, ConstantAggregate, Function, GlobalVariable, Instruction, Value } from '../src/graph/value.js';

/**
 * One object per distinct derived type, as the writer's slot calculator (like a decoded module)
 * identifies types by object.
 */
class Types {
  private readonly pointers = new Map<Type, PointerType>();
  private readonly arrays = new Map<string, ArrayType>();
  private readonly ids = new Map<Type, number>();

  ptr(element: Type): PointerType {
    let t = this.pointers.get(element);
    if (!t) this.pointers.set(element, (t = { kind: 'pointer', element }));
    return t;
  }

  array(element: Type, length: number): ArrayType {
    const key = `${this.id(element)}x${length}`;
    let t = this.arrays.get(key);
    if (!t) this.arrays.set(key, (t = { kind: 'array', element, length }));
    return t;
  }

  private id(t: Type): number {
    let n = this.ids.get(t);
    if (n === undefined) this.ids.set(t, (n = this.ids.size));
    return n;
  }
}

const int = (type: Type, value: number): Constant => ({ kind: 'int', type, value: BigInt(value) });

function inst(opcode: Instruction['opcode'], type: Type, operands: Value[], name?: string): Instruction {
  return { kind: 'instruction', opcode, type, operands, ...(name !== undefined ? { name } : {}) };
}

function call(callee: Function, args: Value[], name?: string): Instruction {
  return { ...inst('call', callee.functionType.returnType, [callee, ...args], name), callingConv: 0 };
}

function block(name: string, instructions: Instruction[]): BasicBlock {
  return { kind: 'block', type: P.label, name, instructions };
}

/** A NUL-terminated string as LLVM 1.x stored C strings: an array of sbyte. */
function cString(types: Types, text: string): ConstantAggregate {
  const bytes = [...Buffer.from(text + '\0', 'latin1')];
  return {
    kind: 'array',
    type: types.array(P.sbyte, bytes.length),
    elements: bytes.map((b) => int(P.sbyte, b > 127 ? b - 256 : b)),
  };
}

function internalConstant(types: Types, name: string, init: ConstantAggregate): GlobalVariable {
  return { kind: 'global', type: types.ptr(init.type), valueType: init.type, name, linkage: 'internal', isConstant: true, initializer: init, alignment: 0 };
}

function declare(types: Types, name: string, functionType: FunctionType): Function {
  return {
    kind: 'function',
    type: types.ptr(functionType),
    functionType,
    name,
    linkage: 'external',
    callingConv: 0,
    alignment: 0,
    isDeclaration: true,
    args: functionType.params.map((type, index) => ({ kind: 'argument', type, index })),
    blocks: [],
  };
}

/** A fresh copy of the hello module (each call builds new objects). */
export function buildHelloModule(): Module {
  const types = new Types();
  const sbytePtr = types.ptr(P.sbyte);
  const counter: StructType = { kind: 'struct', elements: [P.int, sbytePtr] };

  const hello = internalConstant(types, '.str', cString(types, 'Hello, world!'));
  const format = internalConstant(types, 'fmt', cString(types, 'sum(%d) = %d\n'));
  const state: GlobalVariable = {
    kind: 'global',
    type: types.ptr(counter),
    valueType: counter,
    name: 'state',
    linkage: 'internal',
    isConstant: false,
    initializer: { kind: 'zeroinitializer', type: counter },
    alignment: 0,
  };

  const intOfInt: FunctionType = { kind: 'function', returnType: P.int, params: [P.int], isVarArg: false };
  const puts = declare(types, 'puts', { kind: 'function', returnType: P.int, params: [sbytePtr], isVarArg: false });
  const printf = declare(types, 'printf', { kind: 'function', returnType: P.int, params: [sbytePtr], isVarArg: true });

  // int %sum(int %n): 1 + 2 + … + n, or 0 when n < 1.
  const sum = declare(types, 'sum', intOfInt);
  sum.isDeclaration = false;
  const n = sum.args[0]!;
  n.name = 'n';
  const entry = block('entry', []);
  const loop = block('loop', []);
  const exit = block('exit', []);
  const empty = inst('setlt', P.bool, [n, int(P.int, 1)], 'empty');
  entry.instructions.push(empty, inst('br', P.void, [empty, exit, loop]));
  const i = inst('phi', P.int, [], 'i');
  const acc = inst('phi', P.int, [], 'acc');
  const accNext = inst('add', P.int, [acc, i], 'acc.next');
  const iNext = inst('add', P.int, [i, int(P.int, 1)], 'i.next');
  i.operands.push(int(P.int, 1), entry, iNext, loop);
  acc.operands.push(int(P.int, 0), entry, accNext, loop);
  const done = inst('setgt', P.bool, [iNext, n], 'done');
  loop.instructions.push(i, acc, accNext, iNext, done, inst('br', P.void, [done, exit, loop]));
  const result = inst('phi', P.int, [int(P.int, 0), entry, accNext, loop], 'result');
  exit.instructions.push(result, inst('ret', P.void, [result]));
  sum.blocks.push(entry, loop, exit);

  // int %main(): greets, sums 1..10, keeps the total in %state, prints it.
  const main = declare(types, 'main', { kind: 'function', returnType: P.int, params: [], isVarArg: false });
  main.isDeclaration = false;
  const firstChar = (g: GlobalVariable): Constant => ({
    kind: 'expr',
    type: sbytePtr,
    opcode: 'getelementptr',
    operands: [g, int(P.long, 0), int(P.long, 0)],
  });
  const total = call(sum, [int(P.int, 10)], 'total');
  const field = inst('getelementptr', types.ptr(P.int), [state, int(P.long, 0), int(P.uint, 0)], 'count');
  main.blocks.push(
    block('entry', [
      call(puts, [firstChar(hello)], 'tmp'),
      total,
      field,
      inst('store', P.void, [total, field]),
      call(printf, [firstChar(format), int(P.int, 10), total]),
      inst('ret', P.void, [int(P.int, 0)]),
    ]),
  );

  return {
    kind: 'module',
    endianness: 'little',
    pointerSize: 32,
    targetTriple: 'i686-pc-linux-gnu',
    inlineAsm: '',
    dependentLibraries: [],
    types: [],
    typeNames: new Map<string, Type>([['struct.counter', counter]]),
    globals: [hello, format, state],
    functions: [puts, printf, sum, main],
  };
}
