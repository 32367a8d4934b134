/**
 * The result of `analyzeBytes`: plain data (JSON-safe: numbers, strings, arrays, objects only).
 * The schema is documented field by field in docs/analyze.md and is stable: fields may be added,
 * never renamed or removed.
 */
import type { BlockKind } from '../format/format-table.js';
import type { Compression, Signature } from '../container/index.js';

/**
 * Counters LLVM 1.9's analyzer kept per function (its `BytecodeFunctionInfo`).
 *
 * @category Analyze
 */
export interface FunctionAnalysis {
  /** The function's name as LLVM 1.9 knew it when it read the body ("" when unnamed or upgraded). */
  name: string;
  /** The function's pointer type, printed as LLVM 1.9 printed it (no leading space). */
  type: string;
  /** Offset of the function block's body in the stream. */
  offset: number;
  /** Bytes of the function block's body (LLVM's "Byte Size"). */
  byteSize: number;
  basicBlocks: number;
  instructions: number;
  longInstructions: number;
  /** Operands of this function's instructions (LLVM 1.9 printed 0 here: it never counted them). */
  operands: number;
  instructionSize: number;
  phis: number;
  /** VBR counters as LLVM 1.9 attributed them (see docs/analyze.md: they leak into the next function). */
  vbrCount32: number;
  vbrCount64: number;
  vbrCompressedBytes: number;
  vbrExpandedBytes: number;
}

/**
 * One block of the block tree.
 *
 * @category Analyze
 */
export interface BlockNode {
  /** Block kind, or `unknown` for an id the version does not define. */
  kind: BlockKind | 'unknown';
  /** The raw id read from the header. */
  id: number;
  /** Offset of the block header in the stream. */
  offset: number;
  headerSize: number;
  bodySize: number;
  children: BlockNode[];
}

/**
 * Where and why the walk stopped early.
 *
 * @category Analyze
 */
export interface AnalysisError {
  reason: string;
  offset: number;
  blockPath: string[];
  /** `module` when it happened while reading the module (LLVM printed no densities then), `function` when reading a body. */
  phase: 'container' | 'module' | 'function';
}

/**
 * Byte totals per block kind, as LLVM summed them (each block's body size).
 *
 * @category Analyze
 */
export interface BlockBytes {
  module: number;
  function: number;
  globalTypes: number;
  constantPool: number;
  moduleGlobals: number;
  instructionList: number;
  compactionTable: number;
  /** Value symbol tables (before version 7 the one kind of symbol table, types included). */
  symbolTable: number;
  /** Version 7's type symbol tables (block id 9); 0 before version 7. */
  typeSymbolTable: number;
  basicBlock: number;
}

/** @category Analyze */
export interface Analysis {
  /** Schema version of this object (docs/analyze.md). */
  schema: 1;
  /**
   * Whose `llvm-bcanalyzer` these figures are: LLVM 1.9's for versions 0–6, r36867's (LLVM 2.0
   * development, the last revision with bytecode) for version 7. The two counted and printed
   * differently (docs/analyze.md).
   */
  reference: 'llvm-1.9' | 'r36867';
  moduleId: string;
  signature: Signature | null;
  compression: Compression | null;
  /** Bytecode version (`null` if the walk stopped before the version word). */
  version: number | null;
  /** Version-word flags (bit 0 big-endian, 1 64-bit pointers, 2 no endianness, 3 no pointer size). */
  versionFlags: number | null;
  /** Size of the file as given (compressed size for `llvc` files). */
  fileSize: number;
  /** Size of the stream after decompression, `llvm` signature included. */
  streamSize: number;
  bytes: BlockBytes;
  alignmentBytes: number;
  blockHeaderBytes: number;
  dependentLibrariesBytes: number;
  counts: {
    blocks: number;
    functions: number;
    types: number;
    constants: number;
    globalVariables: number;
    values: number;
    basicBlocks: number;
    instructions: number;
    longInstructions: number;
    operands: number;
    compactionTables: number;
    symbolTables: number;
    dependentLibs: number;
  };
  instructionSize: number;
  maxTypeSlot: number;
  maxValueSlot: number;
  /** LLVM's densities, computed (as LLVM did) once the module was read, before any function body. `null` = not reached. */
  density: { bytesPerValue: number; bytesPerGlobal: number; bytesPerFunction: number } | null;
  vbr: { count32: number; count64: number; compressedBytes: number; expandedBytes: number };
  functions: FunctionAnalysis[];
  blocks: BlockNode[];
  /** Instruction encodings seen: key `format0`..`format3` (0 = long VBR form). */
  instructionFormats: Record<string, number>;
  /** Instructions by opcode name (LLVM 1.9 names after upgrade, e.g. `sdiv`). */
  opcodes: Record<string, number>;
  error: AnalysisError | null;
}

/** A line of the `--dump` listing. */
export interface DumpRecord {
  offset: number;
  depth: number;
  text: string;
}

/** @category Analyze */
export interface AnalyzeOptions {
  /** The name LLVM printed as the module id (the file name as given on the command line). */
  moduleId?: string;
  /** Collect the `--dump` listing. */
  dump?: boolean;
  /** Bytes a compressed file may expand to (`Limits.maxDecompressedSize`, docs/limits.md). */
  maxDecompressedSize?: number;
}
