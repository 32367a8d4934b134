/**
 * The folder against LLVM 1.9's own: random constant expressions (constant-expressions.ts),
 * assembled by LLVM 1.9's `llvm-as` and listed by its `llvm-dis`, must list the same from our
 * assembler (which folds as LLVM 1.9 did). Skips, saying so, without LLVM 1.9's tools.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { printModule } from '../../src/print/index.js';
import { randomConstantModule } from './constant-expressions.js';
import { LLVM19, needs } from '../support/tools.js';

describe('constant folding as LLVM 1.9 folded (random expressions, llvm-as and llvm-dis as the oracle)', needs(LLVM19), () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`seed ${seed}: 40 expressions fold to what LLVM 1.9 made of them`, () => {
      const text = randomConstantModule(seed, 40);
      const bytes = execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: text, stdio: ['pipe', 'pipe', 'ignore'] });
      const theirs = execFileSync(LLVM19.path('llvm-dis'), [], { input: bytes }).toString('latin1');
      expect(printModule(parseAssembly(text, { dialect: '1.9' }))).toBe(theirs);
    });
  }
});
