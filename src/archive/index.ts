/** The archive layer: `ar` archives of bytecode as LLVM 1.x wrote them. See docs/archive.md. */
export { readArchive, isArchive, type ReadArchiveOptions } from './read-archive.js';
export { writeArchive, writeArchiveAsync, llvmCompress, type NewArchiveMember, type WriteArchiveOptions } from './write-archive.js';
export { memberContents, readArchiveModules, type ArchiveModule } from './contents.js';
export { moduleArchiveSymbols, decodeSymbolTable, encodeSymbolTable } from './symbol-table.js';
export { ArchiveError } from './archive-error.js';
export {
  isFileMember,
  isBytecodeMember,
  classifyContents,
  type Archive,
  type ArchiveMember,
  type ArchiveSymbol,
  type MemberKind,
  type NameScheme,
} from './types.js';
