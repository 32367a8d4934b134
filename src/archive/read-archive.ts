/**
 * `readArchive`: the bytes of an `ar` archive in, its members out — the format LLVM 1.x's
 * `lib/Bytecode/Archive` read and wrote (and LLVM up to 3.3 kept for bitcode), plus the GNU/SVR4
 * and BSD naming schemes other archivers use, so that `libc.a` from `llvm-ar`, GNU `ar` or
 * `llvm-ar-16 --format=bsd|gnu` all open.
 *
 * Layout (docs/archive.md): `!<arch>\n`, then members, each a 60-byte header (name 16, date 12,
 * uid 6, gid 6, mode 8 octal, size 10, `` `\n ``) and `size` bytes of data padded with `\n` to an
 * even offset. A negative size marks a member LLVM compressed (`llvm-ar z`).
 *
 * Every malformation is an `ArchiveError` naming the member and the offset of the problem; every
 * count and length is checked against `Limits` before anything is allocated. Member data are
 * views into `bytes`, never copies.
 */
import { decodeLatin1 } from '../binary/latin1.js';
import { resolveLimits, type Limits } from '../limits.js';
import { ArchiveError, memberLabel, printable } from './archive-error.js';
import { decodeSymbolTable } from './symbol-table.js';
import {
  ARCHIVE_MAGIC,
  HEADER_SIZE,
  LLVM_SYMBOL_TABLE_NAME,
  classifyContents,
  type Archive,
  type ArchiveMember,
  type MemberKind,
  type NameScheme,
} from './types.js';

/** @category Archives and nm */
export interface ReadArchiveOptions {
  /** Raise or lower any of the documented limits (docs/limits.md). */
  limits?: Partial<Limits>;
}

/**
 * True when `bytes` start with the archive signature `!<arch>\n`.
 *
 * @category Archives and nm
 */
export function isArchive(bytes: Uint8Array): boolean {
  if (bytes.length < ARCHIVE_MAGIC.length) return false;
  for (let i = 0; i < ARCHIVE_MAGIC.length; i++) if (bytes[i] !== ARCHIVE_MAGIC.charCodeAt(i)) return false;
  return true;
}

/**
 * The members of the `ar` archive `bytes` (LLVM's, GNU/SVR4 or BSD naming), each a view into
 * `bytes`; LLVM's symbol table, when there is one, decoded. A damaged archive, or one past a
 * limit, is an `ArchiveError` naming the member and the offset.
 *
 * @category Archives and nm
 */
export function readArchive(bytes: Uint8Array, options: ReadArchiveOptions = {}): Archive {
  const limits = resolveLimits(options.limits);
  if (!isArchive(bytes)) {
    throw new ArchiveError('not an archive: it does not start with "!<arch>\\n"', 0);
  }
  const members: ArchiveMember[] = [];
  let stringTable: Uint8Array | undefined;
  let stringTableOffset = 0;
  let symbolTable: ArchiveMember['symbols'];
  let at = ARCHIVE_MAGIC.length;
  while (at < bytes.length) {
    const index = members.length;
    if (index >= limits.maxArchiveMembers) {
      throw new ArchiveError(`more than ${limits.maxArchiveMembers} members (limit maxArchiveMembers)`, at, [memberLabel(index)]);
    }
    const member = readMember(bytes, at, index, stringTable, stringTableOffset, limits);
    if (member.kind === 'string-table') {
      stringTable = member.data;
      stringTableOffset = member.dataOffset;
    } else if (member.kind === 'llvm-symbol-table') {
      if (symbolTable !== undefined) {
        throw new ArchiveError('a second LLVM symbol table (#_LLVM_SYM_TAB_#); an archive has at most one', at, [memberLabel(index, member.name)]);
      }
      symbolTable = decodeSymbolTable(member.data, member.dataOffset, [memberLabel(index, member.name)]);
      member.symbols = symbolTable;
    }
    members.push(member);
    at = member.dataOffset + member.data.length;
    if (at & 1) at++; // padding to an even offset (a last member may lack its pad byte)
  }
  return { members, ...(symbolTable ? { symbolTable } : {}) };
}

function readMember(
  bytes: Uint8Array,
  at: number,
  index: number,
  stringTable: Uint8Array | undefined,
  stringTableOffset: number,
  limits: Limits,
): ArchiveMember {
  const where = [memberLabel(index)];
  if (bytes.length - at < HEADER_SIZE) {
    throw new ArchiveError(`truncated member header: ${bytes.length - at} bytes left, a header takes ${HEADER_SIZE}`, at, where);
  }
  if (bytes[at + 58] !== 0x60 || bytes[at + 59] !== 0x0a) {
    throw new ArchiveError('member header does not end in "`\\n"', at + 58, where);
  }
  const rawName = decodeLatin1(bytes, at, at + 16);
  const date = decimalField(bytes, at + 16, 12, 'date', where);
  const uid = decimalField(bytes, at + 28, 6, 'uid', where);
  const gid = decimalField(bytes, at + 34, 6, 'gid', where);
  const mode = octalField(bytes, at + 40, 8, where);
  const signedSize = sizeField(bytes, at + 48, where);
  const compressed = signedSize < 0;
  let size = Math.abs(signedSize);
  let dataOffset = at + HEADER_SIZE;
  if (size > bytes.length - dataOffset) {
    throw new ArchiveError(`member size ${size} runs past the end of the archive (${bytes.length - dataOffset} bytes left)`, at + 48, where);
  }

  let name: string;
  let llvmName: string | undefined;
  let scheme: NameScheme;
  let kind: MemberKind | undefined;
  if (rawName === LLVM_SYMBOL_TABLE_NAME) {
    [name, scheme, kind] = [rawName, 'special', 'llvm-symbol-table'];
  } else if (rawName.startsWith('#1/')) {
    const digits = rawName.slice(3).trimEnd();
    if (!/^[0-9]+$/.test(digits)) throw new ArchiveError(`invalid BSD long name field '${printable(rawName)}'`, at, where);
    const length = Number(digits);
    if (length > limits.maxArchiveNameLength) {
      throw new ArchiveError(`name of ${length} bytes exceeds maxArchiveNameLength (${limits.maxArchiveNameLength})`, at, where);
    }
    if (length > size) throw new ArchiveError(`BSD name of ${length} bytes is longer than the member (${size} bytes)`, at, where);
    // Modern BSD writers pad the name with NULs so that the data is aligned; they are not part of it.
    let end = dataOffset + length;
    while (end > dataOffset && bytes[end - 1] === 0) end--;
    name = decodeLatin1(bytes, dataOffset, end);
    llvmName = decodeLatin1(bytes, dataOffset, dataOffset + length);
    scheme = 'bsd';
    // Modern BSD writers store their symbol table under a long name too.
    if (name === '__.SYMDEF' || name === '__.SYMDEF SORTED' || name === '__.SYMDEF_64' || name === '__.SYMDEF_64 SORTED') kind = 'foreign-symbol-table';
    dataOffset += length;
    size -= length;
  } else if (rawName.startsWith('//')) {
    if (rawName.trimEnd() !== '//') throw new ArchiveError(`invalid string table name '${printable(rawName)}'`, at, where);
    [name, scheme, kind] = ['//', 'special', 'string-table'];
  } else if (rawName.startsWith('/ ') || rawName === '/SYM64/         ') {
    if (rawName.trimEnd() !== '/' && rawName !== '/SYM64/         ') {
      throw new ArchiveError(`invalid SVR4 symbol table name '${printable(rawName)}'`, at, where);
    }
    [name, scheme, kind] = [rawName.trimEnd(), 'special', 'foreign-symbol-table'];
  } else if (/^\/[0-9]/.test(rawName)) {
    const digits = rawName.slice(1).trimEnd();
    if (!/^[0-9]+$/.test(digits)) throw new ArchiveError(`invalid GNU long name field '${printable(rawName)}'`, at, where);
    name = gnuLongName(Number(digits), stringTable, stringTableOffset, at, where, limits);
    scheme = 'gnu';
  } else if (rawName === '__.SYMDEF SORTED' || rawName.trimEnd() === '__.SYMDEF') {
    [name, scheme, kind] = [rawName.trimEnd(), 'special', 'foreign-symbol-table'];
  } else {
    const slash = rawName.indexOf('/');
    // `name/` (LLVM, GNU) or a space-padded BSD name without the slash.
    name = slash >= 0 ? rawName.slice(0, slash) : rawName.trimEnd();
    scheme = 'short';
  }

  const data = bytes.subarray(dataOffset, dataOffset + size);
  if (kind === undefined) {
    kind = classifyContents(data);
    if (kind === 'file' && compressed) kind = 'compressed';
  }
  return {
    name,
    llvmName: llvmName ?? name,
    kind,
    nameScheme: scheme,
    rawName,
    date,
    uid,
    gid,
    mode,
    // A compressed bytecode member is recognised by its `llvc` signature; LLVM cleared the
    // compressed flag for it, and so do we.
    compressed: compressed && kind !== 'compressed-bytecode',
    data,
    headerOffset: at,
    dataOffset,
  };
}

/** A name `/N` of the GNU scheme: bytes from offset N of the `//` member up to `/\n`. */
function gnuLongName(offset: number, stringTable: Uint8Array | undefined, tableOffset: number, at: number, where: string[], limits: Limits): string {
  if (stringTable === undefined) throw new ArchiveError(`long name /${offset} but no string table (//) precedes it`, at, where);
  if (offset >= stringTable.length) {
    throw new ArchiveError(`long name /${offset} is beyond the string table (${stringTable.length} bytes)`, at, where);
  }
  // GNU ends each name with "/\n"; LLVM's own reader demanded the same.
  const limit = Math.min(stringTable.length, offset + limits.maxArchiveNameLength + 2);
  for (let i = offset; i + 1 < limit; i++) {
    if (stringTable[i] === 0x2f && stringTable[i + 1] === 0x0a) return decodeLatin1(stringTable, offset, i);
  }
  if (limit < stringTable.length) {
    throw new ArchiveError(`long name /${offset} exceeds maxArchiveNameLength (${limits.maxArchiveNameLength})`, tableOffset + offset, where);
  }
  throw new ArchiveError(`long name /${offset} has no "/\\n" terminator in the string table`, tableOffset + offset, where);
}

/** A left-justified decimal field; blank means 0 (GNU leaves the fields of `//` blank). */
function decimalField(bytes: Uint8Array, at: number, width: number, what: string, where: string[]): number {
  const text = decodeLatin1(bytes, at, at + width).trimEnd();
  if (text === '') return 0;
  if (!/^[0-9]+$/.test(text)) throw new ArchiveError(`${what} field '${printable(text)}' is not a decimal number`, at, where);
  return Number(text);
}

function octalField(bytes: Uint8Array, at: number, width: number, where: string[]): number {
  const text = decodeLatin1(bytes, at, at + width).trimEnd();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError(`mode field '${printable(text)}' is not an octal number`, at, where);
  return parseInt(text, 8);
}

/** The size field: decimal, negative for a member LLVM compressed. */
function sizeField(bytes: Uint8Array, at: number, where: string[]): number {
  const text = decodeLatin1(bytes, at, at + 10).trimEnd();
  if (!/^-?[0-9]+$/.test(text)) throw new ArchiveError(`size field '${printable(text)}' is not a decimal number`, at, where);
  return Number(text);
}
