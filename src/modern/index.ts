/**
 * Upgrade: an LLVM 1.x module graph printed as modern textual LLVM IR (LLVM 13 to 22: typed
 * pointers for 13 and 14, opaque ones from 15) that that release's `llvm-as` accepts and `opt -passes=verify` passes. The mapping, construct
 * by construct, with what each lowering loses, is docs/upgrade.md.
 */
import type { Module } from '../graph/module.js';
import { exhaustionWords, isEngineExhaustion } from '../errors/exhaustion.js';
import type { ExceptionModel } from './exceptions.js';
import { ModuleContext } from './module.js';
import { DEFAULT_TRIPLE, type TripleChoice } from './triple.js';
import { checkLlvmVersion, DEFAULT_LLVM, LAST_TYPED_POINTERS } from './llvm-versions.js';
import { UnfoldableConstantError, UpgradeError } from './upgrade-error.js';
import { ModernIrReader } from './bitcode/parse-ir.js';
import { writeIrModule } from './bitcode/write-module.js';
import { printUpgradable } from './validity.js';

export { DEFAULT_TRIPLE, type TripleChoice } from './triple.js';

export { UnfoldableConstantError, UpgradeError };
export { DEFAULT_LLVM, NEWEST_LLVM, OLDEST_LLVM, acceptsConstantExpr, removedConstantExprs, type LlvmVersion } from './llvm-versions.js';
export { EXCEPTION_MODELS, type ExceptionModel } from './exceptions.js';

/** @category Upgrade */
export interface ModernOptions {
  /**
   * How `invoke`/`unwind` are upgraded (docs/upgrade.md, "Exceptions"). `'native'` (default):
   * modern invokes with landing pads, `unwind` raised through the platform unwinder (needs the
   * C++ runtime's personality at link time). `'abort'`: invokes become calls, `unwind` aborts.
   */
  exceptions?: ExceptionModel;
  /**
   * The `target triple` of the result: `'none'` (default, `DEFAULT_TRIPLE`, as the CLI's
   * `upgrade`) leaves it out so that LLVM's tools use the host they run on, keeping the module's
   * own as a comment; `'keep'` the module's own; or a triple string to write instead. A 1.x
   * module's triple names the machine it was compiled for (often `i686-…`), and `lli` on another
   * host crashes running it: see docs/upgrade.md, "The target triple".
   */
  readonly triple?: TripleChoice;
  /**
   * The LLVM major version whose `llvm-as` must take the result, from 13 to 22 (13 and 14 with
   * typed pointers: docs/upgrade.md, "Typed pointers") (default
   * `DEFAULT_LLVM`, the newest). Constant expressions that release no longer accepts are folded
   * or computed by instructions; one that can be neither (in a global's initializer, over
   * addresses) throws `UnfoldableConstantError`. See docs/upgrade.md, "LLVM versions".
   */
  readonly llvm?: number;
}

/**
 * The module as textual IR for LLVM `options.llvm` (default the newest supported). Throws `UpgradeError` for the few constructs with no modern
 * form (see docs/upgrade.md, "Not upgradable"), among them a type that contains itself other
 * than through a pointer, and for a damaged module nested deeper than the call stack allows.
 * Linear in the size of the module.
 *
 * @category Upgrade
 */
export function printModern(module: Module, options: ModernOptions = {}): string {
  return lower(module, options, undefined);
}

/** The upgrade's text; with `direct`, the bodies the direct lowering takes go to it as records and stand as `{ ~ }` (direct-lowering.ts). */
function lower(module: Module, options: ModernOptions, direct: ModernIrReader | undefined): string {
  try {
    const llvm = checkLlvmVersion(options.llvm ?? DEFAULT_LLVM);
    // The printer's own refusals (a type that contains itself, …) name the construct first.
    return printUpgradable(module, () => new ModuleContext(module, options.exceptions ?? 'native', options.triple ?? DEFAULT_TRIPLE, llvm, direct).print());
  } catch (e) {
    if (isEngineExhaustion(e)) throw new UpgradeError(`the module cannot be upgraded: ${exhaustionWords(e)}`);
    throw e;
  }
}

/**
 * The module as LLVM bitcode for LLVM `options.llvm` (default the newest supported): the module
 * `printModern` writes for the same options, in the binary form: for `llvm` 15 to 22 with opaque
 * pointers, which LLVM reads from 15 on; for 13 and 14 with typed pointers, and what is written
 * for 13 every LLVM from 13 to 22 reads (docs/upgrade.md, "Bitcode"). Throws what `printModern` throws, and `UpgradeError` for a
 * construct the writer has no record for.
 *
 * @category Upgrade
 */
export function writeModern(module: Module, options: ModernOptions = {}): Uint8Array {
  // The text printModern writes, read back, except for the bodies of common instructions, which
  // are lowered straight to records (the bitcode of a large module was mostly printing and reading
  // back those: docs/performance.md); the records are what the text reads as (tests compare).
  const reader = new ModernIrReader(checkLlvmVersion(options.llvm ?? DEFAULT_LLVM) <= LAST_TYPED_POINTERS);
  const text = lower(module, options, reader);
  try {
    return writeIrModule(reader.parse(text));
  } catch (e) {
    if (isEngineExhaustion(e)) throw new UpgradeError(`the module cannot be written as bitcode: ${exhaustionWords(e)}`);
    throw e;
  }
}
