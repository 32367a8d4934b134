/**
 * The printer: a module graph in, the text LLVM's `llvm-dis` printed for it out. By default in
 * LLVM 1.9's dialect (what `llvm-dis` 1.9 printed, including its reader's upgrades of old files);
 * with `syntax: 'native'` in the dialect of the release that wrote the file (LLVM 1.1, 1.2, 1.3,
 * 1.8 or 1.9, chosen by the format table's `nativeDialect`; see dialect.ts).
 */
import type { Module } from '../graph/module.js';
import { dialectFor, type Syntax } from './dialect.js';
import { exhaustionWords, isEngineExhaustion } from '../errors/exhaustion.js';
import { AsmPrinter } from './printer.js';
import { PrintError } from './print-error.js';
import { printModern } from '../modern/index.js';
import { upgradeView19 } from './upgrade19.js';
import { plainView } from './view.js';

export interface PrintOptions {
  /**
   * `'1.9'` (default): LLVM 1.9's `llvm-dis`. `'native'`: the writing release's `llvm-dis`.
   * `'modern'`: LLVM 16 textual IR (docs/upgrade.md), which today's `llvm-as` accepts.
   */
  syntax?: Syntax | 'modern';
}

/**
 * Prints `module` as `llvm-dis` did. The module is not changed. Throws a BytecodeError only for a
 * graph no file could describe (a constant that contains itself), and a `PrintError` for a
 * damaged module too large or too deeply nested to print (a type whose text would exceed
 * `MAX_TYPE_TEXT` characters, thousands of nested constant expressions). With `syntax: 'modern'`
 * it is `printModern`, whose error is `UpgradeError`.
 */
export function printModule(module: Module, options: PrintOptions = {}): string {
  if (options.syntax === 'modern') return printModern(module);
  try {
    const dialect = dialectFor(module, options.syntax ?? '1.9');
    const view = dialect.upgradesIntrinsics ? upgradeView19(module) : plainView(module);
    return new AsmPrinter(view, dialect).print();
  } catch (e) {
    if (isEngineExhaustion(e)) throw new PrintError(`the module cannot be printed: ${exhaustionWords(e)}`);
    throw e;
  }
}

export { PrintError } from './print-error.js';
export { MAX_TYPE_TEXT } from './type-names.js';

export { DIALECTS, dialectFor, type Dialect, type Syntax } from './dialect.js';
export { escapeString, formatFloat, llvmName } from './text.js';
