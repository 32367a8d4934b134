/**
 * LLVM 1.x let a structure field or an array element be a function or a label, and a function
 * take a label (`{ void () }`, `[2 x label]`, `int (label)`): its `llvm-as` wrote them and its
 * `llvm-dis` read them back. We read, print and write them as it did; `upgrade` refuses the
 * aggregates (LLVM 16 holds first-class types only there). A pointer to a label LLVM's assembler
 * refused, and so do we.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AssemblyError, parseAssembly } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import { printModern } from '../../src/modern/index.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { LLVM19, needs } from '../support/tools.js';

const textFor = (type: string): string => `%t = type ${type}\n%g = external global %t*\n\nimplementation   ; Functions:\n`;

describe('types LLVM 1.x allowed and LLVM 16 does not', () => {
  for (const [type, upgrade] of [
    ['{ void () }', /type %t holds a field of type void \(\), which LLVM 16 has no form for/],
    ['{ int, void (int) }', /holds a field of type void \(int\)/],
    ['[2 x void ()]', /type %t holds elements of type void \(\)/],
    ['{ label }', /holds a field of type label/],
    ['[2 x label]', /holds elements of type label/],
    ['int (label)', undefined],
  ] as const) {
    it(`${type}: assembles, reads, prints and writes back${upgrade ? '; upgrade refuses it' : ''}`, () => {
      const text = textFor(type);
      const bytes = writeModule(parseAssembly(text), { bytecodeVersion: 6, compression: 'auto' });
      const m = readModule(bytes);
      const listing = printModule(m);
      expect(listing).toContain(`%t = type ${type}\n`);
      expect(writeModule(m, { bytecodeVersion: 6, compression: 'auto' })).toEqual(bytes);
      if (upgrade) {
        // A global of the type itself makes upgrade spell it.
        const byValue = readModule(writeModule(parseAssembly(`${text.split('\n\n')[0]}\n%h = external global %t\n`), { bytecodeVersion: 6 }));
        expect(() => printModern(byValue)).toThrow(upgrade);
      } else expect(() => printModern(m)).not.toThrow();
    });

    it(`${type}: our bytes are LLVM 1.9's llvm-as's, and its llvm-dis prints them as we do`, needs(LLVM19), () => {
      const text = textFor(type);
      const bytes = writeModule(parseAssembly(text), { bytecodeVersion: 6, compression: 'auto' });
      expect(bytes).toEqual(new Uint8Array(execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: text })));
      expect(printModule(readModule(bytes))).toBe(execFileSync(LLVM19.path('llvm-dis'), { input: bytes }).toString('latin1'));
    });
  }

  it('refuses a pointer to a label, where it is written', () => {
    for (const text of ['%t = type label*\n', '%g = external global label*\n', '%t = type { int, label* }\n']) {
      let error: unknown;
      try {
        parseAssembly(text);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AssemblyError);
      expect((error as AssemblyError).message).toMatch(/a pointer to a label is not allowed/);
      expect((error as AssemblyError).column).toBe(text.indexOf('label*') + 'label'.length + 1);
    }
  });
});
