/**
 * LLVM 1.1–1.3 listings assembled as LLVM 1.9 text (`--dialect 1.9`), as LLVM 1.9's `llvm-as`
 * assembled them: with its constant folding (src/fold), its renaming of old intrinsics
 * (asm/intrinsic-upgrade.ts) and its rewrite of old varargs (asm/obsolete-varargs.ts). Every
 * corpus listing that uses an intrinsic or old varargs, and every eighth of the others, must list
 * (llvm-dis 1.9) as LLVM's own result does. (The bytes can differ in the order of a symbol table's
 * planes, which LLVM took from heap addresses; see docs/assembler.md.) Fails when the folder holds
 * fewer listings than the corpus counts, or when llvm-as refused more than the listings it is known
 * to refuse. Skips, saying so, without LLVM 1.9's tools or the corpus.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import { CORPUS_PRESENT, CORPUS_ROOT, corpusStatedCount, NEEDS_CORPUS } from '../support/corpus.js';
import { LLVM19 } from '../support/tools.js';

/** What `llvm-dis` 1.9 prints for `bytes`. */
const listing = (bytes: Uint8Array): string => execFileSync(LLVM19.path('llvm-dis'), [], { input: bytes }).toString('latin1');

describe.skipIf(!LLVM19.present || !CORPUS_PRESENT)(
  '1.1-1.3 listings assembled as 1.9 give what llvm-as 1.9 gave',
  { tags: [...NEEDS_CORPUS.tags, LLVM19.tag] },
  () => {
    for (const folder of ['v0', 'v1', 'v3']) {
      const dir = join(CORPUS_ROOT, folder);
      const files = existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.endsWith('.dis.ll'))
            .sort()
        : [];
      const chosen = files.filter((f, i) => i % 8 === 0 || /llvm\.|\b(vaarg|vanext)\b/.test(readFileSync(join(dir, f), 'latin1')));
      it(`${folder}: ${chosen.length} of ${files.length} listings`, () => {
        // A listing for (nearly) every file the corpus counts: a folder found empty compares nothing.
        // (A few files have no listing: the release's llvm-dis failed on them.)
        const stated = corpusStatedCount(folder);
        expect(stated).toBeGreaterThan(0);
        expect(files.length).toBeGreaterThanOrEqual(stated! - 5);
        expect(chosen.length).toBeGreaterThanOrEqual(files.length / 8);
        const differing: string[] = [];
        const refused: string[] = [];
        let compared = 0;
        for (const f of chosen) {
          const text = readFileSync(join(dir, f));
          let theirs: Buffer;
          try {
            theirs = execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: text, stdio: ['pipe', 'pipe', 'ignore'] });
          } catch {
            refused.push(f);
            continue;
          }
          const ours = writeModule(parseAssembly(text.toString('latin1'), { dialect: '1.9' }), { bytecodeVersion: 6 });
          if (listing(ours) !== listing(theirs)) differing.push(f);
          compared++;
        }
        expect(differing).toEqual([]);
        // llvm-as 1.9 refuses only listings with debugger intrinsics (an assertion in its
        // AutoUpgrade); every other chosen listing was compared.
        expect(refused.filter((f) => !/llvm\.dbg\./.test(readFileSync(join(dir, f), 'latin1')))).toEqual([]);
        expect(compared).toBe(chosen.length - refused.length);
        expect(compared).toBeGreaterThan(chosen.length / 2);
      }, 120_000);
    }
  },
);
