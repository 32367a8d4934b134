/**
 * The 1.x → version 7 conversion against LLVM's own path (`llvm-dis-1.9 | llvm-upgrade |
 * llvm-as`, r36867) on the first 100 v6 files, through the scoreboard tool
 * (tools/convert-scoreboard.ts; `npm test` builds it first). Tagged with the corpus, LLVM 1.9
 * and r36867 (each found by its environment variable, as the tool finds them), and skipped, counted
 * by cause, without one; skipped without the built tool. The whole scoreboard (all of v6, samples of v0–v5) is
 * `node dist-tools/tools/convert-scoreboard.js`; its figures are in docs/version7-writing.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEEDS_CORPUS } from '../support/corpus.js';
import { LLVM19, needs, R36867 } from '../support/tools.js';

const TOOL = resolve(__dirname, '../../dist-tools/tools/convert-scoreboard.js');

describe.skipIf(!existsSync(TOOL))('convert-scoreboard over the first 100 v6 files', needs(NEEDS_CORPUS, LLVM19, R36867), () => {
  it('gives LLVM’s bytes or LLVM’s text for nearly all, and no untyped error', () => {
    const r = spawnSync(process.execPath, [TOOL, '--folders', 'v6', '--sample-v6', '--sample', '100', '--list'], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      timeout: 600_000,
    });
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
