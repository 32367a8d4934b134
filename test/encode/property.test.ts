/**
 * Property: a random valid module, written at any writable version and read back, is the same
 * module. "The same" is judged two ways: LLVM 1.9's disassembly of both is identical (names,
 * types, constants, instructions, uses), and writing the module read back gives the same bytes
 * again (the writer is a function of what the reader recovers).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeModule } from '../../src/encode/write.js';
import type { Module } from '../../src/graph/module.js';
import type { Type } from '../../src/graph/type.js';
import type { BasicBlock, Constant, Function, GlobalVariable, Instruction, Linkage, Value } from '../../src/graph/value.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { P, block, emptyModule, fnType, func, global, inst, ptr } from './helpers.js';

const INT_TYPES = [P.sbyte, P.ubyte, P.short, P.ushort, P.int, P.uint, P.long, P.ulong] as const;
const BITS: Record<string, number> = { sbyte: 8, ubyte: 8, short: 16, ushort: 16, int: 32, uint: 32, long: 64, ulong: 64 };
const SIGNED = new Set(['sbyte', 'short', 'int', 'long']);

function intConstant(t: Type, seed: bigint): Constant {
  const bits = BigInt(BITS[t.kind]!);
  const range = 1n << bits;
  let v = ((seed % range) + range) % range;
  if (SIGNED.has(t.kind) && v >= range / 2n) v -= range;
  return { kind: 'int', type: t, value: v };
}

interface GlobalSpec {
  type: number;
  init: bigint | null;
  isConstant: boolean;
  linkage: Linkage;
  name: string | null;
}

interface FunctionSpec {
  type: number;
  ops: ('add' | 'sub' | 'mul' | 'and' | 'or' | 'xor')[];
  constants: bigint[];
  compare: 'seteq' | 'setne' | 'setlt' | 'setgt' | 'setle' | 'setge';
  named: boolean;
  callsPrevious: boolean;
  loadsGlobal: boolean;
}

const nameArb = fc.option(fc.stringMatching(/^[a-zA-Z_.$][a-zA-Z0-9_.$]{0,8}$/), { nil: null });

const globalArb: fc.Arbitrary<GlobalSpec> = fc.record({
  type: fc.nat(INT_TYPES.length - 1),
  init: fc.option(fc.bigInt({ min: -(1n << 64n), max: 1n << 64n }), { nil: null }),
  isConstant: fc.boolean(),
  linkage: fc.constantFrom<Linkage>('external', 'internal', 'weak', 'linkonce'),
  name: nameArb,
});

const functionArb: fc.Arbitrary<FunctionSpec> = fc.record({
  type: fc.nat(INT_TYPES.length - 1),
  ops: fc.array(fc.constantFrom('add', 'sub', 'mul', 'and', 'or', 'xor'), { minLength: 1, maxLength: 6 }),
  constants: fc.array(fc.bigInt({ min: -1000n, max: 1000n }), { minLength: 1, maxLength: 6 }),
  compare: fc.constantFrom('seteq', 'setne', 'setlt', 'setgt', 'setle', 'setge'),
  named: fc.boolean(),
  callsPrevious: fc.boolean(),
  loadsGlobal: fc.boolean(),
});

/**
 * Builds the module: globals, then functions `T f(T a, T b)` that compute a chain of binary
 * operations, optionally load a global of their type and call the previous function of the same
 * type, compare, branch, and return from one of two blocks (a phi joins them).
 */
function buildModule(globals: GlobalSpec[], functions: FunctionSpec[]): Module {
  const m = emptyModule();
  const types = new Map<Type, Type>();
  const pointerTo = (t: Type): Type => {
    let p = types.get(t);
    if (!p) types.set(t, (p = ptr(t)));
    return p;
  };
  for (const [i, g] of globals.entries()) {
    const t = INT_TYPES[g.type]!;
    const gv: GlobalVariable = global(t, g.init === null ? undefined : intConstant(t, g.init), g.name === null ? undefined : `${g.name}${i}`);
    gv.type = pointerTo(t) as GlobalVariable['type'];
    gv.isConstant = g.init !== null && g.isConstant;
    gv.linkage = g.init === null ? 'external' : g.linkage;
    m.globals.push(gv);
  }
  const fnTypes = new Map<Type, ReturnType<typeof fnType>>();
  const previous = new Map<Type, Function>();
  for (const [i, spec] of functions.entries()) {
    const t = INT_TYPES[spec.type]!;
    let ft = fnTypes.get(t);
    if (!ft) fnTypes.set(t, (ft = fnType(t, [t, t])));
    const entry: Instruction[] = [];
    const f = func(ft, `f${i}`);
    const [a, b] = f.args;
    if (spec.named) {
      a!.name = 'a';
      b!.name = 'b';
    }
    let acc: Value = a!;
    spec.ops.forEach((op, k) => {
      const rhs = k % 2 === 0 ? b! : intConstant(t, spec.constants[k % spec.constants.length]!);
      const x = inst(op, t, [acc, rhs], spec.named ? { name: `x${k}` } : {});
      entry.push(x);
      acc = x;
    });
    const g = m.globals.find((gv) => gv.valueType === t);
    if (spec.loadsGlobal && g) {
      const l = inst('load', t, [g]);
      entry.push(l, inst('add', t, [acc, l]));
      acc = entry[entry.length - 1]!;
    }
    const prev = previous.get(t);
    if (spec.callsPrevious && prev) {
      const c = inst('call', t, [prev, acc, b!], { callingConv: 0, isTailCall: false });
      entry.push(c);
      acc = c;
    }
    const cmp = inst(spec.compare, P.bool, [acc, intConstant(t, spec.constants[0]!)]);
    const thenBlock: BasicBlock = block([], spec.named ? 'then' : undefined);
    const joinBlock: BasicBlock = block([], spec.named ? 'join' : undefined);
    entry.push(cmp, inst('br', P.void, [cmp, thenBlock, joinBlock]));
    const entryBlock = block(entry, spec.named ? 'entry' : undefined);
    const doubled = inst('add', t, [acc, acc]);
    thenBlock.instructions.push(doubled, inst('br', P.void, [joinBlock]));
    const phi = inst('phi', t, [acc, entryBlock, doubled, thenBlock]);
    joinBlock.instructions.push(phi, inst('ret', P.void, [phi]));
    f.blocks = [entryBlock, thenBlock, joinBlock];
    f.isDeclaration = false;
    if (!spec.named) f.linkage = 'internal';
    m.functions.push(f);
    previous.set(t, f);
  }
  m.types = [...fnTypes.values(), ...types.values()];
  return m;
}

describe('random modules survive writing and reading at every writable version', () => {
  for (const version of [0, 1, 3, 5, 6]) {
    it(`version ${version}`, () => {
      fc.assert(
        fc.property(fc.array(globalArb, { maxLength: 5 }), fc.array(functionArb, { minLength: 1, maxLength: 4 }), (globals, functions) => {
          const m = buildModule(globals, functions);
          const bytes = writeModule(m, { bytecodeVersion: version, compression: 'none' });
          const back = readModule(bytes);
          expect(back.source?.bytecodeVersion).toBe(version);
          expect(printModule(back)).toBe(printModule(m));
          expect(writeModule(back, { bytecodeVersion: version, compression: 'none' })).toEqual(bytes);
        }),
        { numRuns: 60, seed: 1984 },
      );
    });
  }
});
