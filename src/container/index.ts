/** The container layer: file signature and (de)compression. See `container.ts`. */
export {
  unwrapContainer,
  wrapContainer,
  wrapContainerAsync,
  llvmDefaultCompression,
  describeBytes,
  LLVM_BZIP2_THRESHOLD,
} from './container.js';
export type { Signature, Compression, UnwrapOptions, Unwrapped } from './container.js';
export { loadBzip2, isBzip2Loaded, compressBzip2, decompressBzip2 } from './bzip2.js';
