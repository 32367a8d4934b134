/** `nm`: the symbols of a module as LLVM 1.9's llvm-nm listed them. */
export { nmSymbols, formatNm, NM_FORMATS, type NmFormat, type NmSymbol, type NmListingOptions } from './nm.js';
