/**
 * The printer: a module graph in, the text LLVM's `llvm-dis` printed for it out. By default in
 * LLVM 1.9's dialect (what `llvm-dis` 1.9 printed, including its reader's upgrades of old files);
 * with `syntax: 'native'` in the dialect of the release that wrote the file (LLVM 1.1, 1.2, 1.3,
 * 1.8 or 1.9, chosen by the format table's `nativeDialect`; see dialect.ts).
 */
import type { Module } from '../graph/module.js';
import { dialectFor, type Syntax } from './dialect.js';
import { AsmPrinter } from './printer.js';
import { printModern, type ExceptionModel } from '../modern/index.js';
import { upgradeView19 } from './upgrade19.js';
import { plainView } from './view.js';

export interface PrintOptions {
  /**
   * `'1.9'` (default): LLVM 1.9's `llvm-dis`. `'native'`: the writing release's `llvm-dis`.
   * `'modern'`: LLVM 16 textual IR (docs/upgrade.md), which today's `llvm-as` accepts.
   */
  syntax?: Syntax | 'modern';
  /** With `syntax: 'modern'`: how `invoke`/`unwind` are upgraded (see `printModern`). */
  exceptions?: ExceptionModel;
}

/**
 * Prints `module` as `llvm-dis` did. The module is not changed. Throws a BytecodeError only for a
 * graph no file could describe (a constant that contains itself).
 */
export function printModule(module: Module, options: PrintOptions = {}): string {
  if (options.syntax === 'modern') return printModern(module, options.exceptions ? { exceptions: options.exceptions } : {});
  const dialect = dialectFor(module, options.syntax ?? '1.9');
  const view = dialect.upgradesIntrinsics ? upgradeView19(module) : plainView(module);
  return new AsmPrinter(view, dialect).print();
}

export { DIALECTS, dialectFor, type Dialect, type Syntax } from './dialect.js';
export { escapeString, formatFloat, llvmName } from './text.js';
