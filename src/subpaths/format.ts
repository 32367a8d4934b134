/**
 * `llvm-bytecode/format`: the format table, one row per bytecode version (0–7) saying everything
 * that differs between versions (docs/format.md). For tools that work on the format itself; a
 * program that reads, prints or writes modules needs only the package root.
 *
 * @packageDocumentation
 */
export type { VersionWord } from '../format/version-word.js';
export {
  FORMAT_TABLE,
  formatFor,
  type BlockIdTable,
  type BlockKind,
  type FormatRow,
  type GepIndexEncoding,
  type OpcodeName,
  type PseudoOpcode,
  type TypeDefinitionCodes,
  type TypeIdKind,
  type TypeIdTable,
} from '../format/format-table.js';
