/**
 * llvm-bytecode: read, print and write LLVM 1.x bytecode.
 *
 * Platform-neutral: everything here takes and returns `Uint8Array`s and strings; nothing touches
 * the file system (the CLI in `cli/` is the only part that does).
 */
export { BytecodeError } from './errors/bytecode-error.js';
export * from './graph/index.js';
export { FORMAT_TABLE, formatFor, type FormatRow } from './format/format-table.js';
export { SUPPORTED_VERSIONS, writeModule, writeModuleAsync, type WriteOptions } from './encode/write.js';
export { EncodeError } from './encode/encode-error.js';
export { readModule, type ReadOptions } from './read.js';
export { DEFAULT_LIMITS, type Limits } from './limits.js';
export { unwrapContainer, wrapContainer, wrapContainerAsync, loadBzip2 } from './container/index.js';
export { MAX_TYPE_TEXT, printFunction, printInstruction, printModule, printModuleChunks, PrintError, slotNumberOf, type PartPrintOptions, type PrintChunkOptions, type PrintOptions } from './print/index.js';
export { printModern, UpgradeError, UnfoldableConstantError, DEFAULT_LLVM, OLDEST_LLVM, NEWEST_LLVM, type ExceptionModel, type ModernOptions, type TripleChoice } from './modern/index.js';
export { analyzeBytes, analysisToJson, dumpAnalysis, formatAnalysis, type Analysis } from './analyze/index.js';
export type { AnalysisError, BlockBytes, BlockNode, FunctionAnalysis } from './analyze/analysis.js';
export type { AnalyzeOptions } from './analyze/walker.js';
export type { Signature, Unwrapped, UnwrapOptions } from './container/container.js';
export type { BlockIdTable, BlockKind, GepIndexEncoding, OpcodeName, PseudoOpcode } from './format/format-table.js';
export type { Syntax } from './print/dialect.js';
export type { VerifyOptions } from './encode/verify.js';
export { InvalidModuleError, verifyModule } from './encode/verify.js';
export * from './build/index.js';
export {
  AssemblyError,
  DEFAULT_ASSEMBLY_LIMITS,
  detectDialect,
  DIALECT_NAMES,
  DIALECT_VERSION,
  parseAssembly,
  type AssemblyLimits,
  type AssemblyOptions,
  type Dialect as AssemblyDialect,
} from './asm/index.js';
export * from './archive/index.js';
export * from './nm/index.js';
export * from './link/index.js';
