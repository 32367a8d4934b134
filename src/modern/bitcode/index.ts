/**
 * Upgrade to LLVM bitcode: the module `printModern` lowers for the chosen LLVM, written as that
 * release's binary form, with no LLVM needed (docs/upgrade.md, "Bitcode").
 */
import { parseModernIr } from './parse-ir.js';
import { writeIrModule } from './write-module.js';

export { BitstreamWriter, BitstreamWriteError, type Abbrev, type AbbrevOp } from './bitstream.js';
export { IrSyntaxError } from './lexer.js';
export { parseModernIr } from './parse-ir.js';
export { writeIrModule, PRODUCER } from './write-module.js';

/**
 * The bitcode of the modern IR `text` (as `printModern` writes it); `typedPointers` for the text
 * written for LLVM 13 and 14 (`i32*`), which becomes typed pointer types in the bitcode.
 */
export function bitcodeOfModernIr(text: string, options: { readonly typedPointers?: boolean } = {}): Uint8Array {
  return writeIrModule(parseModernIr(text, options));
}
