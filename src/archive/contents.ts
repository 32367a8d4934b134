/**
 * A member's contents as a file: compressed members (negative size, LLVM's Compressor format)
 * expanded, everything else as stored. And the modules of an archive, for commands that read
 * every bytecode member (`nm`, and later `dis`/`analyze` on archives).
 */
import { decompressBzip2 } from '../container/bzip2.js';
import type { Module } from '../graph/module.js';
import { resolveLimits, type Limits } from '../limits.js';
import { readModule } from '../read.js';
import { ArchiveError, printable } from './archive-error.js';
import { isBytecodeMember, type Archive, type ArchiveMember } from './types.js';

/**
 * A member's bytes as the file it was: a compressed member (LLVM's `z`: a type byte, `0` stored,
 * `2` bzip2) expanded within `maxDecompressedSize`, any other member as stored. Throws
 * `ArchiveError` for a compressed member that cannot be expanded.
 *
 * @category Archives and nm
 */
export function memberContents(member: ArchiveMember, options: { limits?: Partial<Limits> } = {}): Uint8Array {
  if (!member.compressed) return member.data;
  const limits = resolveLimits(options.limits);
  // The name comes from the file: escaped, as every other archive message has it.
  const where = [`member '${printable(member.name)}'`];
  if (member.data.length === 0) throw new ArchiveError('compressed member is empty (no compression type byte)', member.dataOffset, where);
  const type = member.data[0];
  if (type === 0x30) return member.data.subarray(1);
  if (type === 0x32) return decompressBzip2(member.data.subarray(1), limits.maxDecompressedSize, 0, member.dataOffset + 1).output;
  throw new ArchiveError(`compressed member has unknown compression type byte 0x${type!.toString(16)}`, member.dataOffset, where);
}

/**
 * One bytecode member and its module, in archive order.
 *
 * @category Archives and nm
 */
export interface ArchiveModule {
  member: ArchiveMember;
  module: Module;
}

/**
 * Reads every bytecode member (`llvm` and `llvc`), as LLVM's `Archive::getAllModules` did; the
 * first one that fails stops it with its `BytecodeError`. Other members are skipped.
 *
 * @category Archives and nm
 */
export function readArchiveModules(archive: Archive, options: { limits?: Partial<Limits> } = {}): ArchiveModule[] {
  const out: ArchiveModule[] = [];
  for (const member of archive.members) {
    if (isBytecodeMember(member)) out.push({ member, module: readModule(member.data, options) });
  }
  return out;
}
