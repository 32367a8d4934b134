/**
 * `llvm-bytecode/archive`: the parts of an `ar` archive below `readArchive`/`writeArchive` (which
 * the package root exports): LLVM's symbol table, encoded and decoded; the symbols a module
 * contributes to it; what a member's bytes are; and LLVM's member compression.
 *
 * @packageDocumentation
 */
export { decodeSymbolTable, encodeSymbolTable, moduleArchiveSymbols } from '../archive/symbol-table.js';
export { classifyContents } from '../archive/types.js';
export { llvmCompress } from '../archive/write-archive.js';
