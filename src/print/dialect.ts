/**
 * The printer's dialect table: every difference between the `llvm-dis` releases we reproduce is a
 * field of one row here, so the printing code asks questions ("does this dialect print signless
 * div?") instead of testing release numbers. A row that differs from a neighbouring release in a
 * few fields is written as that row plus the differences.
 */
import { formatFor } from '../format/format-table.js';
import type { Module } from '../graph/module.js';

export interface Dialect {
  /** The release whose `llvm-dis` this row imitates. */
  readonly release: '1.1' | '1.2' | '1.3' | '1.8' | '1.9';
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
   * The release's reader upgraded old files on loading (LLVM 1.8 and 1.9 alike: intrinsic
   * renaming such as `llvm.isunordered` → `llvm.isunordered.f64` leaving an unnamed stub behind,
   * and pre-1.6 varargs). See `upgrade19.ts`.
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
  /** `deplibs = [ "a", "b" ]` (LLVM 1.4+) or one library a line (LLVM ≤ 1.3). */
  readonly deplibsOnOneLine: boolean;
  /** The release's reader dropped a dependent library named again (the format table's `uniqueDependentLibraries`). */
  readonly uniqueDependentLibraries: boolean;
  /** Locals that clash with a global of the same type are renamed `name_N` (LLVM 1.4+). */
  readonly renamesLocalClashes: boolean;
  /** Block labels are quoted like other names when needed (LLVM 1.4+); LLVM 1.3 wrote them raw. */
  readonly quotesLabels: boolean;
  /** `store` always prints both operand types (LLVM 1.4+; LLVM 1.3 printed them only if they differed). */
  readonly storePrintsAllTypes: boolean;
  /**
   * Which byte arrays print as `c"..."`: any of ubyte/sbyte (LLVM 1.4+), or (LLVM ≤ 1.3) only
   * those of ubyte or of non-negative sbytes.
   */
  readonly stringArrays: 'anyBytes' | 'nonNegativeBytes';
  /** Struct constants of more than two elements print one element a line (LLVM 1.5+). */
  readonly multiLineStructs: boolean;
  /**
   * Every floating-point constant prints as hex bits (LLVM ≤ 1.3: its `ftostr` kept printf's
   * `%20.6e` padding, so the "does it start with a digit" test always failed).
   */
  readonly floatsAlwaysHex: boolean;
  /**
   * Order of a block's `; preds =` list, which follows the block's use list: LLVM 1.4+ added uses
   * at the front (newest first), LLVM ≤ 1.3 at the back (oldest first).
   */
  readonly predecessorOrder: 'newestFirst' | 'oldestFirst';
  /**
   * LLVM ≤ 1.2 wrapped a global used inside a constant (or as an initializer) in a
   * ConstantPointerRef: one uniqued user of the global, however many constants mention it.
   */
  readonly constantPointerRefs: boolean;
  /** LLVM 1.2 printed a ConstantPointerRef with an extra space (`int*  %G`); LLVM 1.1 did not. */
  readonly pointerRefExtraSpace: boolean;
  /**
   * How all-zero aggregates print: LLVM 1.2+ made them `zeroinitializer` when building them
   * (`canonical`); LLVM 1.1 kept them and printed `zeroinitializer` only for those of more than
   * five elements (`aboveFive`).
   */
  readonly zeroAggregates: 'canonical' | 'aboveFive';
  /** Keyword before an invoke's unwind destination (`except` in LLVM 1.1). */
  readonly invokeUnwindKeyword: string;
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
  deplibsOnOneLine: true,
  uniqueDependentLibraries: formatFor(6)!.uniqueDependentLibraries,
  renamesLocalClashes: true,
  quotesLabels: true,
  storePrintsAllTypes: true,
  stringArrays: 'anyBytes',
  multiLineStructs: true,
  floatsAlwaysHex: false,
  predecessorOrder: 'newestFirst',
  constantPointerRefs: false,
  pointerRefExtraSpace: false,
  zeroAggregates: 'canonical',
  invokeUnwindKeyword: 'unwind',
});

/** LLVM 1.8 (bytecode version 5): LLVM 1.9's dialect before the 1.9 additions. */
const LLVM_1_8: Dialect = Object.freeze({
  ...LLVM_1_9,
  release: '1.8',
  printsDataLayout: false,
  signlessDivRem: true,
  dllLinkages: false,
  x86CallingConvNames: false,
});

/**
 * LLVM 1.3 (bytecode version 3): no ModuleID line, signless div/rem, `vaarg`/`vanext`, raw block
 * labels, no renaming of clashing locals, and none of the 1.4+ constant conveniences.
 */
const LLVM_1_3: Dialect = Object.freeze({
  release: '1.3',
  moduleIdLine: null,
  printsDataLayout: false,
  signlessDivRem: true,
  dllLinkages: false,
  x86CallingConvNames: false,
  vaArgName: 'vaarg',
  upgradesIntrinsics: false,
  foldsCastToFirstElement: false,
  widensStructIndices: false,
  deplibsOnOneLine: false,
  uniqueDependentLibraries: formatFor(3)!.uniqueDependentLibraries,
  renamesLocalClashes: false,
  quotesLabels: false,
  storePrintsAllTypes: false,
  stringArrays: 'nonNegativeBytes',
  multiLineStructs: false,
  floatsAlwaysHex: true,
  predecessorOrder: 'oldestFirst',
  constantPointerRefs: false,
  pointerRefExtraSpace: false,
  zeroAggregates: 'canonical',
  invokeUnwindKeyword: 'unwind',
});

/** LLVM 1.2 (bytecode version 1): LLVM 1.3's dialect with ConstantPointerRefs. */
const LLVM_1_2: Dialect = Object.freeze({ ...LLVM_1_3, release: '1.2', constantPointerRefs: true, pointerRefExtraSpace: true });

/** LLVM 1.1 (bytecode version 0): as LLVM 1.2, but `except` and no extra space. */
const LLVM_1_1: Dialect = Object.freeze({
  ...LLVM_1_2,
  release: '1.1',
  pointerRefExtraSpace: false,
  zeroAggregates: 'aboveFive',
  invokeUnwindKeyword: 'except',
});

/** Dialects by release name. */
export const DIALECTS: ReadonlyMap<string, Dialect> = new Map([
  ['1.1', LLVM_1_1],
  ['1.2', LLVM_1_2],
  ['1.3', LLVM_1_3],
  ['1.8', LLVM_1_8],
  ['1.9', LLVM_1_9],
]);

/**
 * `'native'`: the writing release's dialect; a release name: that release's dialect.
 *
 * @category Print
 */
export type Syntax = '1.9' | 'native' | '1.1' | '1.2' | '1.3' | '1.8';

/**
 * The dialect to print `module` in: LLVM 1.9's for `'1.9'`; for `'native'` the dialect of the
 * release that wrote the file (the format table's `nativeDialect`), falling back to 1.9 for
 * modules built in code and for releases without a row yet.
 */
export function dialectFor(module: Module, syntax: Syntax): Dialect {
  if (syntax !== 'native') return DIALECTS.get(syntax) ?? LLVM_1_9;
  {
    const version = module.source?.bytecodeVersion;
    const row = version === undefined ? undefined : formatFor(version);
    const d = row === undefined ? undefined : DIALECTS.get(row.nativeDialect);
    if (d !== undefined) return d;
  }
  return LLVM_1_9;
}
