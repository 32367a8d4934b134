/**
 * The tools of `npm run` find the corpus and LLVM 1.9's tools by the same environment variables
 * as the tests (LLVM_BYTECODE_CORPUS, LLVM_BYTECODE_LLVM19): an absent place given there is the
 * place they report, not ../shared beside the checkout. Through the built tools (`npm test` builds).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../../dist-tools/tools/', import.meta.url).pathname;
const ABSENT = join(tmpdir(), 'llvm-bytecode-no-such-place');

function tool(script: string, args: string[], env: Record<string, string>): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [join(DIST, script), ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe.skipIf(!existsSync(join(DIST, 'fuzz-asm.js')))('tools honour the environment variables', () => {
  it('fuzz:asm seeds from LLVM_BYTECODE_CORPUS, and says when it is not there', () => {
    const r = tool('fuzz-asm.js', ['--seconds', '1', '--seed', '1'], { LLVM_BYTECODE_CORPUS: ABSENT });
    expect(r.err).toBe('');
    expect(r.out).toContain(`fuzz:asm: no corpus at ${ABSENT}: the project's grammar files are the only seeds`);
  });

  it('fuzz:llvm looks for llvm-dis in LLVM_BYTECODE_LLVM19', () => {
    const r = tool('fuzz-llvm.js', ['--seconds', '1'], { LLVM_BYTECODE_LLVM19: ABSENT });
    expect(r.status).toBe(1);
    expect(r.err).toContain(`llvm-dis not found at ${join(ABSENT, 'llvm-dis')}`);
    expect(r.err).toContain('(LLVM_BYTECODE_LLVM19)');
  });

  it('fuzz:llvm reads the corpus from LLVM_BYTECODE_CORPUS', () => {
    const llvm = mkFakeLlvm();
    const r = tool('fuzz-llvm.js', ['--seconds', '1', '--llvm', llvm], { LLVM_BYTECODE_CORPUS: ABSENT });
    expect(r.status).toBe(1);
    expect(r.err).toContain(`no corpus at ${ABSENT} (LLVM_BYTECODE_CORPUS)`);
  });

  it('link-scoreboard looks for llvm-link in LLVM_BYTECODE_LLVM19', () => {
    const r = tool('link-scoreboard.js', ['--sets', '1', '--corpus', tmpdir()], { LLVM_BYTECODE_LLVM19: ABSENT });
    expect(r.status).toBe(1);
    expect(r.err).toBe(`no llvm-link at ${join(ABSENT, 'llvm-link')}: pass --llvm-link PATH or set LLVM_BYTECODE_LLVM19=DIR\n`);
  });
});

/** A folder with an `llvm-dis` that exists (the tool checks no more before it looks for the corpus). */
function mkFakeLlvm(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fake-llvm-'));
  writeFileSync(join(dir, 'llvm-dis'), '');
  return dir;
}
