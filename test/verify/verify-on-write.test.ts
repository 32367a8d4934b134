import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InvalidModuleError, verifyModule, writeModule } from '../../src/index.js';
import { readModule } from '../../src/read.js';
import type { Module } from '../../src/graph/module.js';
import type { Instruction } from '../../src/graph/value.js';
import { primitiveTypes as P } from '../../src/graph/type.js';
import { compactBodyOf } from '../../src/graph/compact-body.js';

const HELLO = resolve(dirname(fileURLToPath(import.meta.url)), '../../corpus/hello.bc');

/** A fresh read of the project's own sample module (its `sum` has a loop with adds and phis). */
function hello(): Module {
  return readModule(readFileSync(HELLO));
}

function instructionNamed(m: Module, fn: string, name: string): Instruction {
  for (const bb of m.functions.find((f) => f.name === fn)!.blocks) {
    for (const inst of bb.instructions) if (inst.name === name) return inst;
  }
  throw new Error(`no %${name} in @${fn}`);
}

const NO_COMPRESSION = { compression: 'none' } as const;

describe('writeModule verifies every module, also one that readModule returned and the caller edited', () => {
  it('writes a module just read, unchanged, as it was', () => {
    const bytes = readFileSync(HELLO);
    expect(Buffer.from(writeModule(hello(), { bytecodeVersion: readModule(bytes).source?.bytecodeVersion ?? 6 }))).toEqual(bytes);
  });

  it('refuses an operand replaced by a value of the wrong type, with the verifier’s message', () => {
    const m = hello();
    const add = instructionNamed(m, 'sum', 'acc.next');
    add.operands[1] = { kind: 'fp', type: P.double, value: 1, bits: 0x3ff0000000000000n };
    const problems = verifyModule(m);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/@sum, block %loop .*\(add %acc\.next\): the right operand has type double, expected int/);
    expect(() => writeModule(m, NO_COMPRESSION)).toThrow(InvalidModuleError);
    expect(() => writeModule(m, NO_COMPRESSION)).toThrow(problems[0]);
  });

  it('refuses an edit made after the module was written once (nothing is remembered between writes)', () => {
    const m = hello();
    writeModule(m, NO_COMPRESSION);
    // A use moved before its definition: %acc.next now adds %i.next, defined after it.
    const add = instructionNamed(m, 'sum', 'acc.next');
    add.operands[1] = instructionNamed(m, 'sum', 'i.next');
    expect(() => writeModule(m, NO_COMPRESSION)).toThrow(/operand 1 \(%i\.next\) is used before it is defined/);
  });

  it('refuses an operand taken from another function', () => {
    const m = hello();
    const other = m.functions.find((f) => f.name !== 'sum' && f.blocks.length !== 0)!;
    const foreign = other.blocks[0]!.instructions.find((i) => i.type.kind === 'int');
    const add = instructionNamed(m, 'sum', 'acc.next');
    expect(foreign).toBeDefined();
    add.operands[0] = foreign!;
    expect(() => writeModule(m, NO_COMPRESSION)).toThrow(/operand 0 is an instruction( %\S+)? not defined in function @sum/);
  });
});

describe('a body still as read is checked once; what can change around it is checked at every write', () => {
  const fn = (m: Module, name: string) => m.functions.find((f) => f.name === name)!;

  it('writes a module just read without building its bodies as objects, twice the same', () => {
    const bytes = readFileSync(HELLO);
    const m = hello();
    const first = writeModule(m);
    expect(m.functions.filter((f) => !f.isDeclaration).every((f) => compactBodyOf(f) !== undefined)).toBe(true);
    expect(Buffer.from(writeModule(m))).toEqual(Buffer.from(first));
    expect(Buffer.from(first)).toEqual(bytes);
  });

  it('writes the same bytes from bodies materialized as objects (the same encoder over their compact form)', () => {
    const m = hello();
    for (const f of m.functions) void f.blocks;
    expect(m.functions.some((f) => compactBodyOf(f) !== undefined)).toBe(false);
    expect(Buffer.from(writeModule(m))).toEqual(readFileSync(HELLO));
  });

  it('refuses a function removed from the module while a compact body still calls it, with the verifier’s message', () => {
    const m = hello();
    writeModule(m, NO_COMPRESSION);
    m.functions = m.functions.filter((f) => f.name !== 'puts');
    const problems = verifyModule(m);
    expect(problems[0]).toMatch(/@main, block %entry .*\(call %tmp\): uses function @puts, which is not in the module/);
    expect(compactBodyOf(fn(m, 'main'))).toBeDefined();
    expect(() => writeModule(m, NO_COMPRESSION)).toThrow(InvalidModuleError);
    expect(() => writeModule(m, NO_COMPRESSION)).toThrow(problems[0]);
  });

  it('refuses arguments replaced under a compact body that uses the old ones', () => {
    const m = hello();
    writeModule(m, NO_COMPRESSION);
    const sum = fn(m, 'sum');
    sum.args = [{ kind: 'argument', type: P.int, name: 'n', index: 0 }];
    const problems = verifyModule(m);
    expect(problems[0]).toMatch(/@sum, block %entry .*\(setlt %empty\): operand 0 is an argument %n not defined in function @sum/);
    expect(() => writeModule(m, NO_COMPRESSION)).toThrow(problems[0]);
  });

  it('refuses a constant edited in place (a structure index now out of range) under a compact body', () => {
    const m = hello();
    writeModule(m, NO_COMPRESSION);
    const main = fn(m, 'main');
    const index = compactBodyOf(main)!.values.find((v) => v.kind === 'int' && v.type === P.uint && v.value === 0n);
    expect(index).toBeDefined();
    (index as { value: bigint }).value = 5n;
    const problems = verifyModule(m);
    expect(problems[0]).toMatch(/@main, block %entry .*\(getelementptr %count\): index 2 selects field 5 of a structure with 2/);
    expect(() => writeModule(m, NO_COMPRESSION)).toThrow(problems[0]);
  });

  it('refuses a constant whose type was changed in place under a compact body', () => {
    const m = hello();
    writeModule(m, NO_COMPRESSION);
    const ten = compactBodyOf(fn(m, 'main'))!.values.find((v) => v.kind === 'int' && v.value === 10n)!;
    ten.type = P.long;
    const problems = verifyModule(m);
    expect(problems.length).toBeGreaterThan(0);
    expect(() => writeModule(m, NO_COMPRESSION)).toThrow(problems[0]);
  });
});
