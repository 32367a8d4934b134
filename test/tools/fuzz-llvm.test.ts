/**
 * `npm run fuzz:llvm` compares our listings of edited corpus files with LLVM 1.9's `llvm-dis`
 * (tools/fuzz-llvm.ts): it runs, its counts add up, it saves each difference and exits 1 on
 * one, and stops saying why without `llvm-dis`. Stand-ins for `llvm-dis` (our own CLI, which
 * prints what we read; a script that prints a listing no file has) prove both verdicts can come
 * out: a comparer that never found a difference, or always did, fails here.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_PRESENT, NEEDS_CORPUS } from '../support/corpus.js';
import { LLVM19, needs } from '../support/tools.js';

const ROOT = new URL('../../', import.meta.url);
const SCRIPT = new URL('dist-tools/tools/fuzz-llvm.js', ROOT).pathname;
const CLI = new URL('dist/cli/llvm-bytecode.cjs', ROOT).pathname;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  out: string;
  counts: { runs: number; bothRead: number; same: number; different: number; neither: number; onlyWe: number; onlyLlvm: number };
}

function fuzz(llvmDir: string, seconds: number): Run {
  const out = mkdtempSync(join(tmpdir(), 'fuzz-llvm-test-'));
  const args = [SCRIPT, '--seconds', String(seconds), '--seed', '1', '--versions', '6', '--out', out];
  if (llvmDir !== '') args.push('--llvm', llvmDir);
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const m = /^(\d+) edited files: both read (\d+) \(same listing (\d+), different (\d+)\); neither (\d+); only we (\d+); only LLVM (\d+)$/m.exec(r.stdout);
  expect(m, r.stdout + r.stderr).not.toBeNull();
  const [runs, bothRead, same, different, neither, onlyWe, onlyLlvm] = m!.slice(1).map(Number) as [number, number, number, number, number, number, number];
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, out, counts: { runs, bothRead, same, different, neither, onlyWe, onlyLlvm } };
}

/** A folder holding an executable `llvm-dis` with this shell body (called as `llvm-dis -f -o - FILE`). */
function standIn(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-llvm-stand-in-'));
  writeFileSync(join(dir, 'llvm-dis'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, 'llvm-dis'), 0o755);
  return dir;
}

/** The counts partition the runs, and the saved differences are the ones counted. */
function expectConsistent(r: Run): void {
  const c = r.counts;
  expect(c.runs).toBeGreaterThan(0);
  expect(c.bothRead + c.neither + c.onlyWe + c.onlyLlvm).toBe(c.runs);
  expect(c.same + c.different).toBe(c.bothRead);
  expect(r.stdout.match(/^difference: /gm) ?? []).toHaveLength(c.different);
  const saved = readdirSync(r.out).filter((f) => /^differ-\d+\.(bc|llvm\.ll|ours\.ll)$/.test(f));
  expect(saved).toHaveLength(3 * c.different);
  expect(r.status).toBe(saved.length > 0 ? 1 : 0);
}

describe.skipIf(!existsSync(SCRIPT))('npm run fuzz:llvm', () => {
  it('says so and stops when llvm-dis is absent', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--seconds', '1', '--llvm', join(tmpdir(), 'no-such-llvm')], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/llvm-dis not found at .*no-such-llvm/);
  });

  it.skipIf(!CORPUS_PRESENT)('finds no difference where llvm-dis prints what we print (our CLI standing in)', NEEDS_CORPUS, () => {
    const r = fuzz(standIn(`exec "${process.execPath}" "${CLI}" dis "$4"`), 2);
    expectConsistent(r);
    expect(r.counts.bothRead).toBeGreaterThan(0);
    expect(r.counts.different).toBe(0);
    expect(r.counts.onlyWe + r.counts.onlyLlvm).toBe(0);
    expect(r.status).toBe(0);
  });

  it.skipIf(!CORPUS_PRESENT)('finds, saves and fails on every difference where llvm-dis prints another listing', NEEDS_CORPUS, () => {
    const r = fuzz(standIn(`echo '; ModuleID = stand-in'\necho '; not the listing of any file'`), 2);
    expectConsistent(r);
    expect(r.counts.different).toBeGreaterThan(0);
    expect(r.counts.same).toBe(0);
    expect(r.status).toBe(1);
    expect(readFileSync(join(r.out, 'differ-1.llvm.ll'), 'utf8')).toBe('; not the listing of any file\n');
  });

  it.skipIf(!CORPUS_PRESENT || !LLVM19.present)(
    "compares edited files with LLVM 1.9's llvm-dis and counts what it found",
    { tags: [...NEEDS_CORPUS.tags, ...needs(LLVM19).tags] },
    () => {
      const r = fuzz(LLVM19.dir, 2);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^fuzz:llvm for 2 s with seed 1 over \d+ seeds \(versions 6\)/m);
      expectConsistent(r);
    },
  );
});
