/**
 * The upgrade for LLVM 19 and 22 against those releases' own tools (Debian's llvm-19, llvm-22):
 * the hand-made modules with each removed constant expression, and a sample of every corpus
 * version, upgraded with `{ llvm: N }`, must be accepted by `llvm-as-N` and pass
 * `opt-N -passes=verify`; the LLVM 16 text of the hand-made module must be refused by them (so
 * the removals the upgrade works around are real). The whole corpus is
 * `npm run upgrade-scoreboard -- --llvm N`. Each check skips, saying why, without the tools.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { printModern } from '../../src/modern/index.js';
import { readModule } from '../../src/read.js';
import { CORPUS_PRESENT, corpusFiles, readCorpusFile } from '../support/corpus.js';
import { debianLlvm, needs, type ToolSet } from '../support/tools.js';
import { HAND_MADE } from './llvm-versions-modules.js';

const work = mkdtempSync(join(tmpdir(), 'llvm-bytecode-versions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** llvm-as-N then opt-N -passes=verify on `text`; the first tool's complaint, or undefined when both accept it. */
function refusal(tools: ToolSet, text: string, name: string): string | undefined {
  const ll = join(work, `${name}.ll`);
  const bc = join(work, `${name}.bc`);
  writeFileSync(ll, text);
  for (const [tool, args] of [
    ['llvm-as', [ll, '-o', bc]],
    ['opt', ['-passes=verify', '-disable-output', bc]],
  ] as const) {
    const r = spawnSync(tools.path(tool), args, { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) return `${tool}: ${(r.stderr ?? '').split('\n')[0]}`;
  }
  return undefined;
}

/** Every 60th file of each corpus version (v0 … v7): about 65 files. */
function sample(): { id: string; bytes: Uint8Array }[] {
  const out: { id: string; bytes: Uint8Array }[] = [];
  for (const folder of ['v0', 'v1', 'v3', 'v5', 'v6', 'v7']) {
    corpusFiles(folder).forEach((name, i) => {
      if (i % 90 === 0) out.push({ id: `${folder}/${name}`, bytes: readCorpusFile(folder, name) });
    });
  }
  return out;
}

for (const n of [19, 22]) {
  const tools = debianLlvm(n);
  describe.skipIf(!tools.present)(`LLVM ${n}'s tools take the upgrade for LLVM ${n}`, needs(tools), () => {
    const handMade = parseAssembly(HAND_MADE);

    it(`refuse the LLVM 16 text of the hand-made module (the removals are real)`, () => {
      expect(refusal(tools, printModern(handMade, { llvm: 16, triple: 'none' }), `hand16-for-${n}`)).toMatch(/constexprs are no longer supported/);
    });

    it(`accept and verify the hand-made module with every removed constant expression`, () => {
      expect(refusal(tools, printModern(handMade, { llvm: n, triple: 'none' }), `hand-${n}`)).toBeUndefined();
    });

    describe.skipIf(!CORPUS_PRESENT)('corpus sample', { tags: [...needs(tools).tags, 'corpus'] }, () => {
      it(
        `every 90th file of each corpus version is accepted by llvm-as-${n} and opt-${n}`,
        () => {
          const failures: string[] = [];
          for (const { id, bytes } of sample()) {
            let text: string;
            try {
              text = printModern(readModule(bytes), { llvm: n });
            } catch (e) {
              failures.push(`${id}: ${(e as Error).message}`);
              continue;
            }
            const why = refusal(tools, text, `sample-${n}`);
            if (why !== undefined) failures.push(`${id}: ${why}`);
          }
          expect(failures).toEqual([]);
        },
        20 * 60_000,
      );
    });
  });
}
