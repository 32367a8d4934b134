/**
 * LLVM 1.1–1.3 listings assembled as LLVM 1.9 text (`--dialect 1.9`), as LLVM 1.9's `llvm-as`
 * assembled them: with its constant folding (src/fold), its renaming of old intrinsics
 * (asm/intrinsic-upgrade.ts) and its rewrite of old varargs (asm/obsolete-varargs.ts). Every
 * corpus listing that uses an intrinsic or old varargs, and every eighth of the others, must list
 * (llvm-dis 1.9) as LLVM's own result does. (The bytes can differ in the order of a symbol table's
 * planes, which LLVM took from heap addresses; see docs/assembler.md.) Skips, saying so, without
 * LLVM 1.9's tools or the corpus.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import { CORPUS_PRESENT, CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';

const LLVM = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/llvm-1.9/bin');
const HAVE_LLVM = existsSync(join(LLVM, 'llvm-as'));
if (!HAVE_LLVM) console.warn(`LLVM 1.9's llvm-as not found in ${LLVM}: old listings assembled as 1.9 are not checked`);

/** What `llvm-dis` 1.9 prints for `bytes`. */
const listing = (bytes: Uint8Array): string => execFileSync(join(LLVM, 'llvm-dis'), [], { input: bytes }).toString('latin1');

describe.skipIf(!HAVE_LLVM || !CORPUS_PRESENT)('1.1-1.3 listings assembled as 1.9 give what llvm-as 1.9 gave', NEEDS_CORPUS, () => {
  for (const folder of ['v0', 'v1', 'v3']) {
    const dir = join(CORPUS_ROOT, folder);
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir).filter((f) => f.endsWith('.dis.ll')).sort();
    const chosen = files.filter((f, i) => i % 8 === 0 || /llvm\.|\b(vaarg|vanext)\b/.test(readFileSync(join(dir, f), 'latin1')));
    it(`${folder}: ${chosen.length} of ${files.length} listings`, () => {
      const differing: string[] = [];
      for (const f of chosen) {
        const text = readFileSync(join(dir, f));
        let theirs: Buffer;
        try {
          theirs = execFileSync(join(LLVM, 'llvm-as'), ['-f', '-o', '-'], { input: text, stdio: ['pipe', 'pipe', 'ignore'] });
        } catch {
          continue; // llvm-as failed (an assertion in its AutoUpgrade, on debugger intrinsics)
        }
        const ours = writeModule(parseAssembly(text.toString('latin1'), { dialect: '1.9' }), { bytecodeVersion: 6 });
        if (listing(ours) !== listing(theirs)) differing.push(f);
      }
      expect(differing).toEqual([]);
    }, 120_000);
  }
});
