/**
 * The writer's specification against the project's reader: reading an LLVM 1.2 / 1.3 / 1.8 / 1.9 / 2.0-dev (v7) file
 * with `readModule` and writing it back with `writeModule` at the same bytecode version
 * reproduces the file byte for byte, container included (llvc0 up to 64 KiB, bzip2 llvc2 above,
 * bare `llvm` for versions 1 and 3).
 *
 * Exceptions are listed with their reasons; the test fails if one of them starts passing (so the
 * list stays honest), if any other file differs, or if the folder holds fewer files than the
 * corpus's README counts (a run over no file proves nothing). Skips, saying so, without the corpus.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_PRESENT, CORPUS_ROOT, CORPUS_SKIP_REASON, corpusStatedCount, NEEDS_CORPUS } from '../support/corpus.js';
import { loadBzip2 } from '../../src/container/index.js';
import { writeModule } from '../../src/encode/write.js';
import { readModule } from '../../src/read.js';

/** Files that do not round-trip, with the reason. Keep this small and justified. */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map<string, string>([]);

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

beforeAll(async () => {
  await loadBzip2();
});

if (!CORPUS_PRESENT) console.warn(CORPUS_SKIP_REASON);

for (const version of [7, 6, 5, 3, 1, 0]) {
  const folder = `v${version}`;
  describe.skipIf(!CORPUS_PRESENT)(`writeModule(readModule(f), { bytecodeVersion: ${version} }) over corpus/${folder}`, NEEDS_CORPUS, () => {
    const listed = [...EXCEPTIONS.keys()].filter((k) => k.startsWith(`${folder}/`)).length;

    it(`reproduces every file byte for byte (except ${listed} listed)`, () => {
      const dir = join(CORPUS_ROOT, folder);
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.bc'))
        .sort();
      // Every file the corpus says the folder holds, not whatever happened to be found.
      expect(files.length).toBe(corpusStatedCount(folder));
      const failures: string[] = [];
      let identical = 0;
      for (const name of files) {
        const key = `${folder}/${name}`;
        const bytes = new Uint8Array(readFileSync(join(dir, name)));
        let detail: string;
        try {
          const out = writeModule(readModule(bytes), { bytecodeVersion: version });
          const at = firstDifference(out, bytes);
          if (at === -1) {
            identical++;
            if (EXCEPTIONS.has(key)) failures.push(`${key}: listed as an exception but now identical`);
            continue;
          }
          detail = `differs at byte ${at} (wrote ${out.length} bytes, file has ${bytes.length})`;
        } catch (e) {
          detail = `threw ${(e as Error).message}`;
        }
        if (!EXCEPTIONS.has(key)) failures.push(`${key}: ${detail}`);
      }
      console.log(`${folder}: ${identical}/${files.length} identical through readModule`);
      expect(failures.slice(0, 20), `${failures.length} unexpected result(s); ${identical}/${files.length} identical`).toEqual([]);
      expect(identical).toBe(files.length - listed);
    });
  });
}
