/**
 * A new user's first hour with the command (issue 15): every failure is one line that says which
 * file and what was being done, `analyze` tells the same story as `dis`, `upgrade`'s output runs
 * on the host, and a conversion to versions 0 and 1 says what is in the way and how to leave it out.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostTriple, run } from '../../src/cli/run.js';
import { readModule } from '../../src/read.js';
import { memoryIo } from './memory-io.js';
import { corpusFiles, CORPUS_PRESENT, NEEDS_CORPUS, readCorpusFile } from '../support/corpus.js';

const ROOT = new URL('../../', import.meta.url);
const HELLO = new Uint8Array(readFileSync(new URL('corpus/hello.bc', ROOT)));
const MAIN = new URL('dist/cli/main.js', ROOT).pathname;
const BUILT = existsSync(MAIN);

async function cli(argv: string[], files: Record<string, Uint8Array> = {}, stdin?: Uint8Array, terminal = false) {
  const io = { ...memoryIo(files, stdin), stdinIsTerminal: () => terminal };
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err(), files: io.files };
}

/** hello.bc with one byte of `main`'s body damaged (`main` is function #3: puts, printf, sum, main). */
function damagedInMain(): Uint8Array {
  const bad = HELLO.slice();
  bad[310] = 0xff;
  return bad;
}

describe('analyze tells the same story as dis', () => {
  it('a damaged function body: the same error line, after the partial figures', async () => {
    const bad = damagedInMain();
    const dis = await cli(['dis', 'bad.bc'], { 'bad.bc': bad });
    const analyze = await cli(['analyze', 'bad.bc'], { 'bad.bc': bad });
    expect(dis.code).toBe(1);
    expect(analyze.code).toBe(1);
    expect(dis.err).toContain('in Module/Function #3/InstructionList)');
    expect(analyze.err).toBe(dis.err);
    expect(analyze.out).toContain('Summary Analysis Of bad.bc:');
  });

  it.skipIf(!CORPUS_PRESENT)('the damaged historical files: the same line from dis, analyze and analyze --json', NEEDS_CORPUS, async () => {
    let damaged = 0;
    for (const name of corpusFiles('historical')) {
      const bytes = readCorpusFile('historical', name);
      const dis = await cli(['dis', name], { [name]: bytes });
      if (dis.code === 0) continue;
      damaged++;
      expect(dis.err).toMatch(/^llvm-bytecode: error: .*\(offset \d+(, in [^)]+)?\)\n$/);
      expect((await cli(['analyze', name], { [name]: bytes })).err).toBe(dis.err);
      expect((await cli(['analyze', '--json', name], { [name]: bytes })).err).toBe(dis.err);
    }
    expect(damaged).toBe(5);
  });

  it('empty input and a file that is not bytecode: the error alone, no all-zero summary', async () => {
    for (const [name, bytes] of [
      ['empty.bc', new Uint8Array()],
      ['notes.txt', new TextEncoder().encode('# not bytecode\n')],
    ] as const) {
      const r = await cli(['analyze', name], { [name]: bytes });
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      expect(r.err).toMatch(new RegExp(`^llvm-bytecode: error: ${name.replace('.', '\\.')}: not LLVM bytecode: .*\\(offset 0\\)\\n$`));
      expect(r.err).not.toContain('nan');
    }
  });

  it('writes to a file with -o', async () => {
    const r = await cli(['analyze', 'hello.bc', '-o', 'hello.bca.txt'], { 'hello.bc': HELLO });
    expect(r).toMatchObject({ code: 0, out: '', err: '' });
    expect(Buffer.from(r.files.get('hello.bca.txt')!).toString('latin1')).toContain('Summary Analysis Of hello.bc:');
  });
});

describe('I/O failures are one line that says what failed', () => {
  it('an output file that cannot be written says it is the output', async () => {
    const io = memoryIo({ 'hello.bc': HELLO });
    io.writeFile = (path) => {
      throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    };
    for (const argv of [
      ['dis', 'hello.bc', '-o', 'missing/x.ll'],
      ['analyze', 'hello.bc', '-o', 'missing/x.ll'],
      ['rewrite', 'hello.bc', '-o', 'missing/x.ll'],
    ]) {
      const code = await run(argv, io);
      expect(code).toBe(1);
    }
    expect(io.err().split('\n').filter(Boolean)).toEqual(Array(3).fill('llvm-bytecode: error: missing/x.ll: cannot write output: no such file or directory'));
  });

  it('standard input on a terminal: says it is reading it when asked (-), shows the usage when run bare', async () => {
    const r = await cli(['dis', '-'], {}, HELLO, true);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^llvm-bytecode: reading from standard input \(end with Ctrl-D/);
    const bare = await cli(['dis'], {}, HELLO, true);
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(/^usage: llvm-bytecode dis/);
    expect((await cli(['dis'], {}, HELLO, false)).err).toBe('');
  });

  it.skipIf(!BUILT || !existsSync('/dev/full'))('a full disk on standard output (dis > /dev/full): one line, exit 1, no stack trace', () => {
    for (const command of ['dis', 'analyze', 'upgrade']) {
      const r = spawnSync('sh', ['-c', `"${process.execPath}" "${MAIN}" ${command} corpus/hello.bc > /dev/full`], { cwd: ROOT.pathname, encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe('llvm-bytecode: error: <stdout>: cannot write output: no space left on device\n');
    }
  });

  it.skipIf(!BUILT)('an output path in a missing folder, from the real process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nu-'));
    const r = spawnSync(process.execPath, [MAIN, 'dis', 'corpus/hello.bc', '-o', join(dir, 'no/such/x.ll')], { cwd: ROOT.pathname, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`llvm-bytecode: error: ${join(dir, 'no/such/x.ll')}: cannot write output: no such file or directory\n`);
  });
});

describe('upgrade --triple', () => {
  const triples = async (...extra: string[]) => {
    const r = await cli(['upgrade', 'hello.bc', ...extra], { 'hello.bc': HELLO });
    expect(r.err).toBe('');
    return r.out.split('\n').filter((l) => l.includes('target triple'));
  };

  it('by default leaves the triple out (the tools use their host), keeping the old one as a comment', async () => {
    expect(readModule(HELLO).targetTriple).toBe('i686-pc-linux-gnu');
    expect(await triples()).toEqual(['; LLVM 1.x: target triple = "i686-pc-linux-gnu"']);
    expect(await triples('--triple', 'none')).toEqual(await triples());
  });

  it('keep, host and an explicit triple', async () => {
    expect(await triples('--triple', 'keep')).toEqual(['target triple = "i686-pc-linux-gnu"']);
    expect(await triples('--triple', 'host')).toEqual(['; LLVM 1.x: target triple = "i686-pc-linux-gnu"', `target triple = "${hostTriple()}"`]);
    expect(await triples('--triple=x86_64-pc-linux-gnu')).toEqual(['; LLVM 1.x: target triple = "i686-pc-linux-gnu"', 'target triple = "x86_64-pc-linux-gnu"']);
  });

  it('refuses what is not a triple as a usage error', async () => {
    const r = await cli(['upgrade', 'hello.bc', '--triple', 'x86'], { 'hello.bc': HELLO });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--triple' must be keep, host, none or a target triple/);
  });

  it('names the host in LLVM spelling', () => {
    expect(hostTriple('x64', 'linux')).toBe('x86_64-unknown-linux-gnu');
    expect(hostTriple('arm64', 'darwin')).toBe('aarch64-apple-darwin');
  });
});

describe('rewrite to versions 0 and 1: what is in the way, and leaving it out deliberately', () => {
  it('names the target triple and the option that drops it', async () => {
    for (const version of ['0', '1']) {
      const r = await cli(['rewrite', 'hello.bc', '-o', 'old.bc', '--bytecode-version', version], { 'hello.bc': HELLO });
      expect(r.code).toBe(1);
      expect(r.err).toBe(
        `llvm-bytecode: error: hello.bc: the target triple "i686-pc-linux-gnu" cannot be written in bytecode version ${version}: ` +
          'this version has no field for a target triple (--drop-target leaves it out)\n',
      );
    }
  });

  it('--drop-target writes a version 0 and 1 file that reads back without the triple', async () => {
    for (const version of [0, 1]) {
      const r = await cli(['rewrite', 'hello.bc', '-o', 'old.bc', '--bytecode-version', String(version), '--drop-target'], { 'hello.bc': HELLO });
      expect(r).toMatchObject({ code: 0, err: '' });
      const back = readModule(r.files.get('old.bc')!);
      expect(back.source?.bytecodeVersion).toBe(version);
      expect(back.targetTriple).toBe('');
      expect(back.functions.map((f) => f.name)).toEqual(readModule(HELLO).functions.map((f) => f.name));
    }
  });

  it('names dependent libraries too, and --drop-deplibs leaves them out', async () => {
    const { writeModule } = await import('../../src/encode/write.js');
    const m = readModule(HELLO);
    m.dependentLibraries = ['m', 'c'];
    const withLibs = writeModule(m, { bytecodeVersion: 6 });
    const refused = await cli(['rewrite', 'l.bc', '-o', 'o.bc', '--bytecode-version', '0', '--drop-target'], { 'l.bc': withLibs });
    expect(refused.err).toBe(
      'llvm-bytecode: error: l.bc: dependent libraries ("m", "c") cannot be written in bytecode version 0: ' +
        'this version has no field for dependent libraries (--drop-deplibs leaves it out)\n',
    );
    const ok = await cli(['rewrite', 'l.bc', '-o', 'o.bc', '--bytecode-version', '0', '--drop-target', '--drop-deplibs'], { 'l.bc': withLibs });
    expect(ok.code).toBe(0);
    expect(readModule(ok.files.get('o.bc')!).dependentLibraries).toEqual([]);
  });
});
