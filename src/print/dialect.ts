/**
 * The printer's dialect table: every difference between the `llvm-dis` releases we reproduce is a
 * field of one row here, so the printing code asks questions ("does this dialect print signless
 * div?") instead of testing release numbers. Rows for LLVM 1.1–1.3 (bytecode versions 0–3) will
 * be added here.
 */
import { formatFor } from '../format/format-table.js';
import type { Module } from '../graph/module.js';

export interface Dialect {
  /** The release whose `llvm-dis` this row imitates. */
  readonly release: '1.8' | '1.9';
  /** First line of the output (`; ModuleID = '<stdin>'`), or null when the release printed none. */
  readonly moduleIdLine: string | null;
  /** LLVM 1.9 keeps endianness and pointer size as a data-layout string and prints it too. */
  readonly printsDataLayout: boolean;
  /** `div`/`rem` (LLVM ≤ 1.8) instead of `udiv`/`sdiv`/`fdiv`, `urem`/`srem`/`frem`. */
  readonly signlessDivRem: boolean;
  /** `dllimport`, `dllexport`, `extern_weak` linkages exist (LLVM 1.9). */
  readonly dllLinkages: boolean;
  /** `x86_stdcallcc` / `x86_fastcallcc` keywords (LLVM 1.9); otherwise `cc64` / `cc65`. */
  readonly x86CallingConvNames: boolean;
  /** Spelling of the variable-argument instruction (`va_arg` since LLVM 1.6). */
  readonly vaArgName: string;
  /**
   * The release's reader renamed old intrinsics on loading (LLVM 1.9's auto-upgrade: unsuffixed
   * `llvm.ctpop` → `llvm.ctpop.i32`, leaving an unnamed stub behind). See `upgrade19.ts`.
   */
  readonly upgradesIntrinsics: boolean;
  /**
   * The release built a cast from a pointer to an aggregate into a pointer to its first element
   * as `getelementptr (p, int 0, ...)` (LLVM 1.9's constant folder; older files may hold the cast).
   */
  readonly foldsCastToFirstElement: boolean;
  /**
   * The release's reader turned the `ubyte` struct indices of getelementptr in version 0–1 files
   * into `uint` ones (LLVM 1.9 reading LLVM 1.1/1.2 files).
   */
  readonly widensStructIndices: boolean;
}

const LLVM_1_9: Dialect = Object.freeze({
  release: '1.9',
  moduleIdLine: "; ModuleID = '<stdin>'",
  printsDataLayout: true,
  signlessDivRem: false,
  dllLinkages: true,
  x86CallingConvNames: true,
  vaArgName: 'va_arg',
  upgradesIntrinsics: true,
  foldsCastToFirstElement: true,
  widensStructIndices: true,
});

const LLVM_1_8: Dialect = Object.freeze({
  release: '1.8',
  moduleIdLine: "; ModuleID = '<stdin>'",
  printsDataLayout: false,
  signlessDivRem: true,
  dllLinkages: false,
  x86CallingConvNames: false,
  vaArgName: 'va_arg',
  upgradesIntrinsics: false,
  foldsCastToFirstElement: true,
  widensStructIndices: true,
});

/** Dialects by release name. */
export const DIALECTS: ReadonlyMap<string, Dialect> = new Map([
  ['1.8', LLVM_1_8],
  ['1.9', LLVM_1_9],
]);

export type Syntax = '1.9' | 'native';

/**
 * The dialect to print `module` in: LLVM 1.9's for `'1.9'`; for `'native'` the dialect of the
 * release that wrote the file (the format table's `nativeDialect`), falling back to 1.9 for
 * modules built in code and for releases without a row yet.
 */
export function dialectFor(module: Module, syntax: Syntax): Dialect {
  if (syntax === 'native') {
    const version = module.source?.bytecodeVersion;
    const row = version === undefined ? undefined : formatFor(version);
    const d = row === undefined ? undefined : DIALECTS.get(row.nativeDialect);
    if (d !== undefined) return d;
  }
  return LLVM_1_9;
}
