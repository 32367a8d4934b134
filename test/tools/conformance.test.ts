/**
 * The conformance tool end to end, on a small corpus of our own made in a temporary folder (the
 * real one is too slow for a unit test and may be absent): the scoreboard counts, the JSON report
 * and the ratchet's exit codes. Runs the built script, so it needs `npm run build` (npm test does).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBytes, formatAnalysis } from '../../src/analyze/index.js';

const ROOT = new URL('../../', import.meta.url);
const SCRIPT = new URL('dist-tools/tools/conformance.js', ROOT).pathname;
const HELLO = readFileSync(new URL('corpus/hello.bc', ROOT));
const HELLO_LL = readFileSync(new URL('corpus/hello.ll', ROOT));
/** What our analyzer says of hello.bc (its figures are tested in test/analyze; here only the plumbing). */
const BCA = formatAnalysis(analyzeBytes(new Uint8Array(HELLO), { moduleId: 'hello.bc' }));

function makeCorpus(): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-'));
  mkdirSync(join(dir, 'v6'));
  writeFileSync(join(dir, 'v6/hello.bc'), HELLO);
  writeFileSync(join(dir, 'v6/hello.dis.ll'), HELLO_LL);
  writeFileSync(join(dir, 'v6/hello.bca.txt'), BCA);
  writeFileSync(join(dir, 'v6/cut.bc'), HELLO.subarray(0, 100)); // refused with a BytecodeError
  writeFileSync(join(dir, 'v6/cut.dis.ll'), HELLO_LL);
  return dir;
}

function conformance(...args: string[]) {
  const r = spawnSync(process.execPath, [SCRIPT, '--jobs', '1', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe.skipIf(!existsSync(SCRIPT))('npm run conformance', () => {
  const corpus = makeCorpus();
  const ratchet = join(corpus, 'ratchet.json');

  it('scores each file and reports JSON', () => {
    const r = conformance('--corpus', corpus, '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { folders: Record<string, Record<string, unknown>>; failing: { name: string; read: string }[] };
    expect(report.folders.v6).toMatchObject({
      files: 2,
      readOk: 1,
      readError: 1,
      crashed: 0,
      print19: { pass: 1, of: 2 },
      native: { pass: 1, of: 2 },
      payload: { pass: 1, of: 2 },
      file: { pass: 1, of: 2 },
      analyze: { pass: 1, of: 1 },
    });
    expect(report.failing.map((f) => [f.name, f.read])).toEqual([['cut.bc', 'error']]);
  });

  it('prints a table with a total row', () => {
    const r = conformance('--corpus', corpus, '--failures');
    expect(r.code).toBe(0);
    // …and the assembler's columns: both texts print back; one assembles to its file.
    expect(r.out).toMatch(/^v6 +2 +1 +1 +0 +1\/2 +1\/2 +1\/2 +1\/2 +1\/1 +2\/2 +1\/2 +0\/1$/m);
    expect(r.out).toMatch(/^total +2 /m);
    expect(r.out).toContain('v6/cut.bc: ');
  });

  it('says where the time went with --timings (to stderr, the scoreboard unchanged)', () => {
    const plain = conformance('--corpus', corpus);
    const r = conformance('--corpus', corpus, '--timings');
    expect(r.code).toBe(0);
    expect(r.out.replace(/\d+\.\d s\)/, '')).toBe(plain.out.replace(/\d+\.\d s\)/, ''));
    expect(r.err).toMatch(/^seconds +files +read +write +print19 +native +analyze +asmText +asmBytes +asmOrder +all$/m);
    expect(r.err).toMatch(/^v6( +\d+\.\d\d){10}$/m);
    expect(r.err).toMatch(/^total( +\d+\.\d\d){10}$/m);
  });

  it('writes a ratchet, holds it, and fails when a count drops below it', () => {
    expect(conformance('--corpus', corpus, '--update-ratchet', '--ratchet-file', ratchet).code).toBe(0);
    const written = JSON.parse(readFileSync(ratchet, 'utf8')) as Record<string, Record<string, number>>;
    expect(written.v6).toEqual({ readOk: 1, noCrash: 2, print19: 1, native: 1, payload: 1, file: 1, analyze: 1, asmText: 2, asmBytes: 1 });
    expect(conformance('--corpus', corpus, '--ratchet', '--ratchet-file', ratchet).code).toBe(0);

    writeFileSync(ratchet, JSON.stringify({ v6: { ...written.v6, print19: 2 } }));
    const r = conformance('--corpus', corpus, '--ratchet', '--ratchet-file', ratchet);
    expect(r.code).toBe(1);
    expect(r.err).toContain('v6 print19: 1 < 2');
  });

  it('scores the same through the worker pool (--jobs 2) as in-process', () => {
    const many = mkdtempSync(join(tmpdir(), 'conformance-pool-'));
    mkdirSync(join(many, 'v6'));
    for (let n = 0; n < 60; n++) {
      writeFileSync(join(many, `v6/hello${n}.bc`), HELLO);
      writeFileSync(join(many, `v6/hello${n}.dis.ll`), HELLO_LL);
    }
    writeFileSync(join(many, 'v6/cut.bc'), HELLO.subarray(0, 100));
    const folders = (jobs: string) => {
      const r = spawnSync(process.execPath, [SCRIPT, '--jobs', jobs, '--corpus', many, '--json'], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      return (JSON.parse(r.stdout) as { folders: unknown }).folders;
    };
    const pooled = folders('2');
    expect(pooled).toMatchObject({ v6: { files: 61, readOk: 60, readError: 1, print19: { pass: 60, of: 60 } } });
    expect(pooled).toEqual(folders('1'));
  });

  it('fails, saying how to provide it, when the corpus is absent (never a silent pass)', () => {
    const absent = join(corpus, 'absent');
    const r = conformance('--corpus', absent, '--ratchet');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      `conformance: no corpus at ${absent} (--corpus): pass --corpus DIR or set LLVM_BYTECODE_CORPUS=DIR (default: ../shared/corpus beside the checkout)\n`,
    );
  });

  it('takes the corpus from LLVM_BYTECODE_CORPUS', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--jobs', '1', '--json'], { encoding: 'utf8', env: { ...process.env, LLVM_BYTECODE_CORPUS: corpus } });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { corpus: string }).corpus).toBe(corpus);
    const absent = spawnSync(process.execPath, [SCRIPT, '--jobs', '1'], {
      encoding: 'utf8',
      env: { ...process.env, LLVM_BYTECODE_CORPUS: join(corpus, 'absent') },
    });
    expect(absent.status).toBe(1);
    expect(absent.stderr).toContain('(LLVM_BYTECODE_CORPUS)');
  });
});
