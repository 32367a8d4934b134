/**
 * The folder against LLVM 1.9's own: random constant expressions (constant-expressions.ts),
 * assembled by LLVM 1.9's `llvm-as` and listed by its `llvm-dis`, must list the same from our
 * assembler (which folds as LLVM 1.9 did). Skips, saying so, without LLVM 1.9's tools.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { printModule } from '../../src/print/index.js';
import { randomConstantModule } from './constant-expressions.js';

const LLVM = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/llvm-1.9/bin');
const HAVE_LLVM = existsSync(join(LLVM, 'llvm-as'));
if (!HAVE_LLVM) console.warn(`LLVM 1.9's llvm-as not found in ${LLVM}: the constant folder's oracle test is skipped`);

describe.skipIf(!HAVE_LLVM)('constant folding as LLVM 1.9 folded (random expressions, llvm-as and llvm-dis as the oracle)', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`seed ${seed}: 40 expressions fold to what LLVM 1.9 made of them`, () => {
      const text = randomConstantModule(seed, 40);
      const bytes = execFileSync(join(LLVM, 'llvm-as'), ['-f', '-o', '-'], { input: text, stdio: ['pipe', 'pipe', 'ignore'] });
      const theirs = execFileSync(join(LLVM, 'llvm-dis'), [], { input: bytes }).toString('latin1');
      expect(printModule(parseAssembly(text, { dialect: '1.9' }))).toBe(theirs);
    });
  }
});
