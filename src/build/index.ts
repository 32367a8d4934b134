/**
 * The construction API: build LLVM 1.x modules in code (see docs/build.md).
 */
export { BuildError } from './error.js';
export { ModuleBuilder, type BuildOptions, type FunctionOptions, type GlobalOptions, type ModuleOptions } from './module-builder.js';
export { IRBuilder, type AllocOptions, type CallOptions, type CallingConv, type LoadStoreOptions } from './ir-builder.js';
export { TypeBuilder } from './types.js';
export { ConstantBuilder } from './constants.js';
export type { BinaryOpcode, CompareOpcode, ShiftOpcode } from './rules.js';
