/**
 * Bounded input (issue 30, item 3): an input is judged on its first bytes before more is read, no
 * input is read past a documented maximum size, a limit reached is reported as that limit and
 * nothing else, every limit an error names can be raised with `--limit`, and bytecode is never
 * written to a terminal.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ASSEMBLY_LIMIT_NAMES, limitNames, parseLimits } from '../../src/cli/cli-limits.js';
import { nodeIo, type CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { compressBzip2, loadBzip2 } from '../../src/container/index.js';
import { DEFAULT_ASSEMBLY_LIMITS } from '../../src/index.js';
import { LIMIT_NAMES } from '../../src/limits.js';
import { memoryIo } from './memory-io.js';

const ROOT = new URL('../../', import.meta.url);
const HELLO = new Uint8Array(readFileSync(new URL('corpus/hello.bc', ROOT)));
const HELLO_LL = new Uint8Array(readFileSync(new URL('corpus/hello.ll', ROOT)));
const MAIN = new URL('dist/cli/main.js', ROOT).pathname;
const BUILT = existsSync(MAIN);
const dir = mkdtempSync(join(tmpdir(), 'bounded-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI in-process on the real file system, output captured; `terminal` answers every isatty. */
async function cli(argv: string[], terminal = false) {
  const mem = memoryIo();
  const io: CliIo = { ...nodeIo(), stdout: mem.stdout, stderr: mem.stderr, stdinIsTerminal: () => false, stdoutIsTerminal: () => terminal };
  delete (io as { parallel?: unknown }).parallel;
  const code = await run(argv, io);
  return { code, out: mem.out(), err: mem.err() };
}

/** The built CLI through a shell (for /dev/zero and pipes). */
function shell(command: string) {
  return spawnSync('sh', ['-c', command.replaceAll('CLI', `node ${MAIN}`)], { encoding: 'latin1', cwd: dir });
}

const ONE_LINE = /^llvm-bytecode: error: [^\n]+\n$/;

describe('the first bytes decide, before more is read', () => {
  it.skipIf(!BUILT || !existsSync('/dev/zero'))('dis /dev/zero and cat /dev/zero | dis: one line, exit 1 (an endless input is never read whole)', () => {
    for (const command of [
      'CLI dis /dev/zero',
      'cat /dev/zero | CLI dis',
      'CLI analyze /dev/zero',
      'cat /dev/zero | CLI rewrite - -o out.bc',
      'CLI as /dev/zero -o out.bc',
      'CLI link /dev/zero -o out.bc',
      'CLI nm /dev/zero',
      'CLI ar t /dev/zero',
      'cat /dev/zero | CLI upgrade',
    ]) {
      const r = shell(command);
      expect(r.stderr, command).toMatch(ONE_LINE);
      expect(r.status, command).toBe(1);
    }
    expect(shell('CLI dis /dev/zero').stderr).toBe(
      `llvm-bytecode: error: /dev/zero: not LLVM bytecode: the file starts with 00 00 00 00 ("....") where 'llvm' or 'llvc' was expected (offset 0)\n`,
    );
    expect(existsSync(join(dir, 'out.bc'))).toBe(false);
  });

  it("the refusal is the reader's own message, the same as for the whole file", async () => {
    const png = join(dir, 'image.png');
    writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    const r = await cli(['dis', png]);
    expect(r.err).toBe(
      `llvm-bytecode: error: ${png}: not LLVM bytecode: the file starts with 89 50 4e 47 (".PNG") where 'llvm' or 'llvc' was expected (offset 0)\n`,
    );
  });

  it('as refuses what cannot be text (a NUL byte) and bytecode, naming what it is', async () => {
    const png = join(dir, 'picture.png');
    writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
    const r = await cli(['as', png, '-o', join(dir, 'p.bc')]);
    expect(r.err).toBe(
      `llvm-bytecode: error: ${png}: not LLVM assembly text: it has a NUL byte at offset 8, which text never has; it starts 89 50 4e 47 0d 0a 1a 0a (".PNG....")\n`,
    );
    const bc = join(dir, 'h.bc');
    writeFileSync(bc, HELLO);
    expect((await cli(['as', bc, '-o', join(dir, 'h2.bc')])).err).toMatch(/this is LLVM bytecode, not assembly text \('dis' prints it as text\)\n$/);
  });
});

describe('a maximum input size, documented and raisable', () => {
  it('a file above maxInputSize is refused naming the limit and how to raise it; raised, it is read', async () => {
    const file = join(dir, 'hello.bc');
    writeFileSync(file, HELLO);
    const r = await cli(['dis', file, '--limit', 'maxInputSize=100']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `llvm-bytecode: error: ${file}: the input is ${HELLO.length} bytes, more than the limit of 100 bytes (maxInputSize; '--limit maxInputSize=N' raises it)\n`,
    );
    expect((await cli(['dis', file, '--limit', 'maxInputSize=1K'])).code).toBe(0);
  });

  it.skipIf(!BUILT)('a stream above it is read only up to the limit, then refused', () => {
    const r = shell(`(cat ${join(ROOT.pathname, 'corpus/hello.bc')}; cat /dev/zero) | CLI dis --limit maxInputSize=64K`);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `llvm-bytecode: error: <stdin>: the input is larger than the limit of 65536 bytes (maxInputSize; '--limit maxInputSize=N' raises it)\n`,
    );
  });

  it('every command takes --limit; a wrong name or value is a usage error that lists the names', async () => {
    const file = join(dir, 'hello2.bc');
    writeFileSync(file, HELLO);
    for (const argv of [
      ['dis', file],
      ['analyze', file],
      ['upgrade', file],
      ['rewrite', file, '-o', join(dir, 'r.bc')],
      ['nm', file],
      ['link', file, '-o', join(dir, 'l.bc')],
      ['ar', 't', join(dir, 'none.a')],
    ]) {
      const r = await cli([...argv, '--limit', 'maxInputSize=10']);
      expect(r.err, argv[0]).toMatch(/limit of 10 bytes \(maxInputSize; '--limit maxInputSize=N' raises it\)|no such file/);
      const wrong = await cli([...argv, '--limit', 'maxInputSise=10']);
      expect(wrong.code, argv[0]).toBe(2);
      expect(wrong.err).toMatch(/unknown limit 'maxInputSise' \(known: maxInputSize, maxDecompressedSize, /);
    }
    expect((await cli(['dis', file, '--limit', 'maxTypes'])).err).toMatch(/takes NAME=VALUE/);
  });

  it("--limit knows every limit: the library's, the archive's and the assembler's, with K/M/G suffixes", () => {
    expect(limitNames()).toEqual([...LIMIT_NAMES, ...ASSEMBLY_LIMIT_NAMES]);
    expect([...ASSEMBLY_LIMIT_NAMES].sort()).toEqual(Object.keys(DEFAULT_ASSEMBLY_LIMITS).sort());
    expect(parseLimits('maxInputSize=2G\nmaxNesting=10,maxTypes=1_000')).toEqual({
      reader: { maxInputSize: 2 * 1024 ** 3, maxTypes: 1000 },
      assembly: { maxNesting: 10 },
    });
  });
});

describe('a limit reached is reported as the limit, and nothing else', () => {
  it('a small llvc2 file that expands past the limit: the limit and how to raise it, no CR-LF hint', async () => {
    await loadBzip2();
    // 16 MiB of zeros compress to a few dozen bytes, none of them 0x0D: the damage heuristic
    // would call that a text-mode conversion.
    const bomb = Buffer.concat([Buffer.from('llvc2'), compressBzip2(new Uint8Array(16 << 20))]);
    expect(bomb.includes(0x0d)).toBe(false);
    const file = join(dir, 'bomb.bc');
    writeFileSync(file, bomb);
    for (const command of ['dis', 'analyze', 'upgrade']) {
      const r = await cli([command, file, '--limit', 'maxDecompressedSize=1M']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(
        /bzip2 data expands beyond the limit of 1048576 bytes \(maxDecompressedSize; '--limit maxDecompressedSize=N' raises it\); stopped after \d+ compressed byte\(s\) \(offset \d+\)\n$/,
      );
      expect(r.err).not.toMatch(/text-mode|CR-LF/);
    }
  });

  it('the error names a limit that --limit raises: raised, the same file reads', async () => {
    await loadBzip2();
    const file = join(dir, 'hello-bz.bc');
    const compressed = await cli(['rewrite', join(ROOT.pathname, 'corpus/hello.bc'), '-o', file, '--compress', 'bzip2']);
    expect(compressed.code).toBe(0);
    for (const command of ['dis', 'analyze', 'upgrade', 'nm']) {
      const small = await cli([command, file, '--limit', 'maxDecompressedSize=100']);
      expect(small.code, command).toBe(1);
      expect(small.err, command).toMatch(/\(maxDecompressedSize; '--limit maxDecompressedSize=N' raises it\)/);
      expect((await cli([command, file, '--limit', 'maxDecompressedSize=1M'])).code, command).toBe(0);
    }
  });
});

describe('bytecode is never written to a terminal', () => {
  it('rewrite -o -, as from standard input, link -o - to a terminal: refused, one line, exit 1', async () => {
    const file = join(dir, 'hello3.bc');
    writeFileSync(file, HELLO);
    const refused = 'llvm-bytecode: error: <stdout>: refusing to write bytecode to a terminal: give -o FILE, or send standard output to a file or a pipe\n';
    for (const argv of [
      ['rewrite', file, '-o', '-'],
      ['link', file, '-o', '-'],
      ['as', '-'],
    ]) {
      const r = await cli(argv, true);
      expect(r, argv.join(' ')).toMatchObject({ code: 1, out: '', err: refused });
    }
    // Not a terminal: written.
    const piped = await cli(['rewrite', file, '-o', '-'], false);
    expect(piped.code).toBe(0);
    expect(Buffer.from(piped.out, 'latin1')).toEqual(Buffer.from(HELLO));
  });

  it('as FILE.ll writes FILE.bc, as llvm-as did, and only when FILE.bc is new', async () => {
    const ll = join(dir, 'prog.ll');
    writeFileSync(ll, HELLO_LL);
    const r = await cli(['as', ll], true);
    expect(r).toMatchObject({ code: 0, out: '', err: '' });
    expect(readFileSync(join(dir, 'prog.bc'))).toEqual(Buffer.from(HELLO));
    writeFileSync(join(dir, 'prog.bc'), 'mine\n');
    const again = await cli(['as', ll]);
    expect(again.code).toBe(1);
    expect(again.err).toBe(
      `llvm-bytecode: error: ${join(dir, 'prog.bc')}: already exists; 'as ${ll}' writes it only when it is new: -o ${join(dir, 'prog.bc')} replaces it, -o - writes to standard output\n`,
    );
    expect(readFileSync(join(dir, 'prog.bc'), 'utf8')).toBe('mine\n');
    // A name without .ll gains .bc.
    const plain = join(dir, 'text');
    writeFileSync(plain, HELLO_LL);
    expect((await cli(['as', plain])).code).toBe(0);
    expect(readFileSync(`${plain}.bc`)).toEqual(Buffer.from(HELLO));
  });

  it.skipIf(!BUILT || spawnSync('script', ['--version']).status !== 0)('under a real terminal (script): rewrite to the screen is refused', () => {
    const file = join(dir, 'hello4.bc');
    writeFileSync(file, HELLO);
    const r = spawnSync('script', ['-qec', `node ${MAIN} rewrite ${file} -o -`, '/dev/null'], { encoding: 'latin1', cwd: dir });
    expect(r.stdout).toMatch(/refusing to write bytecode to a terminal/);
    expect(r.status).toBe(1);
  });
});

describe('memory IO keeps the same bounds (in-process tests see what the real files see)', () => {
  it('standard input of zeros is refused on its first bytes', async () => {
    const io = memoryIo({}, new Uint8Array(1 << 16));
    expect(await run(['dis', '-'], io)).toBe(1);
    expect(io.err()).toMatch(/^llvm-bytecode: error: <stdin>: not LLVM bytecode: the file starts with 00 00 00 00/);
  });
});
