/**
 * `writeArchive`: members in, archive bytes out, byte for byte as LLVM 1.9's ArchiveWriter
 * (`llvm-ar`) wrote them given the same members:
 *
 * - a foreign symbol table, when kept, first; then LLVM's symbol table (`#_LLVM_SYM_TAB_#`, mode
 *   644, of the bytecode members' defined external symbols, see symbol-table.ts); then the members;
 * - names: `name/` when shorter than 16 bytes and free of `/`, otherwise BSD `#1/N` with the name
 *   before the data (LLVM never wrote GNU `//` tables); with `truncateNames` (`llvm-ar f`) the last
 *   path component cut to 15 bytes;
 * - fields left-justified and space-padded, cut to their width as `sprintf` + `memcpy` did;
 * - with `compress` (`llvm-ar z`) every member not already compressed goes through LLVM's
 *   Compressor: a type byte `0` (stored, ≤ 64 KiB) or `2` (bzip2, block size 5) and the payload;
 *   a bytecode member keeps its `llvc` signature before it; the size field is negative.
 *
 * Bytecode members are read (`readModule`) only for their symbols; bzip2 compression is
 * synchronous (`writeArchiveAsync` remains from when it needed loading first).
 */
import { encodeLatin1Into } from '../binary/latin1.js';
import { compressBzip2, loadBzip2 } from '../container/bzip2.js';
import { LLVM_BZIP2_THRESHOLD } from '../container/container.js';
import { BytecodeError } from '../errors/bytecode-error.js';
import { resolveLimits, type Limits } from '../limits.js';
import { readModule } from '../read.js';
import { ArchiveError, memberLabel } from './archive-error.js';
import { compareNames, encodeSymbolTable, moduleArchiveSymbols } from './symbol-table.js';
import { ARCHIVE_MAGIC, HEADER_SIZE, LLVM_SYMBOL_TABLE_NAME, classifyContents, type ArchiveMember, type ArchiveSymbol } from './types.js';

/**
 * A member to write. Fields left out are 0.
 *
 * @category Archives and nm
 */
export interface NewArchiveMember {
  /** The name (a path is kept whole, as `llvm-ar` kept it, unless `truncateNames`). */
  name: string;
  data: Uint8Array;
  date?: number;
  uid?: number;
  gid?: number;
  /** st_mode as `llvm-ar` stored it, file-type bits included (0o100644 for a plain file). */
  mode?: number;
  /** The data are already LLVM-compressed (a member read with `compressed: true`): never again. */
  compressed?: boolean;
}

/** @category Archives and nm */
export interface WriteArchiveOptions {
  /** Write LLVM's symbol table (`llvm-ar`'s default; `S` turns it off). Default true. */
  symbolTable?: boolean;
  /** The symbol table's header fields. LLVM 1.9 wrote the current time (see docs/archive.md), its uid and gid. */
  symbolTableHeader?: { date?: number; uid?: number; gid?: number };
  /** Compress the members (`llvm-ar z`). */
  compress?: boolean;
  /** Store only the last path component, at most 15 bytes (`llvm-ar f`). */
  truncateNames?: boolean;
  /** A foreign symbol table (GNU `/`, BSD `__.SYMDEF…`) to keep, written first, as read. */
  foreignSymbolTable?: Pick<ArchiveMember, 'name' | 'rawName' | 'data' | 'date' | 'uid' | 'gid' | 'mode'>;
  limits?: Partial<Limits>;
}

/** `writeArchive` after loading the bzip2 codec when compression may need it. */
export async function writeArchiveAsync(members: readonly NewArchiveMember[], options: WriteArchiveOptions = {}): Promise<Uint8Array> {
  if (options.compress) await loadBzip2();
  return writeArchive(members, options);
}

/**
 * An archive of `members` as LLVM 1.9's `llvm-ar` wrote it: the signature, LLVM's symbol table
 * (unless `symbolTable: false`) listing the bytecode members' defined externals, then each member
 * with its 60-byte header (compressed with `compress`). Counts and name lengths are checked against the limits.
 *
 * @category Archives and nm
 */
export function writeArchive(members: readonly NewArchiveMember[], options: WriteArchiveOptions = {}): Uint8Array {
  const limits = resolveLimits(options.limits);
  if (members.length > limits.maxArchiveMembers) {
    throw new ArchiveError(`${members.length} members exceed maxArchiveMembers (${limits.maxArchiveMembers})`, 0);
  }
  const withSymbols = options.symbolTable ?? true;
  const body = new Chunks();
  const firstDefinition = new Map<string, number>();
  members.forEach((member, index) => {
    const name = member.name.replace(/ +$/, '');
    const offset = body.length; // counted from the end of the signature, without symbol tables
    if (name.length > limits.maxArchiveNameLength) {
      throw new ArchiveError(`a name of ${name.length} bytes exceeds maxArchiveNameLength (${limits.maxArchiveNameLength})`, offset, [memberLabel(index)]);
    }
    const kind = member.compressed ? 'compressed' : classifyContents(member.data);
    if (withSymbols && (kind === 'bytecode' || kind === 'compressed-bytecode')) {
      let symbols: string[];
      try {
        symbols = moduleArchiveSymbols(readModule(member.data, { limits }));
      } catch (e) {
        if (e instanceof BytecodeError) {
          throw new ArchiveError(`cannot read bytecode member for the symbol table: ${e.reason} (member offset ${e.offset})`, offset, [
            memberLabel(index, name),
          ]);
        }
        throw e;
      }
      for (const s of symbols) if (!firstDefinition.has(s)) firstDefinition.set(s, offset);
    }
    let data = member.data;
    let negative = member.compressed === true;
    let prefix: Uint8Array | undefined;
    if (options.compress && kind !== 'compressed' && kind !== 'compressed-bytecode') {
      if (kind === 'bytecode') {
        prefix = LLVC;
        data = llvmCompress(member.data.subarray(4));
      } else {
        data = llvmCompress(member.data);
      }
      negative = true;
    }
    const stored = (prefix?.length ?? 0) + data.length;
    body.push(memberHeader(member, name, stored, negative, options.truncateNames === true));
    if (!options.truncateNames && isLongName(name)) body.pushName(name);
    if (prefix) body.push(prefix);
    body.push(data);
    if ((ARCHIVE_MAGIC.length + body.length) & 1) body.push(PAD);
  });

  const out = new Chunks();
  out.push(Uint8Array.from(ARCHIVE_MAGIC, (c) => c.charCodeAt(0)));
  const foreign = options.foreignSymbolTable;
  if (foreign) {
    const bsdNameLength = foreign.rawName.startsWith('#1/') ? Number(foreign.rawName.slice(3).trim()) : 0;
    out.push(headerBytes(foreign.rawName, foreign, String(bsdNameLength + foreign.data.length)));
    if (bsdNameLength > 0) {
      // A BSD long name (`#1/N`): the name again before the data, NUL-padded to N bytes.
      const name = new Uint8Array(bsdNameLength);
      encodeLatin1Into(foreign.name.slice(0, bsdNameLength), name, 0);
      out.push(name);
    }
    out.push(foreign.data);
    if (out.length & 1) out.push(PAD);
  }
  if (withSymbols) {
    const entries: ArchiveSymbol[] = [...firstDefinition].map(([name, offset]) => ({ name, offset }));
    entries.sort((a, b) => compareNames(a.name, b.name));
    const table = encodeSymbolTable(entries);
    const header = options.symbolTableHeader ?? {};
    out.push(headerBytes(LLVM_SYMBOL_TABLE_NAME, { date: header.date ?? 0, uid: header.uid ?? 0, gid: header.gid ?? 0, mode: 0o644 }, String(table.length)));
    out.push(table);
    if (table.length & 1) out.push(PAD);
  }
  for (const chunk of body.chunks) out.push(chunk);
  return out.concat();
}

const LLVC = Uint8Array.of(0x6c, 0x6c, 0x76, 0x63);
const PAD = Uint8Array.of(0x0a);

/** LLVM's Compressor: `0` + the bytes up to 64 KiB, `2` + bzip2 (block size 5) above. */
export function llvmCompress(data: Uint8Array): Uint8Array {
  const payload = data.length > LLVM_BZIP2_THRESHOLD ? compressBzip2(data, 5) : data;
  const out = new Uint8Array(1 + payload.length);
  out[0] = data.length > LLVM_BZIP2_THRESHOLD ? 0x32 : 0x30;
  out.set(payload, 1);
  return out;
}

function isLongName(name: string): boolean {
  return !(name.length < 16 && !name.includes('/'));
}

function memberHeader(member: NewArchiveMember, name: string, stored: number, negative: boolean, truncate: boolean): Uint8Array {
  let field: string;
  let size = stored;
  if (truncate) {
    field = `${name.slice(name.lastIndexOf('/') + 1).slice(0, 15)}/`;
  } else if (!isLongName(name)) {
    field = `${name}/`;
  } else {
    field = `#1/${name.length}`;
    size += name.length;
  }
  return headerBytes(
    field,
    { date: member.date ?? 0, uid: member.uid ?? 0, gid: member.gid ?? 0, mode: member.mode ?? 0 },
    negative ? `-${size}` : String(size),
  );
}

/** A 60-byte header; each field left-justified, padded with spaces and cut to its width. */
function headerBytes(name: string, f: { date: number; uid: number; gid: number; mode: number }, size: string): Uint8Array {
  const out = new Uint8Array(HEADER_SIZE).fill(0x20);
  const put = (text: string, at: number, width: number): void => {
    encodeLatin1Into(text.slice(0, width), out, at);
  };
  put(name, 0, 16);
  put(String(f.date >>> 0), 16, 12);
  put(String(f.uid >>> 0), 28, 6);
  put(String(f.gid >>> 0), 34, 6);
  put((f.mode >>> 0).toString(8), 40, 8);
  put(size, 48, 10);
  out[58] = 0x60;
  out[59] = 0x0a;
  return out;
}

/** Output gathered as chunks and joined once. */
class Chunks {
  readonly chunks: Uint8Array[] = [];
  length = 0;
  push(c: Uint8Array): void {
    this.chunks.push(c);
    this.length += c.length;
  }
  pushName(name: string): void {
    const bytes = new Uint8Array(name.length);
    encodeLatin1Into(name, bytes, 0);
    this.push(bytes);
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}
