/**
 * Archives where a file goes: `dis`, `analyze`, `upgrade` and `rewrite` take `lib.a` (every
 * bytecode member, like a directory) and `lib.a(member.bc)` (one member, like a file).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeArchive } from '../../src/archive/index.js';
import { run } from '../../src/cli/run.js';
import { memoryIo } from './memory-io.js';

const HELLO = new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url)));
const NOTE = new Uint8Array(Buffer.from('not bytecode\n'));
const LIB = writeArchive([
  { name: 'hello.bc', data: HELLO },
  { name: 'notes.txt', data: NOTE },
  { name: 'again.bc', data: HELLO },
]);

async function cli(argv: string[], files: Record<string, Uint8Array>) {
  const io = memoryIo(files);
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err(), io };
}

/** What the one-file command prints for hello.bc under another name. */
async function single(argv: string[], label: string): Promise<string> {
  return (await cli([...argv, label], { [label]: HELLO })).out;
}

describe('an archive as the input of a file command', () => {
  it('dis lib.a -o DIR writes each bytecode member as the one-file command would, named after the member', async () => {
    const r = await cli(['dis', 'lib.a', '-o', 'out'], { 'lib.a': LIB });
    expect(r.code).toBe(0);
    expect(Buffer.from(r.io.files.get('out/hello.ll')!).toString('latin1')).toBe(await single(['dis'], 'lib.a(hello.bc)'));
    expect(r.io.files.has('out/again.ll')).toBe(true);
    expect([...r.io.files.keys()].filter((k) => k.startsWith('out/'))).toHaveLength(2);
  });

  it('names the members it skipped because they are not bytecode, in one note', async () => {
    const r = await cli(['dis', 'lib.a', '-o', 'out'], { 'lib.a': LIB });
    expect(r.err).toBe('llvm-bytecode: note: lib.a: 1 member is not bytecode and was skipped: notes.txt\n');
  });

  it('dis lib.a without -o asks for a directory or one member, rather than mixing listings', async () => {
    const r = await cli(['dis', 'lib.a'], { 'lib.a': LIB });
    expect(r.code).toBe(2);
    expect(r.err).toContain("-o DIR, or name one member: 'lib.a(MEMBER)'");
  });

  it('lib.a(member.bc) is that member, as a file: standard output by default', async () => {
    const r = await cli(['dis', 'lib.a(hello.bc)'], { 'lib.a': LIB });
    expect(r.code).toBe(0);
    expect(r.out).toBe(await single(['dis'], 'lib.a(hello.bc)'));
  });

  it('analyze of an archive prints every member in archive order, each labelled', async () => {
    const r = await cli(['analyze', 'lib.a'], { 'lib.a': LIB });
    expect(r.code).toBe(0);
    expect(r.out).toBe((await single(['analyze'], 'lib.a(hello.bc)')) + (await single(['analyze'], 'lib.a(again.bc)')));
  });

  it('rewrite and upgrade take archives too', async () => {
    const rewrite = await cli(['rewrite', 'lib.a', '-o', 'rw'], { 'lib.a': LIB });
    expect(rewrite.code).toBe(0);
    expect(rewrite.io.files.get('rw/hello.bc')).toEqual(HELLO);
    const upgrade = await cli(['upgrade', 'lib.a(again.bc)'], { 'lib.a': LIB });
    expect(upgrade.code).toBe(0);
    expect(upgrade.out).toContain('define');
  });

  it('a file whose name looks like a member is read as that file', async () => {
    const r = await cli(['dis', 'odd(name).bc'], { 'odd(name).bc': HELLO });
    expect(r.code).toBe(0);
    expect(r.out).toContain('%main');
  });

  it('says which members there are when the named one is missing, and refuses a member that is not bytecode', async () => {
    const missing = await cli(['dis', 'lib.a(nope.bc)'], { 'lib.a': LIB });
    expect(missing).toMatchObject({
      code: 1,
      err: "llvm-bytecode: error: lib.a(nope.bc): no such member (the archive's bytecode members: hello.bc, again.bc)\n",
    });
    const text = await cli(['dis', 'lib.a(notes.txt)'], { 'lib.a': LIB });
    expect(text).toMatchObject({ code: 1, err: 'llvm-bytecode: error: lib.a(notes.txt): not a bytecode member\n' });
    const notArchive = await cli(['dis', 'hello.bc(x.bc)'], { 'hello.bc': HELLO });
    expect(notArchive.err).toContain('hello.bc: not an archive');
  });

  it('never writes outside the output directory, whatever a member is called', async () => {
    const hostile = writeArchive([
      { name: '../escape.bc', data: HELLO },
      { name: 'fine.bc', data: HELLO },
    ]);
    const r = await cli(['dis', 'evil.a', '-o', 'out'], { 'evil.a': hostile });
    expect(r.code).toBe(1);
    expect(r.err).toContain('evil.a(../escape.bc): refusing to write this member');
    expect([...r.io.files.keys()].filter((k) => k.endsWith('.ll'))).toEqual(['out/fine.ll']);
  });

  it('a damaged archive is one error line naming it', async () => {
    const r = await cli(['dis', 'bad.a', '-o', 'out'], { 'bad.a': LIB.subarray(0, 70) });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^llvm-bytecode: error: bad\.a: .*\(offset \d+, in member #\d+.*\)\n$/);
  });

  it('an archive without bytecode members is an error, not an empty success', async () => {
    const r = await cli(['dis', 'text.a', '-o', 'out'], { 'text.a': writeArchive([{ name: 'a.txt', data: NOTE }]) });
    expect(r.code).toBe(1);
    expect(r.err).toContain('text.a: the archive has no bytecode members');
  });
});
