/**
 * The 1.x → version 7 conversion against LLVM's own path (`llvm-dis-1.9 | llvm-upgrade |
 * llvm-as`, r36867) on the first 100 v6 files, through the scoreboard tool
 * (src/tools/convert-scoreboard.ts; `npm test` builds it first). Skipped without the corpus, the
 * LLVM tools or the built tool. The whole scoreboard (all of v6, samples of v0–v5) is
 * `node dist/tools/convert-scoreboard.js`; its figures are in docs/version7-writing.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_PRESENT, CORPUS_ROOT } from '../support/corpus.js';

const TOOL = resolve(__dirname, '../../dist/tools/convert-scoreboard.js');
const HAVE = CORPUS_PRESENT && existsSync(TOOL) && existsSync(join(CORPUS_ROOT, '..', 'llvm-2.0-dev', 'bin', 'llvm-upgrade')) && existsSync(join(CORPUS_ROOT, '..', 'llvm-1.9', 'bin', 'llvm-dis'));

describe.skipIf(!HAVE)('convert-scoreboard over the first 100 v6 files', () => {
  it('gives LLVM’s bytes or LLVM’s text for nearly all, and no untyped error', () => {
    const r = spawnSync(process.execPath, [TOOL, '--folders', 'v6', '--sample-v6', '--sample', '100', '--list'], { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000 });
    expect(r.status).toBe(0);
    const summary = /v6: 100 files: (.*)/.exec(r.stdout)?.[1] ?? '';
    const count = (k: string): number => Number(new RegExp(`(?:^|, )${k} (\\d+)`).exec(summary)?.[1] ?? 0);
    console.log(`[convert-scoreboard] v6 (first 100): ${summary}`);
    expect(count('error')).toBe(0);
    // Bytes identical where the symbol tables have one type plane; the same text otherwise.
    expect(count('bytes') + count('text')).toBeGreaterThanOrEqual(96);
    expect(count('bytes')).toBeGreaterThanOrEqual(35);
  }, 600_000);
});
