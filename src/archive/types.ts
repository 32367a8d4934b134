/** The shapes `readArchive` returns and `writeArchive` takes, and how a member's bytes are told apart. */

export const ARCHIVE_MAGIC = '!<arch>\n';
export const HEADER_SIZE = 60;
/** The name field of LLVM's own symbol table member. */
export const LLVM_SYMBOL_TABLE_NAME = '#_LLVM_SYM_TAB_#';

/**
 * What a member holds. The special members: `llvm-symbol-table` (`#_LLVM_SYM_TAB_#`),
 * `foreign-symbol-table` (GNU `/` or `/SYM64/`, BSD `__.SYMDEF` / `__.SYMDEF SORTED`: kept, never
 * interpreted), `string-table` (GNU `//`, the long names). Files: `bytecode` (`llvm`),
 * `compressed-bytecode` (`llvc`), `bitcode` (LLVM 2.0+ `BC\xC0\xDE` or its wrapper: listed, not
 * read), `compressed` (LLVM's negative-size members: `memberContents` expands them), `file`.
 *
 * @category Archives and nm
 */
export type MemberKind = 'llvm-symbol-table' | 'foreign-symbol-table' | 'string-table' | 'bytecode' | 'compressed-bytecode' | 'bitcode' | 'compressed' | 'file';

/**
 * How the name was stored: `short` (`name/` or space-padded), `bsd` (`#1/N`), `gnu` (`/N`), `special`.
 *
 * @category Archives and nm
 */
export type NameScheme = 'short' | 'bsd' | 'gnu' | 'special';

/**
 * One entry of LLVM's symbol table: a symbol and the offset of the member defining it.
 *
 * @category Archives and nm
 */
export interface ArchiveSymbol {
  readonly name: string;
  /**
   * The member header's offset counted as LLVM 1.x did: from the end of the signature in the
   * archive *without* its symbol tables (`firstFileOffset` plus this is the header's position).
   */
  readonly offset: number;
}

/** @category Archives and nm */
export interface ArchiveMember {
  /** The member's name, one character per byte; for special members the name LLVM gave them. */
  name: string;
  kind: MemberKind;
  nameScheme: NameScheme;
  /**
   * The name as LLVM 1.x's reader took it: for a BSD `#1/N` name all N bytes, including the NUL
   * padding modern writers add (which `name` drops). `llvm-nm` printed these bytes in its
   * `archive(member):` headings, and `nm` does too.
   */
  llvmName: string;
  /** The 16 bytes of the header's name field, as stored. */
  rawName: string;
  /** Modification time, seconds since 1970. */
  date: number;
  uid: number;
  gid: number;
  /** The mode as stored (octal in the file), file-type bits included, as `llvm-ar` stored st_mode. */
  mode: number;
  /** True for a member with a negative size field whose data is LLVM-compressed (not `llvc`). */
  compressed: boolean;
  /** The member's bytes as stored (for BSD names, after the name); a view into the archive. */
  data: Uint8Array;
  /** Offset of the member's header in the archive. */
  headerOffset: number;
  /** Offset of `data` in the archive. */
  dataOffset: number;
  /** For the LLVM symbol table member: its entries in file order. */
  symbols?: readonly ArchiveSymbol[];
}

/** @category Archives and nm */
export interface Archive {
  /** Every member in file order, special members included (see `MemberKind`). */
  members: ArchiveMember[];
  /** The entries of LLVM's symbol table, when the archive has one. */
  symbolTable?: readonly ArchiveSymbol[];
}

/**
 * True for the members that are files (what `ar t` lists), false for symbol and string tables.
 *
 * @category Archives and nm
 */
export function isFileMember(member: Pick<ArchiveMember, 'kind'>): boolean {
  return member.kind !== 'llvm-symbol-table' && member.kind !== 'foreign-symbol-table' && member.kind !== 'string-table';
}

/**
 * True for the members that hold an LLVM 1.x module (`llvm` or `llvc`).
 *
 * @category Archives and nm
 */
export function isBytecodeMember(member: Pick<ArchiveMember, 'kind'>): boolean {
  return member.kind === 'bytecode' || member.kind === 'compressed-bytecode';
}

/** The kind of a file member from its first bytes, as LLVM's IdentifyFileType told them apart. */
export function classifyContents(data: Uint8Array): 'bytecode' | 'compressed-bytecode' | 'bitcode' | 'file' {
  if (data.length >= 4 && data[0] === 0x6c && data[1] === 0x6c && data[2] === 0x76) {
    if (data[3] === 0x6d) return 'bytecode';
    if (data[3] === 0x63) return 'compressed-bytecode';
  }
  if (data.length >= 4 && data[0] === 0x42 && data[1] === 0x43 && data[2] === 0xc0 && data[3] === 0xde) return 'bitcode';
  if (data.length >= 4 && data[0] === 0xde && data[1] === 0xc0 && data[2] === 0x17 && data[3] === 0x0b) return 'bitcode';
  return 'file';
}
