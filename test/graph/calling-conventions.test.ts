/**
 * Calling conventions as LLVM held them (src/graph/value.ts, `heldCallingConvention`).
 *
 * A function's is stored plus one. A damaged file may store 0: LLVM 1.9's reader took the one off
 * in unsigned arithmetic and got 4294967295, which `llvm-dis` printed as `cc4294967295`, `llvm-as`
 * took back and LLVM's writer stored as 0 again. We read, print and write it the same way;
 * `upgrade` refuses it (LLVM 16 keeps 10 bits of a convention and would silently make it another).
 *
 * A call's or an invoke's lived in 16 bits of the instruction (a call's lowest one its `tail`
 * flag): `llvm-as` kept 15 bits of a call's number and 16 of an invoke's, silently. So does `as`;
 * the writer refuses a number no instruction of LLVM's could hold.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import { printModern } from '../../src/modern/index.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { EncodeError } from '../../src/encode/encode-error.js';
import type { Instruction } from '../../src/graph/value.js';
import { LLVM19, needs } from '../support/tools.js';

const TEXT = 'implementation   ; Functions:\n\ndeclare cc4294967295 void %f()\n\nint %main() {\nentry:\n\tcall cc4294967295 void %f( )\n\tret int 0\n}\n';

describe('a calling convention stored as 0', () => {
  const bytes = writeModule(parseAssembly(TEXT), { bytecodeVersion: 6, compression: 'none' });

  it('is stored as 0: the convention 4294967295 plus one, in 32 bits', () => {
    // The function word of %f: type slot × 32 + 16 (a declaration) + the stored code 0; the call
    // keeps 15 bits of the number: 32767.
    const m = readModule(bytes);
    expect(m.functions[0]!.callingConv).toBe(4294967295);
    expect(m.functions[1]!.blocks[0]!.instructions[0]!.callingConv).toBe(32767);
  });

  it("is what LLVM 1.9's llvm-as wrote for the text", needs(LLVM19), () => {
    const asLlvmWrote = writeModule(parseAssembly(TEXT), { bytecodeVersion: 6, compression: 'auto' });
    expect(asLlvmWrote).toEqual(new Uint8Array(execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: TEXT })));
  });

  it('reads as 4294967295 and prints as LLVM 1.9 printed it', () => {
    const listing = printModule(readModule(bytes));
    expect(listing).toContain('declare cc4294967295 void %f()');
  });

  it("prints as LLVM 1.9's llvm-dis printed it, byte for byte", needs(LLVM19), () => {
    expect(printModule(readModule(bytes))).toBe(execFileSync(LLVM19.path('llvm-dis'), { input: bytes }).toString('latin1'));
  });

  it('writes back byte for byte', () => {
    expect(writeModule(readModule(bytes), { bytecodeVersion: 6, compression: 'none' })).toEqual(bytes);
  });

  it('has no LLVM 16 form: upgrade says so', () => {
    expect(() => printModern(readModule(bytes))).toThrow(/calling convention 4294967295 has no LLVM 16 form/);
  });
});

describe("a call's and an invoke's calling convention", () => {
  const text = (cc: number): string =>
    `implementation\ndeclare void %f()\nint %main() {\nentry:\n\tcall cc${cc} void %f( )\n\tinvoke cc${cc} void %f( ) to label %ok except label %ok\nok:\n\tret int 0\n}\n`;
  const conventions = (cc: number): number[] => {
    const m = parseAssembly(text(cc));
    return m.functions[1]!.blocks[0]!.instructions.map((i) => i.callingConv ?? 0);
  };

  it("keeps 15 bits of a call's number and 16 of an invoke's, as llvm-as did", () => {
    expect(conventions(32767)).toEqual([32767, 32767]);
    expect(conventions(40000)).toEqual([7232, 40000]);
    expect(conventions(70000)).toEqual([4464, 4464]);
    expect(conventions(65536)).toEqual([0, 0]);
  });

  it("writes those numbers as LLVM 1.9's llvm-as wrote them", needs(LLVM19), () => {
    for (const cc of [40000, 70000, 65536]) {
      const ours = writeModule(parseAssembly(text(cc)), { bytecodeVersion: 6, compression: 'auto' });
      expect(ours).toEqual(new Uint8Array(execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: text(cc) })));
    }
  });

  it('refuses to write a number LLVM could not hold on the instruction', () => {
    const m = parseAssembly(text(5));
    const body = m.functions[1]!.blocks[0]!.instructions as Instruction[];
    body[0]!.callingConv = 40000;
    expect(() => writeModule(m, { bytecodeVersion: 6 })).toThrow(EncodeError);
    expect(() => writeModule(m, { bytecodeVersion: 6 })).toThrow(
      /calling convention 40000 on a call cannot be written in bytecode version 6: LLVM held a call's in 15 bits/,
    );
    body[0]!.callingConv = 5;
    body[1]!.callingConv = 70000;
    expect(() => writeModule(m, { bytecodeVersion: 6 })).toThrow(/calling convention 70000 on an invoke .*16 bits/);
  });
});
