/**
 * The printer: a module graph in, the text LLVM's `llvm-dis` printed for it out. By default in
 * LLVM 1.9's dialect (what `llvm-dis` 1.9 printed, including its reader's upgrades of old files);
 * with `syntax: 'native'` in the dialect of the release that wrote the file (LLVM 1.1, 1.2, 1.3,
 * 1.8 or 1.9, chosen by the format table's `nativeDialect`; see dialect.ts).
 */
import type { Module } from '../graph/module.js';
import type { Function, Instruction, Value } from '../graph/value.js';
import { dialectFor, type Syntax } from './dialect.js';
import { AsmPrinter } from './printer.js';
import { printModern, type ExceptionModel, type ModernOptions } from '../modern/index.js';
import { plainView } from '../held/view.js';
import { isVersion7Module, V7Printer } from './v7/printer-v7.js';
import { latin1Bytes, printListing, printListingChunks } from './listing.js';

/** @category Print */
export interface PrintOptions {
  /**
   * `'1.9'` (default): LLVM 1.9's `llvm-dis`. `'native'`: the writing release's `llvm-dis`.
   * `'modern'`: modern textual IR (docs/upgrade.md), which today's `llvm-as` accepts.
   */
  syntax?: Syntax | 'modern';
  /** With `syntax: 'modern'`: how `invoke`/`unwind` are upgraded (see `printModern`). */
  exceptions?: ExceptionModel;
  /** With `syntax: 'modern'`: the LLVM release written for, 15 to 22 (see `printModern`; default 22). */
  llvm?: number;
}

/** The `printModern` options a print's options carry. */
function modernOptions(options: PrintOptions): ModernOptions {
  return { ...(options.exceptions ? { exceptions: options.exceptions } : {}), ...(options.llvm !== undefined ? { llvm: options.llvm } : {}) };
}

/**
 * Prints `module` as `llvm-dis` did. The module is not changed. Throws a BytecodeError only for a
 * graph no file could describe (a constant that contains itself). Characters are bytes (latin1),
 * as names are in the graph.
 *
 * @category Print
 */
export function printModule(module: Module, options: PrintOptions = {}): string {
  if (options.syntax === 'modern') return printModern(module, modernOptions(options));
  return printListing(module, options.syntax ?? '1.9');
}

/** @category Print */
export interface PrintChunkOptions extends PrintOptions {
  /** Bytes a chunk gathers (whole functions) before it is handed over; default 64 KiB. */
  chunkBytes?: number;
  /**
   * Hand over views of one reused buffer instead of new arrays: each chunk is valid only until
   * the next is asked for. For a consumer that writes each chunk out at once (the CLI): the
   * listing then leaves no garbage of its own size behind. Default false.
   */
  reuseBuffer?: boolean;
}

/**
 * The listing of `printModule` as latin1 bytes, in chunks: the module's header (target lines,
 * types, globals), then the functions, a chunk ending with a whole function once it holds at least
 * `chunkBytes`; a function whose text passes 256 KiB (or `chunkBytes`, if larger) is also split
 * at the end of a line. Joined, the chunks are exactly `printModule`'s text, one byte per character; the
 * whole text never exists at once, so a large module can be written to a file or a stream with
 * memory for one chunk. Each chunk is a new array the caller may keep (unless `reuseBuffer`). For a graph printModule
 * throws on, the error can come between chunks.
 *
 * @category Print
 */
export function printModuleChunks(module: Module, options: PrintChunkOptions = {}): Iterable<Uint8Array> {
  if (options.syntax === 'modern') return [latin1Bytes(printModern(module, modernOptions(options)))];
  return printListingChunks(module, options.syntax ?? '1.9', options.chunkBytes, options.reuseBuffer);
}

/**
 * Options of {@link printFunction}, {@link printInstruction} and {@link slotNumberOf}.
 *
 * @category Print
 */
export interface PartPrintOptions {
  /** `'1.9'` (default) or `'native'`, as for {@link printModule}. */
  syntax?: Syntax;
}

function printerFor(module: Module, syntax: Syntax): AsmPrinter {
  const dialect = dialectFor(module, syntax);
  // LLVM 1.9's upgrade of old intrinsics makes a view with other function objects; parts are
  // printed from the module's own graph, so that the objects the caller holds are found.
  return new AsmPrinter(plainView(module), dialect);
}

/**
 * One function of `module` as `printModule` prints it in the whole listing (the same names and
 * `%N` numbers), from its header line to its closing `}`. Throws a TypeError when `fn` is not one
 * of `module.functions`.
 *
 * @category Print
 */
export function printFunction(module: Module, fn: Function, options: PartPrintOptions = {}): string {
  if (isVersion7Module(module)) {
    if (!module.functions.includes(fn)) throw new TypeError('the function is not in the given module');
    return new V7Printer(module).functionText(fn);
  }
  return printerFor(module, options.syntax ?? '1.9').functionText(fn);
}

/**
 * One instruction of `fn` as its line in the listing says it, without the indentation and the
 * trailing `; <type> [#uses=N]` comment: `%tmp = add int %a, 1`. Throws a TypeError when `fn` is
 * not one of `module.functions` or `instruction` is not in `fn`.
 *
 * @category Print
 */
export function printInstruction(module: Module, fn: Function, instruction: Instruction, options: PartPrintOptions = {}): string {
  if (isVersion7Module(module)) {
    if (!module.functions.includes(fn)) throw new TypeError('the function is not in the given module');
    const text = new V7Printer(module).instructionText(fn, instruction);
    if (text === undefined) throw new TypeError('the instruction is not in the given function');
    return text;
  }
  const text = printerFor(module, options.syntax ?? '1.9').instructionText(fn, instruction);
  if (text === undefined) throw new TypeError('the instruction is not in the given function');
  return text;
}

/**
 * The number an unnamed value prints as (`%3` → 3), as `printModule` numbers it: a global or
 * function of `module` (pass no `fn`), or an argument, block or instruction of `fn`. Undefined for
 * a named value, a void instruction, or a value not found where it was looked for.
 *
 * @category Print
 */
export function slotNumberOf(module: Module, value: Value, fn?: Function, options: PartPrintOptions = {}): number | undefined {
  if (isVersion7Module(module)) return new V7Printer(module).slotNumber(value, fn);
  return printerFor(module, options.syntax ?? '1.9').slotNumber(value, fn);
}

export { PrintError } from './print-error.js';
export { MAX_TYPE_TEXT } from './type-names.js';
export { DIALECTS, dialectFor, type Dialect, type Syntax } from './dialect.js';
export { escapeString, formatFloat, llvmName } from './text.js';
