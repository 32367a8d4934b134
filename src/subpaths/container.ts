/**
 * `llvm-bytecode/container`: the wrappers around a bytecode stream alone: signatures and
 * compression (`llvc0`, zlib, bzip2), without reading the module. `readModule` and `writeModule`
 * do this themselves; these are for tools that move streams between containers.
 *
 * `loadBzip2()` compiles the bzip2 codec asynchronously ahead of its first use (a browser's main
 * thread prefers that to the synchronous compile the first bzip2 file otherwise costs).
 *
 * @packageDocumentation
 */
export {
  llvmDefaultCompression,
  unwrapContainer,
  wrapContainer,
  type Compression,
  type Signature,
  type Unwrapped,
  type UnwrapOptions,
} from '../container/container.js';
export { loadBzip2 } from '../container/bzip2.js';
