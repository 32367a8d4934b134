/** The `ar` and `nm` commands: operations on real files in a temporary directory, and their errors. */
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readArchive } from '../../src/archive/index.js';
import { nodeIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { memoryIo } from './memory-io.js';

const HELLO = new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'ar-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI with the real file system but captured output. */
async function cli(argv: string[]) {
  const io = memoryIo();
  const real = nodeIo();
  io.readFile = real.readFile;
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe('ar', () => {
  const hello = join(dir, 'hello.bc');
  const note = join(dir, 'note.txt');
  const archive = join(dir, 'lib.a');
  writeFileSync(hello, HELLO);
  writeFileSync(note, 'note\n');
  chmodSync(note, 0o640);
  utimesSync(hello, 1162900800, 1162900800);
  utimesSync(note, 1000000000, 1000000000);

  it('rcs creates the archive with members from the file system (date, mode) and the symbol table', async () => {
    const r = await cli(['ar', 'rcs', archive, note, hello]);
    expect(r).toMatchObject({ code: 0, err: '' });
    const a = readArchive(new Uint8Array(readFileSync(archive)));
    expect(a.members[0]!.kind).toBe('llvm-symbol-table');
    // Sorted as llvm-ar's std::set sorted them; the paths are kept whole (#1/N).
    const [h, n] = a.members.slice(1);
    expect(h).toMatchObject({ name: hello, date: 1162900800, nameScheme: 'bsd', kind: 'compressed-bytecode' });
    expect(n).toMatchObject({ name: note, date: 1000000000, mode: 0o100640 });
    expect(a.symbolTable!.map((s) => s.name)).toContain('main');
  });

  it('says it creates an archive unless c is given', async () => {
    const other = join(dir, 'other.a');
    const r = await cli(['ar', 'rs', other, note]);
    expect(r.err).toBe(`llvm-bytecode ar: creating ${other}\n`);
    expect(existsSync(other)).toBe(true);
  });

  it('t lists, p prints (bytecode only with k), d deletes, q appends, r replaces', async () => {
    expect((await cli(['ar', 't', archive])).out).toBe(`${hello}\n${note}\n`);
    expect((await cli(['ar', 'p', archive])).out).toBe('note\n');
    expect((await cli(['ar', 'pk', archive, hello])).out.slice(0, 4)).toBe('llvc');
    expect((await cli(['ar', 'd', archive, hello])).code).toBe(0);
    expect((await cli(['ar', 't', archive])).out).toBe(`${note}\n`);
    expect((await cli(['ar', 'q', archive, note])).code).toBe(0);
    expect((await cli(['ar', 't', archive])).out).toBe(`${note}\n${note}\n`);
    writeFileSync(note, 'changed\n');
    expect((await cli(['ar', 'r', archive, note])).code).toBe(0);
    expect((await cli(['ar', 'p', archive])).out).toBe('changed\nnote\n');
  });

  it('rcsz compresses, and p and x expand', async () => {
    const z = join(dir, 'z.a');
    expect((await cli(['ar', 'rcsz', z, note])).code).toBe(0);
    expect(readArchive(new Uint8Array(readFileSync(z))).members[1]).toMatchObject({ kind: 'compressed', compressed: true });
    expect((await cli(['ar', 'p', z])).out).toBe('changed\n');
    expect((await cli(['ar', 'tv', z])).out).toMatch(/^Zrw-r----- +\d+\/ +\d+ +9 /);
  });

  it('reports a damaged archive on one line with member and offset, exit 1', async () => {
    const bad = join(dir, 'bad.a');
    writeFileSync(bad, '!<arch>\nshort');
    const r = await cli(['ar', 't', bad]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`llvm-bytecode: error: ${bad}: truncated member header: 5 bytes left, a header takes 60 (offset 8, in member #0)\n`);
  });

  it('x refuses member names that would leave the current directory', async () => {
    const evil = join(dir, 'evil.a');
    const { writeArchive } = await import('../../src/archive/index.js');
    writeFileSync(evil, writeArchive([{ name: '../escaped.txt', data: new Uint8Array([1]) }], { symbolTable: false }));
    const r = await cli(['ar', 'x', evil]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/refusing to extract member '\.\.\/escaped\.txt'/);
  });

  it('refuses unknown operations and modifiers with a usage error', async () => {
    expect((await cli(['ar', 'm', archive])).code).toBe(2);
    expect((await cli(['ar', 'tx', archive])).code).toBe(2);
    expect((await cli(['ar', 'tz', archive])).code).toBe(2);
    expect((await cli(['ar', 't'])).code).toBe(2);
    expect((await cli(['ar', '--help'])).out).toMatch(/^usage: llvm-bytecode ar/);
  });
});

describe('nm', () => {
  it('lists a module in bsd by default, without a heading for one file', async () => {
    const io = memoryIo({ 'hello.bc': HELLO });
    expect(await run(['nm', 'hello.bc'], io)).toBe(0);
    expect(io.out()).toContain('         T main\n');
    expect(io.out()).not.toContain('hello.bc:');
  });

  it('accepts -format=, --format, -f and -P; filters with -u, -g, -defined-only', async () => {
    for (const args of [['-format=posix'], ['--format', 'posix'], ['-f', 'posix'], ['-P']]) {
      const io = memoryIo({ 'hello.bc': HELLO });
      await run(['nm', ...args, 'hello.bc'], io);
      expect(io.out(), args.join(' ')).toContain('main T         \n');
    }
    const io = memoryIo({ 'hello.bc': HELLO });
    await run(['nm', '-u', 'hello.bc'], io);
    expect(io.out()).not.toContain(' T ');
    const d = memoryIo({ 'hello.bc': HELLO });
    await run(['nm', '-defined-only', 'hello.bc'], d);
    expect(d.out()).not.toContain(' U ');
  });

  it('keeps going after a bad file, reports it on one line, exits 1', async () => {
    const io = memoryIo({ 'hello.bc': HELLO, 'text.txt': new Uint8Array([1, 2, 3, 4, 5]) });
    expect(await run(['nm', 'text.txt', 'missing.bc', 'hello.bc'], io)).toBe(1);
    expect(io.err()).toBe('llvm-bytecode: error: text.txt: unrecognizable file type\nllvm-bytecode: error: missing.bc: no such file or directory\n');
    expect(io.out()).toContain('\nhello.bc:\n');
  });

  it('reads standard input', async () => {
    const io = memoryIo({}, HELLO);
    expect(await run(['nm'], io)).toBe(0);
    expect(io.out()).toContain(' T main');
  });

  it('rejects an unknown option or format', async () => {
    expect(await run(['nm', '-format=xml', 'a'], memoryIo())).toBe(2);
    expect(await run(['nm', '--bogus'], memoryIo())).toBe(2);
  });
});
