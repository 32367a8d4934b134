/**
 * llvm-bytecode: read, print and write LLVM 1.x bytecode.
 *
 * The package root exports the verbs (every command of the CLI is a function here), the module
 * graph's types, the builder and the error family. What a tool built on the format itself needs
 * (the format table, the container layer, the graph's helpers, the archive's symbol table) is in
 * documented subpath exports: `llvm-bytecode/format`, `llvm-bytecode/container`,
 * `llvm-bytecode/graph` and `llvm-bytecode/archive` (docs/architecture.md, "The public API").
 *
 * Platform-neutral: everything here takes and returns `Uint8Array`s and strings; nothing touches
 * the file system (the CLI in `cli/` is the only part that does).
 *
 * @packageDocumentation
 */

// ---- Verbs: read, write, print, convert (dis, rewrite) ------------------------------------------
export { readModule, type ReadOptions } from './read.js';
export { SUPPORTED_VERSIONS, writeModule, type WriteOptions } from './encode/write.js';
export { verifyModule, type VerifyOptions } from './verify/verify.js';
export {
  MAX_TYPE_TEXT,
  printFunction,
  printInstruction,
  printModule,
  printModuleChunks,
  slotNumberOf,
  type PartPrintOptions,
  type PrintChunkOptions,
  type PrintOptions,
} from './print/index.js';
export type { Syntax } from './print/dialect.js';
export { convertToVersion7 } from './convert/to-version7.js';
export { DEFAULT_LIMITS, type Limits } from './limits.js';

// ---- Verbs: upgrade, analyze, as, ar, nm, link ---------------------------------------------------
export {
  printModern,
  writeModern,
  UnfoldableConstantError,
  DEFAULT_LLVM,
  OLDEST_LLVM,
  NEWEST_LLVM,
  type ExceptionModel,
  type ModernOptions,
  type TripleChoice,
} from './modern/index.js';
export { analyzeBytes, analysisToJson, dumpAnalysis, formatAnalysis, type Analysis } from './analyze/index.js';
export type { AnalysisError, BlockBytes, BlockNode, FunctionAnalysis } from './analyze/analysis.js';
export type { AnalyzeOptions } from './analyze/walker.js';
export {
  DEFAULT_ASSEMBLY_LIMITS,
  detectDialect,
  dialectForVersion,
  DIALECT_NAMES,
  DIALECT_VERSION,
  parseAssembly,
  type AssemblyLimits,
  type AssemblyOptions,
  type Dialect as AssemblyDialect,
} from './asm/index.js';
export { isArchive, readArchive, type ReadArchiveOptions } from './archive/read-archive.js';
export { writeArchive, type NewArchiveMember, type WriteArchiveOptions } from './archive/write-archive.js';
export { memberContents, readArchiveModules, type ArchiveModule } from './archive/contents.js';
export { isBytecodeMember, isFileMember, type Archive, type ArchiveMember, type ArchiveSymbol, type MemberKind, type NameScheme } from './archive/types.js';
export { formatNm, NM_FORMATS, nmSymbols, type NmFormat, type NmListingOptions, type NmSymbol } from './nm/index.js';
export { linkInputs, linkModules, undefinedSymbols, type LinkInput, type LinkOptions } from './link/index.js';

// ---- Stack map sections (versions 0-3 and the forks) in object files: read, print, check, write,
// convert (docs/stackmaps.md). Their names carry a StackMap prefix, so nothing collides. ---------
export * from './stackmap/index.js';

// ---- The module graph: its types, and what makes an empty module or a type ----------------------
export type {
  Argument,
  ArrayType,
  BasicBlock,
  CastOpcode,
  Constant,
  ConstantAggregate,
  ConstantBool,
  ConstantExpr,
  ConstantFP,
  ConstantInt,
  ConstantNull,
  ConstantUndef,
  ConstantZero,
  DerivedType,
  FloatPredicate,
  Function,
  FunctionType,
  GlobalAlias,
  GlobalValue,
  GlobalVariable,
  IRFunction,
  InlineAsm,
  Instruction,
  IntPredicate,
  IntegerType,
  Linkage,
  Module,
  OpaqueType,
  Opcode,
  PackedType,
  ParamAttribute,
  PointerType,
  Predicate,
  PrimitiveType,
  PrimitiveTypeKind,
  SourceInfo,
  StructType,
  SymbolTableLayout,
  Type,
  Use,
  Value,
  Visibility,
} from './graph/index.js';
export { describeType, emptyModule, integerType, primitiveTypes } from './graph/index.js';
export type { Compression, Signature } from './container/container.js';

// ---- The builder ---------------------------------------------------------------------------------
export { ConstantBuilder, IRBuilder, ModuleBuilder, TypeBuilder } from './build/index.js';
export type {
  AllocOptions,
  BinaryOpcode,
  BuildOptions,
  CallingConv,
  CallOptions,
  CompareOpcode,
  FunctionOptions,
  GlobalOptions,
  LoadStoreOptions,
  ModuleOptions,
  ShiftOpcode,
} from './build/index.js';

// ---- The error family ----------------------------------------------------------------------------
export { LlvmBytecodeError, type ErrorPosition } from './errors/library-error.js';
export { BytecodeError } from './errors/bytecode-error.js';
export { WriteRangeError } from './errors/write-range-error.js';
export { UnsupportedVersionError } from './format/version-word.js';
export { ArchiveError } from './archive/archive-error.js';
export { AssemblyError } from './asm/assembly-error.js';
export { EncodeError } from './encode/encode-error.js';
export { InvalidModuleError } from './verify/verify.js';
export { PrintError } from './print/print-error.js';
export { UpgradeError } from './modern/upgrade-error.js';
export { LinkError } from './link/link-error.js';
export { ConversionError } from './convert/to-version7.js';
export { BuildError } from './build/error.js';
