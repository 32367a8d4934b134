/**
 * Printing part of a module (issue 15): one function, one instruction, and the number an unnamed
 * value prints as, each exactly as in the whole listing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ModuleBuilder } from '../../src/build/index.js';
import { printFunction, printInstruction, printModule, readModule, slotNumberOf, type IRFunction } from '../../src/index.js';

const HELLO = readModule(new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url))));
const HELLO_LL = readFileSync(new URL('../../corpus/hello.ll', import.meta.url), 'latin1');

function fn(name: string): IRFunction {
  return HELLO.functions.find((f) => f.name === name)!;
}

/** A function with unnamed values: `int %f(int, int)` adding its arguments and one more. */
function unnamed() {
  const mb = new ModuleBuilder();
  const { types: t, constants: c } = mb;
  const g = mb.addGlobal(undefined, t.int, { initializer: c.int(t.int, 7) });
  const f = mb.addFunction('f', t.function(t.int, [t.int, t.int]));
  const b = mb.builder(mb.addBlock(f, undefined));
  const sum = b.add(f.args[0]!, f.args[1]!);
  const loaded = b.load(g);
  const total = b.add(sum, loaded);
  b.ret(total);
  return { module: mb.build(), f, g, sum, loaded, total };
}

describe('printFunction', () => {
  it('prints each function of hello.bc as its part of the listing', () => {
    for (const f of HELLO.functions) {
      const text = printFunction(HELLO, f);
      expect(HELLO_LL).toContain(text);
      expect(text).toMatch(f.isDeclaration ? /^declare / : /^int %\w+\(.*\) \{\n[\s\S]*\}\n$/);
    }
    expect(printFunction(HELLO, fn('puts'))).toBe('declare int %puts(sbyte*)\n');
  });

  it('numbers unnamed values as the whole listing does', () => {
    const { module, f } = unnamed();
    expect(printModule(module)).toContain(printFunction(module, f));
  });

  it('refuses a function of another module', () => {
    expect(() => printFunction(HELLO, unnamed().f)).toThrow(/not one of this module's functions/);
  });
});

describe('printInstruction', () => {
  it('prints one instruction as its line says it, without indentation or comment', () => {
    const sum = fn('sum');
    const lines = sum.blocks.flatMap((b) => b.instructions).map((i) => printInstruction(HELLO, sum, i));
    expect(lines[0]).toBe('%empty = setlt int %n, 1');
    expect(lines).toContain('%acc.next = add int %acc, %i');
    expect(lines.at(-1)).toBe('ret int %result');
    for (const line of lines) expect(HELLO_LL).toContain(`\t${line}`);
  });

  it("unnamed operands print as their numbers (LLVM 1.x put an unnamed result's number in the comment)", () => {
    const { module, f, sum, total } = unnamed();
    expect(printInstruction(module, f, sum)).toBe('add int %0, %1');
    expect(printInstruction(module, f, total)).toBe('add int %2, %3');
  });

  it('refuses an instruction of another function', () => {
    const { total } = unnamed();
    expect(() => printInstruction(HELLO, fn('sum'), total)).toThrow(/not in the given function/);
  });
});

describe('slotNumberOf', () => {
  it('gives the number an unnamed value prints as, undefined for a named one', () => {
    const { module, f, g, sum, loaded, total } = unnamed();
    expect(printFunction(module, f)).toContain('\tadd int %2, %3\t\t; <int>:4 [#uses=1]\n');
    expect(slotNumberOf(module, f.args[0]!, f)).toBe(0);
    expect(slotNumberOf(module, f.args[1]!, f)).toBe(1);
    expect(slotNumberOf(module, sum, f)).toBe(2);
    expect(slotNumberOf(module, loaded, f)).toBe(3);
    expect(slotNumberOf(module, total, f)).toBe(4);
    expect(slotNumberOf(module, g)).toBe(0);
    expect(slotNumberOf(module, f)).toBeUndefined();
    expect(slotNumberOf(HELLO, fn('sum').args[0]!, fn('sum'))).toBeUndefined();
  });
});
