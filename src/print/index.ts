/**
 * The printer: a module graph in, the text LLVM's `llvm-dis` printed for it out. By default in
 * LLVM 1.9's dialect (what `llvm-dis` 1.9 printed, including its reader's upgrades of old files);
 * with `syntax: 'native'` in the dialect of the release that wrote the file (LLVM 1.1, 1.2, 1.3,
 * 1.8 or 1.9, chosen by the format table's `nativeDialect`; see dialect.ts).
 */
import type { Module } from '../graph/module.js';
import { dialectFor, type Syntax } from './dialect.js';
import { AsmPrinter } from './printer.js';
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
 * graph no file could describe (a constant that contains itself). Characters are bytes (latin1),
 * as names are in the graph.
 */
export function printModule(module: Module, options: PrintOptions = {}): string {
  if (options.syntax === 'modern') return printModern(module);
  return asmPrinter(module, options.syntax ?? '1.9').print();
}

export interface PrintChunkOptions extends PrintOptions {
  /** Bytes a chunk gathers (whole functions) before it is handed over; default 64 KiB. */
  chunkBytes?: number;
}

/**
 * The listing of `printModule` as latin1 bytes, in chunks: the module's header (target lines,
 * types, globals), then the functions, a chunk ending with a whole function once it holds at least
 * `chunkBytes`. Joined, the chunks are exactly `printModule`'s text, one byte per character; the
 * whole text never exists at once, so a large module can be written to a file or a stream with
 * memory for one chunk. Each chunk is a new array the caller may keep. For a graph printModule
 * throws on, the error can come between chunks.
 */
export function printModuleChunks(module: Module, options: PrintChunkOptions = {}): Iterable<Uint8Array> {
  if (options.syntax === 'modern') {
    const text = printModern(module);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return [bytes];
  }
  return asmPrinter(module, options.syntax ?? '1.9').chunks(options.chunkBytes);
}

function asmPrinter(module: Module, syntax: Syntax): AsmPrinter {
  const dialect = dialectFor(module, syntax);
  const view = dialect.upgradesIntrinsics ? upgradeView19(module) : plainView(module);
  return new AsmPrinter(view, dialect);
}

export { DIALECTS, dialectFor, type Dialect, type Syntax } from './dialect.js';
export { escapeString, formatFloat, llvmName } from './text.js';
