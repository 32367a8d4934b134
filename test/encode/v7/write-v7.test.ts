/**
 * Version 7's writer (src/encode/v7) beyond the corpus round trip (roundtrip.test.ts): what it
 * writes for modules built in code, its container choice, its symbol-table order when the module
 * records none, and what it refuses.
 */
import { describe, expect, it } from 'vitest';
import { emptyModule } from '../../../src/graph/describe.js';
import { integerType, primitiveTypes, type FunctionType, type PointerType } from '../../../src/graph/type.js';
import type { Function, GlobalVariable, Instruction } from '../../../src/graph/value.js';
import { writeModule } from '../../../src/encode/write.js';
import { EncodeError } from '../../../src/encode/encode-error.js';
import { readModule } from '../../../src/read.js';
import { stringMapOrder } from '../../../src/encode/v7/string-map-order.js';

const i32 = integerType(32);

function sampleModule(): ReturnType<typeof emptyModule> {
  const m = emptyModule();
  m.dataLayout = 'e-p:32:32';
  const gptr: PointerType = { kind: 'pointer', element: i32 };
  const g: GlobalVariable = {
    kind: 'global',
    type: gptr,
    valueType: i32,
    name: 'g',
    linkage: 'internal',
    isConstant: false,
    alignment: 4,
    initializer: { kind: 'int', type: i32, value: -7n },
    isThreadLocal: true,
  };
  const ft: FunctionType = { kind: 'function', returnType: integerType(1), params: [i32], isVarArg: false, paramAttributes: [{ index: 1, attributes: 1 }] };
  const f: Function = {
    kind: 'function',
    type: { kind: 'pointer', element: ft },
    functionType: ft,
    name: 'f',
    linkage: 'external',
    callingConv: 0,
    alignment: 0,
    isDeclaration: false,
    args: [],
    blocks: [],
    visibility: 'hidden',
  };
  const a = { kind: 'argument' as const, type: i32, name: 'a', index: 0 };
  f.args.push(a);
  const load: Instruction = { kind: 'instruction', opcode: 'load', type: i32, operands: [g], name: 'v', alignment: 4 };
  const cmp: Instruction = { kind: 'instruction', opcode: 'icmp', type: integerType(1), operands: [load, a], name: 'c', predicate: 'sgt' };
  const ret: Instruction = { kind: 'instruction', opcode: 'ret', type: primitiveTypes.void, operands: [cmp] };
  f.blocks.push({ kind: 'block', type: primitiveTypes.label, name: 'entry', instructions: [load, cmp, ret] });
  m.globals.push(g);
  m.functions.push(f);
  return m;
}

describe('writeModule(m, { bytecodeVersion: 7 })', () => {
  it('writes a bare version word 7 and what reads back as the same module', () => {
    const bytes = writeModule(sampleModule(), { bytecodeVersion: 7 });
    expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('llvm');
    expect(bytes[12]).toBe(7); // after the signature and the long module header
    const back = readModule(bytes);
    expect(back.dataLayout).toBe('e-p:32:32');
    expect(back.globals[0]).toMatchObject({ name: 'g', linkage: 'internal', alignment: 4, isThreadLocal: true });
    expect(back.functions[0]).toMatchObject({ name: 'f', visibility: 'hidden' });
    expect(back.functions[0]!.functionType.paramAttributes).toEqual([{ index: 1, attributes: 1 }]);
    const insts = back.functions[0]!.blocks[0]!.instructions;
    expect(insts.map((i) => [i.opcode, i.name, i.predicate ?? i.alignment])).toEqual([
      ['load', 'v', 4],
      ['icmp', 'c', 'sgt'],
      ['ret', undefined, undefined],
    ]);
    expect(writeModule(back, { bytecodeVersion: 7 })).toEqual(bytes);
  });

  it('compresses only when asked, as r36867 llvm-as did', () => {
    const m = sampleModule();
    expect(String.fromCharCode(...writeModule(m, { bytecodeVersion: 7 }).subarray(0, 4))).toBe('llvm');
    expect(String.fromCharCode(...writeModule(m, { bytecodeVersion: 7, compression: 'llvm' }).subarray(0, 5))).toBe('llvc0');
  });

  it('refuses a module that still has signed integer types, naming the type', () => {
    const m = emptyModule();
    m.globals.push({
      kind: 'global',
      type: { kind: 'pointer', element: primitiveTypes.int },
      valueType: primitiveTypes.int,
      name: 'x',
      linkage: 'external',
      isConstant: false,
      alignment: 0,
    });
    expect(() => writeModule(m, { bytecodeVersion: 7 })).toThrow(EncodeError);
    expect(() => writeModule(m, { bytecodeVersion: 7 })).toThrow(/the int type cannot be written in bytecode version 7/);
  });
});

describe('stringMapOrder (LLVM StringMap iteration)', () => {
  it('iterates by bucket of the Bernstein hash, not by insertion or name', () => {
    // hash('a') & 15 = 4, hash('b') & 15 = 5, hash('V') & 15 = 8.
    expect(stringMapOrder(['V', 'b', 'a'])).toEqual(['a', 'b', 'V']);
  });

  it('probes quadratically on collisions, so insertion order matters', () => {
    // 'a' and 'q' share bucket 4 (hashes 100 and 116); the later one probes to bucket 5.
    expect(stringMapOrder(['a', 'q', 'b'])).toEqual(['a', 'q', 'b']);
    expect(stringMapOrder(['q', 'a', 'b'])).toEqual(['q', 'a', 'b']);
  });

  it('keeps every name when the table grows', () => {
    const names = Array.from({ length: 100 }, (_, i) => `n${i}`);
    expect([...stringMapOrder(names)].sort()).toEqual([...names].sort());
  });
});
