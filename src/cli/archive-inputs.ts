/**
 * Archives as inputs of the file commands (`dis`, `analyze`, `upgrade`, `rewrite`):
 *
 * - `lib.a` stands for every bytecode member, as a directory stands for its `.bc` files: a batch
 *   whose outputs are named after the members (`-o DIR`: `DIR/member.ll`), each the one-file
 *   command's output for that member. Members that are not bytecode (ELF objects, text, LLVM 2.0+
 *   bitcode) are skipped, and one note on standard error names them.
 * - `lib.a(member.bc)` is that one member, like a file: standard output or `-o FILE`. The form is
 *   `ar`'s and `llvm-nm`'s; a file that really has such a name is read as that file.
 *
 * Errors name the member as `lib.a(member.bc)`. A member whose name could leave the output
 * directory (`..`, a slash, a NUL) is refused by name rather than written anywhere.
 */
import { isArchive as looksLikeArchive } from '../archive/read-archive.js';
import { ARCHIVE_MAGIC, type ArchiveMember } from '../archive/types.js';
import { NO_LIMITS_GIVEN, type CliLimits } from './cli-limits.js';
import { FileError } from './file-error.js';
import { boundsFor } from './input-kinds.js';
import type { CliIo } from './io.js';

/** `lib.a(member.bc)` → its parts; undefined for any other operand. */
export function splitMemberOperand(operand: string): { archive: string; member: string } | undefined {
  const match = /^(.+)\(([^()]+)\)$/s.exec(operand);
  return match ? { archive: match[1]!, member: match[2]! } : undefined;
}

/** How an archive member is named in messages and batch labels: `lib.a(member.bc)`. */
export function memberLabel(archive: string, member: string): string {
  // Member names come from the file: control bytes shown as \xNN, never sent to a terminal.
  // eslint-disable-next-line no-control-regex
  return `${archive}(${member.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)})`;
}

/** One bytecode member of an archive, ready to be converted like a file. */
export interface ArchiveInput {
  /** `lib.a(member.bc)`. */
  readonly label: string;
  /** The member's name, safe as a file name (see `safeOutputName`), or undefined when it is not. */
  readonly fileName: string | undefined;
  readonly name: string;
  /** The member's contents (a compressed member expanded). */
  readonly bytes: Uint8Array;
}

/** The bytecode members of an archive, and the names of the members skipped. */
export interface ArchiveInputs {
  readonly members: ArchiveInput[];
  readonly skipped: string[];
}

/**
 * The bytecode members of the archive `bytes` (read from `path`), in archive order. Throws a
 * `FileError` naming the archive when it is malformed (the `ArchiveError` says where).
 */
export async function archiveInputs(path: string, bytes: Uint8Array, limits: CliLimits = NO_LIMITS_GIVEN): Promise<ArchiveInputs> {
  const archive = await import('../archive/index.js');
  let members: readonly ArchiveMember[];
  try {
    members = archive.readArchive(bytes, { limits: limits.reader }).members;
  } catch (e) {
    throw new FileError(path, e);
  }
  const found: ArchiveInput[] = [];
  const skipped: string[] = [];
  for (const member of members) {
    if (!archive.isFileMember(member)) continue;
    let contents: Uint8Array;
    try {
      contents = archive.memberContents(member, { limits: limits.reader });
    } catch (e) {
      throw new FileError(memberLabel(path, member.name), e);
    }
    const kind = archive.classifyContents(contents);
    if (kind === 'bytecode' || kind === 'compressed-bytecode') {
      found.push({ label: memberLabel(path, member.name), name: member.name, fileName: safeOutputName(member.name), bytes: contents });
    } else {
      skipped.push(kind === 'bitcode' ? `${member.name} (LLVM 2.0+ bitcode)` : member.name);
    }
  }
  return { members: found, skipped };
}

/**
 * The one bytecode member `member` of the archive `bytes` (read from `path`), for the form
 * `lib.a(member.bc)`. The first member of that name, as `ar p` took it.
 */
export async function archiveMember(path: string, bytes: Uint8Array, member: string, limits: CliLimits = NO_LIMITS_GIVEN): Promise<ArchiveInput> {
  const { members, skipped } = await archiveInputs(path, bytes, limits);
  const hit = members.find((m) => m.name === member);
  if (hit) return hit;
  const label = memberLabel(path, member);
  if (skipped.some((s) => s === member || s.startsWith(`${member} (`))) throw new FileError(label, 'not a bytecode member');
  throw new FileError(label, `no such member (the archive's bytecode members: ${members.length === 0 ? 'none' : members.map((m) => m.name).join(', ')})`);
}

/**
 * `name` when it can be a file name inside an output directory, else undefined: no path
 * separators, no `.` or `..`, no NUL, not empty. Archive member names come from the file, and a
 * hostile one must not write outside the directory the user named.
 */
export function safeOutputName(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return undefined;
  if (/[/\\\0]/.test(name)) return undefined;
  return name;
}

/** One note line for the members an archive batch skipped. */
export function skippedNote(path: string, skipped: readonly string[]): string {
  const shown = skipped.slice(0, 8).join(', ') + (skipped.length > 8 ? `, and ${skipped.length - 8} more` : '');
  return `${path}: ${skipped.length} member${skipped.length === 1 ? ' is' : 's are'} not bytecode and ${skipped.length === 1 ? 'was' : 'were'} skipped: ${shown}`;
}

/**
 * What a command operand names, as far as archives go: `archive` (a file that begins like one),
 * `member` (`lib.a(member.bc)` where no file has that name but the archive exists), or undefined
 * (anything else, including files that cannot be read: reading them later says why).
 */
export function archiveOperandKind(operand: string, io: CliIo): 'archive' | 'member' | undefined {
  if (operand === '-') return undefined;
  const head = readHead(operand, io);
  if (head !== undefined) return looksLikeArchive(head) ? 'archive' : undefined;
  const parts = splitMemberOperand(operand);
  return parts !== undefined && readHead(parts.archive, io) !== undefined ? 'member' : undefined;
}

function readHead(path: string, io: CliIo): Uint8Array | undefined {
  try {
    return io.readPrefix ? io.readPrefix(path, ARCHIVE_MAGIC.length) : io.readFile(path);
  } catch {
    return undefined;
  }
}

/** The bytes and label of `lib.a(member.bc)`; throws `FileError` naming what is wrong. */
export async function readMemberOperand(operand: string, io: CliIo, limits: CliLimits = NO_LIMITS_GIVEN): Promise<{ label: string; bytes: Uint8Array }> {
  const { archive, member } = splitMemberOperand(operand)!;
  let bytes: Uint8Array;
  try {
    bytes = io.readFile(archive, {
      maxSize: boundsFor('any', limits).maxSize,
      checkHead: (head) => {
        if (!looksLikeArchive(head)) throw new FileError(archive, `not an archive, so '${operand}' names no member (an archive begins with '!<arch>')`);
      },
    });
  } catch (e) {
    throw e instanceof FileError ? e : new FileError(archive, e);
  }
  const found = await archiveMember(archive, bytes, member, limits);
  return { label: found.label, bytes: found.bytes };
}
