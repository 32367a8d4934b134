/**
 * readArchive / writeArchive on hand-made archives: every naming scheme (LLVM, GNU/SVR4, BSD),
 * the special members, compressed members, and every malformation ending in a typed error.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ArchiveError,
  isFileMember,
  memberContents,
  readArchive,
  readArchiveModules,
  writeArchive,
  writeArchiveAsync,
  type ArchiveMember,
} from '../../src/archive/index.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { writeModule } from '../../src/encode/write.js';
import { readModule } from '../../src/read.js';

const HELLO = new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url)));
const bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const text = (b: Uint8Array): string => String.fromCharCode(...b);

/** A 60-byte header from its fields, each padded to its width (not cut: tests forge bad ones). */
function header(name: string, size: string, fields: { date?: string; uid?: string; gid?: string; mode?: string; fmag?: string } = {}): string {
  return (
    name.padEnd(16) +
    (fields.date ?? '1162900800').padEnd(12) +
    (fields.uid ?? '0').padEnd(6) +
    (fields.gid ?? '0').padEnd(6) +
    (fields.mode ?? '100644').padEnd(8) +
    size.padEnd(10) +
    (fields.fmag ?? '`\n')
  );
}
function member(name: string, data: string, fields = {}): string {
  const m = header(name, String(data.length), fields) + data;
  return m.length % 2 ? `${m}\n` : m;
}
const archive = (...members: string[]): Uint8Array => bytes(`!<arch>\n${members.join('')}`);
const files = (a: { members: ArchiveMember[] }) => a.members.filter(isFileMember).map((m) => [m.name, text(m.data)]);

function expectArchiveError(input: Uint8Array, message: RegExp, offset?: number, where?: string): void {
  let caught: unknown;
  try {
    readArchive(input);
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ArchiveError);
  expect(caught).toBeInstanceOf(BytecodeError);
  const e = caught as ArchiveError;
  expect(e.reason).toMatch(message);
  if (offset !== undefined) expect(e.offset).toBe(offset);
  if (where !== undefined) expect(e.blockPath).toEqual([where]);
}

describe('naming schemes', () => {
  it('reads LLVM/GNU short names (name/) with their header fields', () => {
    const a = readArchive(archive(member('t.txt/', 'hello\n', { date: '1000', uid: '12', gid: '34', mode: '100755' })));
    expect(a.members).toHaveLength(1);
    const [m] = a.members;
    expect(m).toMatchObject({ name: 't.txt', kind: 'file', nameScheme: 'short', date: 1000, uid: 12, gid: 34, mode: 0o100755, compressed: false });
    expect(text(m!.data)).toBe('hello\n');
  });

  it('reads space-padded BSD short names without a slash', () => {
    expect(files(readArchive(archive(member('foo.o', 'x'))))).toEqual([['foo.o', 'x']]);
  });

  it('reads BSD #1/N names (the name before the data), with or without NUL padding', () => {
    const plain = readArchive(archive(member('#1/20', 'a_long_member_name.oDATA'.slice(0, 20) + 'DATA')));
    expect(files(plain)).toEqual([['a_long_member_name.o', 'DATA']]);
    const padded = readArchive(archive(member('#1/8', 'x.o\0\0\0\0\0DATA')));
    expect(files(padded)).toEqual([['x.o', 'DATA']]);
    expect(padded.members[0]!.nameScheme).toBe('bsd');
  });

  it('reads GNU /N names through the // string table, and keeps the / symbol table as is', () => {
    const strtab = 'a_quite_long_name_one.o/\nanother_long_name_two.o/\n';
    const a = readArchive(
      archive(member('/', '\0\0\0\0'), member('//', strtab, { date: '', uid: '', gid: '', mode: '' }), member('/0', 'one'), member('/25', 'two')),
    );
    expect(files(a)).toEqual([
      ['a_quite_long_name_one.o', 'one'],
      ['another_long_name_two.o', 'two'],
    ]);
    expect(a.members.map((m) => m.kind)).toEqual(['foreign-symbol-table', 'string-table', 'file', 'file']);
    expect(a.members[0]!.rawName).toBe('/               ');
  });

  it('recognises the BSD symbol tables __.SYMDEF and __.SYMDEF SORTED', () => {
    const a = readArchive(archive(member('__.SYMDEF SORTED', 'abcd'), member('__.SYMDEF', 'ef')));
    expect(a.members.map((m) => [m.name, m.kind])).toEqual([
      ['__.SYMDEF SORTED', 'foreign-symbol-table'],
      ['__.SYMDEF', 'foreign-symbol-table'],
    ]);
  });

  it('keeps names such as __proto__ and constructor as plain names', () => {
    const a = readArchive(archive(member('__proto__/', '1'), member('constructor/', '2')));
    expect(files(a)).toEqual([
      ['__proto__', '1'],
      ['constructor', '2'],
    ]);
  });

  it('tells bytecode, compressed bytecode and bitcode members apart', () => {
    const plain = writeModule(readModule(HELLO), { bytecodeVersion: 6, compression: 'none' });
    const a = readArchive(
      writeArchive(
        [
          { name: 'plain.bc', data: plain },
          { name: 'hello.bc', data: HELLO },
          { name: 'new.bc', data: bytes('BC\xc0\xde\x35\x14') },
        ],
        { symbolTable: false },
      ),
    );
    expect(a.members.map((m) => m.kind)).toEqual(['bytecode', 'compressed-bytecode', 'bitcode']);
    expect(readArchiveModules(a)).toHaveLength(2);
  });
});

describe('LLVM symbol table', () => {
  it('lists each defined external symbol once, sorted, at its first member (offset after the signature)', () => {
    const out = writeArchive([
      { name: 'a.txt', data: bytes('hi') },
      { name: 'hello.bc', data: HELLO },
      { name: 'again.bc', data: HELLO },
    ]);
    const a = readArchive(out);
    expect(a.members[0]!.kind).toBe('llvm-symbol-table');
    const names = a.symbolTable!.map((s) => s.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('main');
    // hello.bc is the second member: after a.txt's 60-byte header and 2 data bytes.
    for (const s of a.symbolTable!) expect(s.offset).toBe(62);
  });

  it('writes the symbol table even when no member is bytecode, unless told not to', () => {
    const withTable = readArchive(writeArchive([{ name: 'a.txt', data: bytes('x') }]));
    expect(withTable.members[0]!.kind).toBe('llvm-symbol-table');
    expect(withTable.symbolTable).toEqual([]);
    const without = readArchive(writeArchive([{ name: 'a.txt', data: bytes('x') }], { symbolTable: false }));
    expect(without.members.map((m) => m.kind)).toEqual(['file']);
  });

  it('refuses a second LLVM symbol table and a truncated one', () => {
    expectArchiveError(archive(member('#_LLVM_SYM_TAB_#', ''), member('#_LLVM_SYM_TAB_#', '')), /second LLVM symbol table/, 68);
    expectArchiveError(archive(member('#_LLVM_SYM_TAB_#', '\x05\x09abc')), /runs past the symbol table/);
    expectArchiveError(archive(member('#_LLVM_SYM_TAB_#', '\x85')), /ends inside/);
  });
});

describe('writing as llvm-ar did', () => {
  it('writes short names as name/, long names and paths as #1/N before the data', () => {
    const out = text(
      writeArchive(
        [
          { name: 'fifteen_chars.o', data: bytes('a'), date: 5, uid: 1, gid: 2, mode: 0o100600 },
          { name: 'sixteen_chars_.o', data: bytes('b') },
          { name: 'dir/x.o', data: bytes('c') },
        ],
        { symbolTable: false },
      ),
    );
    expect(out.slice(8, 68)).toBe(header('fifteen_chars.o/', '1', { date: '5', uid: '1', gid: '2', mode: '100600' }));
    expect(out).toContain(`${header('#1/16', '17', { date: '0', mode: '0' })}sixteen_chars_.ob`);
    expect(out).toContain(`${header('#1/7', '8', { date: '0', mode: '0' })}dir/x.oc`);
    expect(files(readArchive(bytes(out)))).toEqual([
      ['fifteen_chars.o', 'a'],
      ['sixteen_chars_.o', 'b'],
      ['dir/x.o', 'c'],
    ]);
  });

  it('truncates names to their last 15 bytes of file name with truncateNames', () => {
    const a = readArchive(writeArchive([{ name: 'some/dir/a_very_long_file_name.o', data: bytes('z') }], { truncateNames: true, symbolTable: false }));
    expect(a.members[0]!.name).toBe('a_very_long_fil');
  });

  it('compresses members with negative sizes, keeping llvc for bytecode, and reads them back', async () => {
    const plain = writeModule(readModule(HELLO), { bytecodeVersion: 6, compression: 'none' });
    const big = new Uint8Array(70_000).map((_, i) => (i * 7) & 0xff);
    const out = await writeArchiveAsync(
      [
        { name: 't.txt', data: bytes('hello\n') },
        { name: 'big.bin', data: big },
        { name: 'plain.bc', data: plain },
      ],
      { compress: true },
    );
    const a = readArchive(out);
    const [, t, b, p] = a.members;
    expect(t).toMatchObject({ kind: 'compressed', compressed: true });
    expect(text(t!.data)).toBe('0hello\n');
    expect(text(memberContents(t!))).toBe('hello\n');
    expect(b!.data[0]).toBe(0x32); // bzip2 above 64 KiB
    expect(memberContents(b!)).toEqual(big);
    expect(p).toMatchObject({ kind: 'compressed-bytecode', compressed: false });
    expect(text(p!.data.subarray(0, 5))).toBe('llvc0');
    expect(text(out)).toContain(header('t.txt/', '-7', { date: '0', mode: '0' }));
    expect(readArchiveModules(a)[0]!.module.functions.length).toBe(readModule(HELLO).functions.length);
  });

  it('round-trips an archive it read: same bytes', () => {
    const out = writeArchive(
      [
        { name: 'hello.bc', data: HELLO, date: 7, mode: 0o100644 },
        { name: 'note_with_a_long_name.txt', data: bytes('abc') },
      ],
      { symbolTableHeader: { date: 9 } },
    );
    const a = readArchive(out);
    const again = writeArchive(a.members.filter(isFileMember), { symbolTableHeader: { date: 9 } });
    expect(again).toEqual(out);
  });

  it('refuses a bytecode member it cannot read for the symbol table, with a typed error', () => {
    expect(() => writeArchive([{ name: 'bad.bc', data: bytes('llvm\x01\x02') }])).toThrow(ArchiveError);
  });
});

describe('malformed archives end in typed errors', () => {
  it('refuses bytes that are not an archive', () => {
    expectArchiveError(bytes('llvm'), /not an archive/, 0);
  });

  it('truncated header', () => {
    expectArchiveError(bytes(`!<arch>\n${header('a/', '1').slice(0, 30)}`), /truncated member header: 30 bytes left/, 8, 'member #0');
  });

  it('bad terminator', () => {
    expectArchiveError(archive(member('a/', 'x', { fmag: 'XX' })), /does not end in/, 66);
  });

  it('size past the end', () => {
    expectArchiveError(bytes(`!<arch>\n${header('a/', '100')}abc`), /member size 100 runs past the end/, 56);
  });

  it('bad numbers: size, date, uid, gid, octal mode', () => {
    expectArchiveError(archive(header('a/', '12x') + 'x'), /size field '12x'/, 56);
    expectArchiveError(archive(member('a/', 'x', { date: '12ab' })), /date field/, 24);
    expectArchiveError(archive(member('a/', 'x', { uid: '-1' })), /uid field/, 36);
    expectArchiveError(archive(member('a/', 'x', { gid: '0x1' })), /gid field/, 42);
    expectArchiveError(archive(member('a/', 'x', { mode: '100689' })), /mode field '100689' is not an octal/, 48);
  });

  it('hostile long names: bad BSD length, longer than the member, beyond the limit', () => {
    expectArchiveError(archive(member('#1/x', 'abc')), /invalid BSD long name/);
    expectArchiveError(archive(member('#1/99', 'abc')), /longer than the member/);
    const long = 'n'.repeat(5000);
    expectArchiveError(archive(member('#1/5000', long)), /maxArchiveNameLength/);
    expect(readArchive(archive(member('#1/5000', long)), { limits: { maxArchiveNameLength: 5000 } }).members[0]!.name).toBe(long);
  });

  it('hostile GNU names: no string table, index beyond it, no terminator, too long', () => {
    expectArchiveError(archive(member('/0', 'x')), /no string table/);
    expectArchiveError(archive(member('//', 'ab/\n'), member('/10', 'x')), /beyond the string table/);
    expectArchiveError(archive(member('//', 'abcdef'), member('/0', 'x')), /no "\/\\n" terminator/);
    expectArchiveError(archive(member('//', `${'n'.repeat(5000)}/\n`), member('/0', 'x')), /maxArchiveNameLength/);
    expectArchiveError(archive(member('//x', 'ab')), /invalid string table name/);
  });

  it('names the member by index and name', () => {
    expectArchiveError(archive(member('#_LLVM_SYM_TAB_#', ''), member('#_LLVM_SYM_TAB_#', '')), /second/, undefined, "member #1 '#_LLVM_SYM_TAB_#'");
  });

  it('escapes control bytes, high bytes, backslashes and quotes of a name from the file', () => {
    // A GNU long name can hold any byte; the member's compressed contents have an unknown type byte.
    const name = "a\x01\x1f\x7f\xe9\\'b";
    const a = readArchive(archive(member('//', `${name}/\n`), header('/0', '-2') + '9x'));
    expect(a.members[1]!.name).toBe(name);
    let caught: unknown;
    try {
      memberContents(a.members[1]!);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ArchiveError);
    const where = "member 'a\\x01\\x1f\\x7f\\xe9\\x5c\\x27b'";
    expect((caught as ArchiveError).blockPath).toEqual([where]);
    expect((caught as ArchiveError).message).not.toMatch(/[\x00-\x1f\x7f-\xff]/);
  });

  it('escapes the name of a member the writer cannot read for the symbol table', () => {
    const bad = writeModule(readModule(HELLO), { compression: 'none' }).slice(0, 20);
    const write = () => writeArchive([{ name: 'x\n\x00y', data: bad }]);
    expect(write).toThrow(ArchiveError);
    expect(write).toThrow(expect.objectContaining({ blockPath: ["member #0 'x\\x0a\\x00y'"] }));
  });

  it('huge member counts stop at maxArchiveMembers before growing further', () => {
    const many = archive(...Array.from({ length: 50 }, (_, i) => member(`m${i}/`, '')));
    expect(readArchive(many).members).toHaveLength(50);
    expect(() => readArchive(many, { limits: { maxArchiveMembers: 10 } })).toThrow(/more than 10 members \(limit maxArchiveMembers\)/);
  });

  it('unknown compression type byte in a compressed member', () => {
    const a = readArchive(archive(header('a/', '-2') + '9x'));
    expect(() => memberContents(a.members[0]!)).toThrow(ArchiveError);
  });
});

describe('foreign symbol tables are kept as they were', () => {
  it('a BSD symbol table under a #1/ long name is recognised and written back the same', () => {
    const input = archive(member('#1/12', '__.SYMDEF\0\0\0SYMS'), member('x.o/', 'obj'));
    const a = readArchive(input);
    expect(a.members.map((m) => [m.name, m.kind])).toEqual([
      ['__.SYMDEF', 'foreign-symbol-table'],
      ['x.o', 'file'],
    ]);
    const out = writeArchive(a.members.filter(isFileMember), { symbolTable: false, foreignSymbolTable: a.members[0]! });
    expect(text(out)).toBe(text(input));
  });

  it("a GNU symbol table comes first, before LLVM's", () => {
    const input = archive(member('/', '\0\0\0\0'), member('x.o/', 'obj'));
    const a = readArchive(input);
    const out = readArchive(writeArchive(a.members.filter(isFileMember), { foreignSymbolTable: a.members[0]! }));
    expect(out.members.map((m) => m.kind)).toEqual(['foreign-symbol-table', 'llvm-symbol-table', 'file']);
  });
});
