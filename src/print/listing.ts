/**
 * The listing of a whole module in LLVM 1.x's or 2.0's own text: what `dis` prints. Kept apart
 * from `print/index.ts`, whose `printModule` also offers `syntax: 'modern'`, so that `dis` loads
 * the printer without the upgrade (src/modern and the verifier it runs): every start of the CLI
 * pays for what it loads, and a tiny file's `dis` is measured against bare Node (docs/performance.md).
 */
import type { Module } from '../graph/module.js';
import { dialectFor, type Syntax } from './dialect.js';
import { AsmPrinter } from './printer.js';
import { exhaustionWords, isEngineExhaustion } from '../errors/exhaustion.js';
import { PrintError } from './print-error.js';
import { upgradeView19 } from '../held/upgrade19.js';
import { plainView } from '../held/view.js';
import { isVersion7Module, printModuleV7 } from './v7/printer-v7.js';

/** The whole listing as `printModule` gives it for `syntax` (version 7 has only LLVM 2.0's). */
export function printListing(module: Module, syntax: Syntax): string {
  // Version 7 has one syntax, LLVM 2.0's (its default and native): LLVM 1.x could not read it.
  if (isVersion7Module(module)) return printModuleV7(module);
  try {
    return asmPrinter(module, syntax).print();
  } catch (e) {
    throw asPrintError(e);
  }
}

/** The listing in latin1 chunks, as `printModuleChunks` gives it for `syntax`. */
export function printListingChunks(module: Module, syntax: Syntax, chunkBytes?: number, reuseBuffer?: boolean): Iterable<Uint8Array> {
  if (isVersion7Module(module)) return [latin1Bytes(printModuleV7(module))];
  return guardedChunks(asmPrinter(module, syntax).chunks(chunkBytes, reuseBuffer));
}

/** A string whose characters are bytes (latin1), as those bytes. */
export function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** A damaged module too large or too deeply nested for the engine: a `PrintError`, not a crash. */
function asPrintError(e: unknown): unknown {
  return isEngineExhaustion(e) ? new PrintError(`the module cannot be printed: ${exhaustionWords(e)}`) : e;
}

function* guardedChunks(chunks: Iterable<Uint8Array>): Generator<Uint8Array, void, undefined> {
  try {
    yield* chunks;
  } catch (e) {
    throw asPrintError(e);
  }
}

function asmPrinter(module: Module, syntax: Syntax): AsmPrinter {
  const dialect = dialectFor(module, syntax);
  const view = dialect.upgradesIntrinsics ? upgradeView19(module) : plainView(module);
  return new AsmPrinter(view, dialect);
}
