/**
 * The order LLVM kept names in: its symbol tables and type-name maps were `std::map<std::string>`,
 * which compares byte by byte. Printing, linking and renaming all walk names in this order.
 */

/** Byte-wise string order (std::map<std::string> order); names are latin1, so code units are bytes. */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
