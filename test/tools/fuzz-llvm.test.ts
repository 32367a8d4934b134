/**
 * `npm run fuzz:llvm` compares our listings of edited corpus files with LLVM 1.9's `llvm-dis`
 * (src/tools/fuzz-llvm.ts): it runs, reports what it compared, and stops saying why without
 * `llvm-dis`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_PRESENT, NEEDS_CORPUS } from '../support/corpus.js';

const ROOT = new URL('../../', import.meta.url);
const SCRIPT = new URL('dist/tools/fuzz-llvm.js', ROOT).pathname;
const LLVM = new URL('../shared/llvm-1.9/bin/', ROOT).pathname;

describe.skipIf(!existsSync(SCRIPT))('npm run fuzz:llvm', () => {
  it('says so and stops when llvm-dis is absent', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--seconds', '1', '--llvm', join(tmpdir(), 'no-such-llvm')], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/llvm-dis not found at .*no-such-llvm/);
  });

  it.skipIf(!CORPUS_PRESENT || !existsSync(join(LLVM, 'llvm-dis')))('compares edited files with llvm-dis and counts what it found', NEEDS_CORPUS, () => {
    const out = mkdtempSync(join(tmpdir(), 'fuzz-llvm-test-'));
    const r = spawnSync(process.execPath, [SCRIPT, '--seconds', '2', '--seed', '1', '--versions', '6', '--out', out], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^fuzz:llvm for 2 s with seed 1 over \d+ seeds \(versions 6\)/m);
    expect(r.stdout).toMatch(/^\d+ edited files: both read \d+ \(same listing \d+, different (\d+)\); neither \d+; only we \d+; only LLVM \d+$/m);
    const different = Number(/different (\d+)/.exec(r.stdout)![1]);
    expect(r.status).toBe(different > 0 ? 1 : 0);
  });
});
