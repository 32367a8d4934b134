/** `npm run bench` runs end to end (one quick pass over a corpus of our own) and prints its table. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bitcodeBench } from '../../tools/bench-bitcode.js';
import { debianLlvm, LLVM19, needs } from '../support/tools.js';

const ROOT = new URL('../../', import.meta.url);
const SCRIPT = new URL('dist-tools/tools/bench.js', ROOT).pathname;
const LLVM = LLVM19.dir;
const CLI_BUILT = existsSync(new URL('dist/cli/main.js', ROOT));

describe.skipIf(!existsSync(SCRIPT))('npm run bench', () => {
  it('measures every stage on a small corpus', () => {
    const corpus = mkdtempSync(join(tmpdir(), 'bench-'));
    mkdirSync(join(corpus, 'v6'));
    writeFileSync(join(corpus, 'v6/hello.bc'), readFileSync(new URL('corpus/hello.bc', ROOT)));
    const r = spawnSync(process.execPath, ['--expose-gc', SCRIPT, '--runs', '1', '--generated', '20', '--corpus', corpus, '--no-side-by-side'], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const measure of ['read', 'read+print', 'write', 'bzip2', 'module heap', 'peak RSS']) {
      expect(r.stdout).toMatch(new RegExp(`^v6 \\(1 files\\) +${measure.replace('+', '\\+')} `, 'm'));
    }
    // Each workload in a process of its own, so each peak is its own.
    expect(r.stdout).toMatch(/each workload in a process of its own/);
    expect(r.stdout).toMatch(/^generated \(20 functions\) +peak RSS .*whole process, this workload$/m);
  });

  it("times `as` of big-bf's listing, cold and warm, when the corpus has it", () => {
    const corpus = mkdtempSync(join(tmpdir(), 'bench-as-'));
    mkdirSync(join(corpus, 'v6'));
    writeFileSync(join(corpus, 'v6/hello.bc'), readFileSync(new URL('corpus/hello.bc', ROOT)));
    writeFileSync(join(corpus, 'v6/Large__big-bf.dis.ll'), readFileSync(new URL('corpus/hello.ll', ROOT)));
    const r = spawnSync(process.execPath, ['--expose-gc', SCRIPT, '--runs', '1', '--generated', '20', '--corpus', corpus, '--no-side-by-side'], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^v6\/Large__big-bf\.dis\.ll +as, first run +[\d.]+ +[\d.]+ .*cold: V8 has optimized none of it yet$/m);
    expect(r.stdout).toMatch(/^v6\/Large__big-bf\.dis\.ll +as +[\d.]+ +[\d.]+ .*parse, verify, write, bzip2: \d+ bytes$/m);
  });

  it('measures the workloads one after another in its own process with --one-process', () => {
    const corpus = mkdtempSync(join(tmpdir(), 'bench-one-'));
    mkdirSync(join(corpus, 'v6'));
    writeFileSync(join(corpus, 'v6/hello.bc'), readFileSync(new URL('corpus/hello.bc', ROOT)));
    const r = spawnSync(
      process.execPath,
      ['--expose-gc', SCRIPT, '--runs', '1', '--generated', '20', '--corpus', corpus, '--no-side-by-side', '--one-process'],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/every workload in this process, one after another/);
    expect(r.stdout).toMatch(/^v6 \(1 files\) +read /m);
    expect(r.stdout).toMatch(/^generated \(20 functions\) +peak RSS .*whole process, this and earlier workloads$/m);
  });

  it.skipIf(!CLI_BUILT)('times our CLI against LLVM 1.9 tools, whole processes side by side', needs(LLVM19), () => {
    const corpus = mkdtempSync(join(tmpdir(), 'bench-side-'));
    mkdirSync(join(corpus, 'v6'));
    writeFileSync(join(corpus, 'v6/hello.bc'), readFileSync(new URL('corpus/hello.bc', ROOT)));
    writeFileSync(join(corpus, 'v6/Large__big-bf.bc'), readFileSync(new URL('corpus/hello.bc', ROOT)));
    const r = spawnSync(process.execPath, [SCRIPT, '--side-by-side-only', '--rounds', '1', '--batch-rounds', '1', '--corpus', corpus, '--llvm', LLVM], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const [row, theirs] of [
      ['dis big-bf', 'llvm-dis'],
      ['analyze big-bf', 'llvm-bcanalyzer'],
      ['dis tiny', 'llvm-dis'],
      ['dis tiny vs bare node', "node -e ''"],
      ['batch dis v6 \\(2 files\\)', 'llvm-dis per file'],
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^${row} .* ${theirs} .*\\d\\.\\d\\d× \\(`, 'm'));
    }
    expect(r.stdout).not.toMatch(/^read /m); // --side-by-side-only
  });

  it('says so when the LLVM tools are absent', () => {
    // --no-corpus: whatever LLVM_BYTECODE_CORPUS says, this is about the tools.
    const r = spawnSync(process.execPath, [SCRIPT, '--side-by-side-only', '--no-corpus', '--llvm', join(tmpdir(), 'no-such-llvm')], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/LLVM 1\.9's tools not found .*: no side-by-side comparison/);
  });

  it('measures the generated module alone with --no-corpus, saying so, whatever LLVM_BYTECODE_CORPUS says', () => {
    const env = { ...process.env, LLVM_BYTECODE_CORPUS: join(tmpdir(), 'no-such-corpus') };
    const r = spawnSync(process.execPath, [SCRIPT, '--runs', '1', '--generated', '20', '--no-corpus'], { encoding: 'utf8', env });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/--no-corpus: measuring the generated module only/);
    expect(r.stdout).toMatch(/^generated \(20 functions\) +read /m);
  });

  it('fails, saying how to provide it, when the corpus it was given is absent', () => {
    const absent = join(tmpdir(), 'no-such-corpus');
    for (const [args, env] of [
      [['--corpus', absent], {}],
      [[], { LLVM_BYTECODE_CORPUS: absent }],
    ] as const) {
      const r = spawnSync(process.execPath, [SCRIPT, '--runs', '1', '--generated', '20', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`bench: no corpus at ${absent}`);
      expect(r.stderr).toContain('pass --corpus DIR or set LLVM_BYTECODE_CORPUS=DIR');
    }
  });
});

describe('the bitcode row of npm run bench (tools/bench-bitcode.ts)', () => {
  const CLI = new URL('dist/cli/llvm-bytecode.cjs', ROOT).pathname;
  /** A corpus whose v6/Large__big-bf.bc is the project's hello.bc (small: one quick round). */
  function smallCorpus(withBig: boolean): string {
    const corpus = mkdtempSync(join(tmpdir(), 'bench-bitcode-'));
    mkdirSync(join(corpus, 'v6'));
    if (withBig) writeFileSync(join(corpus, 'v6/Large__big-bf.bc'), readFileSync(new URL('corpus/hello.bc', ROOT)));
    return corpus;
  }

  it.skipIf(!existsSync(CLI))('times upgrade to bitcode against llvm-as-16 of our text, as a ratio', needs(debianLlvm(16)), () => {
    const out = bitcodeBench({ cli: CLI, corpus: smallCorpus(true), rounds: 1, log: () => undefined });
    expect(out).toMatch(/^bitcode: upgrade of v6\/Large__big-bf\.bc to LLVM 16 bitcode .*the issue's mark: within 2×$/m);
    expect(out).toMatch(/^upgrade big-bf to bitcode +ours upgrade --emit bitcode +\S.* +llvm-as-16 of our text +\S.* +\d+\.\d\d× \(/m);
  });

  it('says why there is no row without big-bf or without llvm-as-16', () => {
    expect(bitcodeBench({ cli: CLI, corpus: smallCorpus(false), rounds: 1, log: () => undefined })).toMatch(/^bench: no .*Large__big-bf\.bc: no bitcode row$/m);
    const saved = process.env.LLVM_BYTECODE_DEBIAN_LLVM16;
    process.env.LLVM_BYTECODE_DEBIAN_LLVM16 = join(tmpdir(), 'no-such-llvm');
    try {
      expect(bitcodeBench({ cli: CLI, corpus: smallCorpus(true), rounds: 1, log: () => undefined })).toMatch(
        /^bench: llvm-as-16 not found at .*no-such-llvm.*: no bitcode row/m,
      );
    } finally {
      if (saved === undefined) delete process.env.LLVM_BYTECODE_DEBIAN_LLVM16;
      else process.env.LLVM_BYTECODE_DEBIAN_LLVM16 = saved;
    }
  });
});
