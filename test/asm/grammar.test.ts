/**
 * The assembler against LLVM 1.9's own `llvm-as`, one hand-written file per part of the grammar
 * (`test/asm/grammar/*.ll`): types, globals, functions, every instruction, every constant
 * expression, and the obsolete spellings 1.9's parser still took. Each file assembles to the bytes
 * `llvm-as` wrote and prints as `llvm-dis` printed them. Skips, saying so, without LLVM 1.9's tools.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModuleAsync } from '../../src/encode/write.js';
import { printModule } from '../../src/print/index.js';
import { LLVM19, needs } from '../support/tools.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const GRAMMAR = join(HERE, 'grammar');

const work = mkdtempSync(join(tmpdir(), 'asm-grammar-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What LLVM 1.9 made of a text: its bytes and its listing. */
function llvm(name: string, text: string): { bytes: Buffer; listing: string } {
  const out = join(work, name + '.bc');
  execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', out], { input: text, stdio: ['pipe', 'ignore', 'ignore'] });
  const listing = execFileSync(LLVM19.path('llvm-dis'), [], { input: readFileSync(out) }).toString('latin1');
  return { bytes: readFileSync(out), listing };
}

/**
 * Files where we are known to differ from LLVM 1.9, and why (each case is an open item):
 * - `constexprs`: the module symbol table lists `int*` before `[4 x int]*`; `instructions`: one
 *   function's lists `sbyte**` before `sbyte*`. LLVM took both orders from heap addresses; the
 *   listings are identical (constant folding included, src/fold), the bytes differ only there.
 */
const KNOWN_BYTE_DIFFERENCES = new Set(['constexprs', 'instructions']);
const KNOWN_LISTING_DIFFERENCES = new Set<string>([]);

describe('hand-written grammar files assemble as LLVM 1.9 assembled them', needs(LLVM19), () => {
  for (const file of readdirSync(GRAMMAR)
    .filter((f) => f.endsWith('.ll'))
    .sort()) {
    const name = file.replace(/\.ll$/, '');
    const text = readFileSync(join(GRAMMAR, file), 'latin1');

    const listing = KNOWN_LISTING_DIFFERENCES.has(name) ? it.fails : it;
    listing(`${name}: prints as llvm-dis printed llvm-as's output`, () => {
      expect(printModule(parseAssembly(text, { fileName: file }))).toBe(llvm(name, text).listing);
    });

    const bytes = KNOWN_BYTE_DIFFERENCES.has(name) ? it.fails : it;
    bytes(`${name}: gives llvm-as's bytes`, async () => {
      const ours = await writeModuleAsync(parseAssembly(text, { fileName: file }), { bytecodeVersion: 6, compression: 'auto' });
      expect(Buffer.from(ours).equals(llvm(name, text).bytes)).toBe(true);
    });
  }
});

describe('hand-written grammar files assemble and print back', () => {
  for (const file of readdirSync(GRAMMAR)
    .filter((f) => f.endsWith('.ll'))
    .sort()) {
    it(`${file}: reads, and its listing reads back to the same listing`, () => {
      const once = printModule(parseAssembly(readFileSync(join(GRAMMAR, file), 'latin1'), { fileName: file }));
      expect(printModule(parseAssembly(once))).toBe(once);
    });
  }
});
