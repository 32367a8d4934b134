/** LLVM 1.9's constant folder (see folder.ts). */
export { ConstantFolder, firstElementIndices, isComparison, type Comparison, type FoldHost } from './folder.js';
export type { BinaryOpcode } from './scalar.js';
export { isNullValue } from './scalar.js';
