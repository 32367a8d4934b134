import type { Type } from './type.js';
import type { Function, GlobalAlias, GlobalVariable, SymbolTableLayout } from './value.js';

// How a file was stored: one pair of types, below both the container layer and the graph.
import type { Compression, Signature } from '../format/container-kinds.js';
export type { Compression, Signature };

/**
 * Facts about the file a module was read from. A module built in code has no `source`.
 *
 * @category Graph
 */
export interface SourceInfo {
  /** `llvm` (uncompressed, versions 0–3 and some later), `llvc0`, `llvc1` (zlib), `llvc2` (bzip2). */
  signature: Signature;
  compression: Compression;
  /** The bytecode format version (0–7). */
  bytecodeVersion: number;
  /** Size in bytes of the uncompressed stream, signature included. */
  uncompressedSize: number;
}

/** @category Graph */
export interface Module {
  readonly kind: 'module';
  /** `little`, `big`, or `any` when the file leaves it open (always `any` for version 7: see `dataLayout`). */
  endianness: 'little' | 'big' | 'any';
  /** 32, 64, or `any` when the file leaves it open. */
  pointerSize: 32 | 64 | 'any';
  /** Empty when the file has none. */
  targetTriple: string;
  /** Module-level inline assembly, lines joined by `\n`; empty when none. */
  inlineAsm: string;
  dependentLibraries: string[];
  /** Every derived type of the module's global type pool, in file order. */
  types: Type[];
  /** Named types (the module symbol table's type plane), in file order. */
  typeNames: Map<string, Type>;
  globals: GlobalVariable[];
  functions: Function[];
  /** Version 7: the module's aliases, in file order. Absent (not empty) on v0–v6 modules. */
  aliases?: GlobalAlias[];
  /**
   * Version 7 (from 2007-01-26): the data-layout string (`target datalayout = "…"`), which took
   * over endianness and pointer size from the version word; `''` when the file's was empty.
   * Absent on v0–v6 modules, whose `endianness`/`pointerSize` say it.
   */
  dataLayout?: string;
  /** The module symbol table's order as the file had it (see SymbolTableLayout). */
  layout?: SymbolTableLayout;
  /**
   * Where a version 5+ file's ModuleGlobalInfo block ended, when it ended before the section
   * names and inline asm that LLVM 1.7+ always wrote: `'triple'` (LLVM 1.4 and 1.5 wrote
   * neither), `'sections'` (LLVM 1.6 wrote no inline asm). Absent: the full block. The writer
   * ends the block there too while the module has nothing to put after it.
   */
  globalInfoEnd?: 'triple' | 'sections';
  source?: SourceInfo;
}
