import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InvalidModuleError, verifyModule, writeModule } from '../../src/index.js';
import { readModule } from '../../src/read.js';
import type { Module } from '../../src/graph/module.js';
import type { Instruction } from '../../src/graph/value.js';
import { primitiveTypes as P } from '../../src/graph/type.js';

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
