/**
 * Batch mode: several inputs or directories in one command. In-process with in-memory files (the
 * rules: names, order, failures), then through the built entry point with real worker threads
 * (the outputs are the one-file command's, byte for byte).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { memoryIo } from './memory-io.js';
import { CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';

const ROOT = new URL('../../', import.meta.url);
const HELLO = new Uint8Array(readFileSync(new URL('corpus/hello.bc', ROOT)));
const HELLO_LL = readFileSync(new URL('corpus/hello.ll', ROOT), 'latin1');
const CUT = HELLO.subarray(0, 200);
const MAIN = new URL('dist/cli/main.js', ROOT).pathname;
const CORPUS = CORPUS_ROOT; // LLVM_BYTECODE_CORPUS, else ../shared/corpus (test/support/corpus.ts)

/** hello.bc with its module name's bytes changed, so each file of a batch prints differently. */
function variant(n: number): Uint8Array {
  const bytes = HELLO.slice();
  const at = Buffer.from(bytes).indexOf('sum');
  bytes[at] = 0x61 + (n % 26); // `sum` → `aum`, `bum`, …: same length, another name
  return bytes;
}

async function cli(argv: string[], files: Record<string, Uint8Array>) {
  const io = memoryIo(files);
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err(), files: io.files };
}

/** What the one-file command prints for `bytes` (the reference for every batch output). */
async function single(command: string, bytes: Uint8Array, name = 'in.bc', extra: string[] = []): Promise<string> {
  const r = await cli([command, name, ...extra], { [name]: bytes });
  return r.out;
}

const text = (bytes: Uint8Array | undefined): string => Buffer.from(bytes!).toString('latin1');

describe('batch mode, in-process', () => {
  it('prints every .bc under a directory to OUTDIR, keeping relative paths, .ll for .bc', async () => {
    const r = await cli(['dis', 'in', '-o', 'out'], { 'in/a.bc': HELLO, 'in/sub/deeper/b.bc': variant(1), 'in/notes.txt': new Uint8Array([1]) });
    // What was left out is counted, by reason, in one note.
    expect(r).toMatchObject({
      code: 0,
      out: '',
      err: 'llvm-bytecode: note: in: 1 skipped: 1 not bytecode (neither named .bc nor starting with its signature)\n',
    });
    expect(text(r.files.get('out/a.ll'))).toBe(HELLO_LL);
    expect(text(r.files.get('out/sub/deeper/b.ll'))).toBe(await single('dis', variant(1), 'in/sub/deeper/b.bc'));
    expect([...r.files.keys()].filter((k) => k.startsWith('out/')).sort()).toEqual(['out/a.ll', 'out/sub/deeper/b.ll']);
  });

  it('takes files and directories together; a file named directly keeps its own name', async () => {
    const r = await cli(['dis', 'x/one.bc', 'd', '--syntax', 'native', '-o', 'out'], { 'x/one.bc': HELLO, 'd/two.bc': variant(2) });
    expect(r.code).toBe(0);
    expect(text(r.files.get('out/one.ll'))).toBe(await single('dis', HELLO, 'x/one.bc', ['--syntax', 'native']));
    expect(text(r.files.get('out/two.ll'))).toBe(await single('dis', variant(2), 'd/two.bc', ['--syntax', 'native']));
  });

  it('reports each failed file on one line, in input order, writes the good ones and exits 1', async () => {
    const files = { 'in/a.bc': HELLO, 'in/b-cut.bc': CUT, 'in/c.bc': variant(3), 'in/d-cut.bc': CUT, 'out/b-cut.ll': new TextEncoder().encode('keep me') };
    const r = await cli(['dis', 'in', '-o', 'out'], files);
    expect(r.code).toBe(1);
    const lines = r.err.split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    const oneFile = (await cli(['dis', 'in/b-cut.bc'], { 'in/b-cut.bc': CUT })).err;
    expect(lines[0] + '\n').toBe(oneFile);
    expect(lines[1]).toMatch(/^llvm-bytecode: error: in\/d-cut\.bc: .*\(offset \d+/);
    expect(text(r.files.get('out/a.ll'))).toBe(HELLO_LL);
    expect(r.files.has('out/c.ll')).toBe(true);
    expect(r.files.has('out/d-cut.ll')).toBe(false);
    expect(text(r.files.get('out/b-cut.ll'))).toBe('keep me'); // a failed file replaces nothing
  });

  it('names a missing input in its own error line and carries on', async () => {
    const r = await cli(['upgrade', 'nope.bc', 'a.bc', '-o', 'out'], { 'a.bc': HELLO });
    expect(r.code).toBe(1);
    expect(r.err).toBe('llvm-bytecode: error: nope.bc: no such file or directory\n');
    expect(text(r.files.get('out/a.ll'))).toBe(await single('upgrade', HELLO, 'a.bc'));
  });

  it('analyze without -o prints each one-file output to standard output, in input order', async () => {
    const files = { 'd/a.bc': HELLO, 'd/b.bc': CUT, 'd/c.bc': variant(4) };
    const r = await cli(['analyze', 'd'], files);
    expect(r.code).toBe(1);
    const expected = [await single('analyze', HELLO, 'd/a.bc'), await single('analyze', CUT, 'd/b.bc'), await single('analyze', variant(4), 'd/c.bc')].join('');
    expect(r.out).toBe(expected);
    expect(r.err).toMatch(/^llvm-bytecode: error: d\/b\.bc: [^\n]*\n$/);
  });

  it('analyze -o DIR writes .bca.txt, .bca.json or .bcadump.txt beside the name', async () => {
    for (const [flag, suffix] of [
      [[], '.bca.txt'],
      [['--json'], '.bca.json'],
      [['--dump'], '.bcadump.txt'],
    ] as const) {
      const r = await cli(['analyze', 'd', '-o', 'out', ...flag], { 'd/a.bc': HELLO, 'd/b.bc': HELLO });
      expect(r.code).toBe(0);
      expect(text(r.files.get(`out/a${suffix}`))).toBe(await single('analyze', HELLO, 'd/a.bc', [...flag]));
    }
  });

  it('rewrite writes each file back byte for byte under its own name, and never over its input', async () => {
    const r = await cli(['rewrite', 'd', '-o', 'out', '--jobs', '3'], { 'd/a.bc': HELLO, 'd/s/b.bc': variant(5) });
    expect(r.code).toBe(0);
    expect(Buffer.from(r.files.get('out/a.bc')!).equals(Buffer.from(HELLO))).toBe(true);
    expect(Buffer.from(r.files.get('out/s/b.bc')!).equals(Buffer.from(variant(5)))).toBe(true);

    // Refused whole, before anything is read: one line, exit 1, both files as they were.
    const inPlace = await cli(['rewrite', 'd', '-o', 'd'], { 'd/a.bc': HELLO, 'd/b.bc': CUT });
    expect(inPlace.code).toBe(1);
    expect(inPlace.err).toBe('llvm-bytecode: error: d/a.bc: refusing to write over an input: it is d/a.bc itself (nothing was read or written)\n');
    expect(inPlace.files.get('d/b.bc')).toEqual(CUT);
  });

  it('shows a progress line on a terminal, cleared before each error line and at the end', async () => {
    const io = memoryIo({ 'd/a.bc': HELLO, 'd/b.bc': CUT, 'd/c.bc': HELLO });
    const code = await run(['dis', 'd', '-o', 'out'], { ...io, stderrIsTerminal: true });
    expect(code).toBe(1);
    const err = io.err();
    // Files done of all, the rate so far, failures so far.
    expect(err).toMatch(/\r\x1b\[Kllvm-bytecode: 3\/3 files, [0-9.]+ files\/s, 1 failed/);
    expect(err.endsWith('\r\x1b[K')).toBe(true);
    // Without the progress drawing, what remains is the one error line.
    expect(err.replace(/\r\x1b\[K(llvm-bytecode: \d+\/\d+ files[^\r\n]*)?/g, '')).toMatch(/^llvm-bytecode: error: d\/b\.bc: [^\n]+\n$/);
  });

  it('refuses two inputs with one output, and a directory without bytecode', async () => {
    const twice = await cli(['dis', 'a/x.bc', 'b/x.bc', '-o', 'out'], { 'a/x.bc': HELLO, 'b/x.bc': HELLO });
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/a\/x\.bc and b\/x\.bc would both be written to out\/x\.ll/);
    expect(twice.files.size).toBe(2);
    const empty = await cli(['dis', 'd', '-o', 'out'], { 'd/readme.txt': new Uint8Array([1]) });
    expect(empty).toMatchObject({
      code: 1,
      err: 'llvm-bytecode: note: d: 1 skipped: 1 not bytecode (neither named .bc nor starting with its signature)\nllvm-bytecode: error: d: no bytecode files found\n',
    });
  });
});

/** The built CLI as a process. */
function spawnCli(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'latin1', cwd, maxBuffer: 1 << 28 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Every file under `dir`, relative, sorted. */
function listAll(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();
}

describe.skipIf(!existsSync(MAIN))('batch mode through the built CLI (worker threads)', () => {
  it('writes what the one-file command writes, byte for byte; failures on their own lines; exit 1', () => {
    const base = mkdtempSync(join(tmpdir(), 'batch-'));
    const input = join(base, 'in');
    for (let n = 0; n < 24; n++) {
      mkdirSync(join(input, `group${n % 3}`), { recursive: true });
      writeFileSync(join(input, `group${n % 3}`, `m${n}.bc`), variant(n));
    }
    writeFileSync(join(input, 'group1', 'zz-cut.bc'), CUT);
    const r = spawnCli(['dis', input, '-o', join(base, 'out'), '--jobs', '2']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    // Not a terminal: no progress line, only the one error line.
    expect(r.err).toBe(spawnCli(['dis', join(input, 'group1', 'zz-cut.bc')]).err);
    expect(listAll(join(base, 'out'))).toEqual(
      listAll(input)
        .filter((f) => !f.includes('cut'))
        .map((f) => f.replace(/\.bc$/, '.ll')),
    );
    for (const f of listAll(join(base, 'out'))) {
      const one = spawnCli(['dis', join(input, f.replace(/\.ll$/, '.bc'))]);
      expect(readFileSync(join(base, 'out', f), 'latin1'), f).toBe(one.out);
    }
  });

  it('agrees with the one-file command over real corpus files (relative operands)', { ...NEEDS_CORPUS, timeout: 120_000 }, () => {
    const base = mkdtempSync(join(tmpdir(), 'batch-corpus-'));
    const names = readdirSync(join(CORPUS, 'v5'))
      .filter((n) => n.endsWith('.bc'))
      .sort()
      .filter((_, i) => i % 100 === 0);
    expect(names.length).toBeGreaterThan(5);
    mkdirSync(join(base, 'v5'));
    for (const n of names) cpSync(join(CORPUS, 'v5', n), join(base, 'v5', n));
    for (const [command, suffix] of [
      ['dis', '.ll'],
      ['upgrade', '.ll'],
      ['rewrite', '.bc'],
    ] as const) {
      const r = spawnCli([command, 'v5', '-o', `out-${command}`], base);
      const oneFile = names.map((n) => spawnCli([command, `v5/${n}`, '-o', '-'], base));
      expect(r.err).toBe(oneFile.map((o) => o.err).join(''));
      names.forEach((n, i) => {
        const out = join(base, `out-${command}`, n.replace(/\.bc$/, suffix));
        if (oneFile[i]!.code !== 0) expect(existsSync(out)).toBe(false);
        else expect(readFileSync(out, 'latin1'), `${command} ${n}`).toBe(oneFile[i]!.out);
      });
    }
  });
});
