import { BytecodeError } from '../errors/bytecode-error.js';
import { bunzip2, Bzip2Error, Bzip2NoMemory, Bzip2TooLarge, Bzip2Truncated } from './bunzip2.js';
import { bzip2Encode, precompileBzip2Encoder } from './bzip2-encoder.js';

/**
 * bzip2 for the `llvc2` container, both ways in small WebAssembly modules carried inline and
 * used synchronously: decoding with our own decoder (bunzip2.ts), encoding with libbzip2's
 * compressor ported to AssemblyScript (bzip2-encoder.ts: output byte-identical to what LLVM's
 * bundled libbzip2 wrote).
 */

/**
 * Decompresses one bzip2 stream of `input`, writing it after a reserved `prefix` of `prefixLength`
 * bytes of the returned buffer (the container puts `llvm` there, so the result is the stream as an
 * uncompressed file would hold it, with no second copy).
 *
 * Stops with a `BytecodeError` as soon as the output exceeds `maxSize` (bytes of payload): the
 * decoder checks the cap before each byte it writes, so a bomb is stopped at the byte that passes
 * it (memory: at most the cap). Offsets in errors are positions in the *file*: `inputOffset` is
 * where `input` starts in it. Bytes after the end of the bzip2 stream are ignored, as LLVM's
 * reader ignored them; their count is returned as `trailing`.
 */
export function decompressBzip2(input: Uint8Array, maxSize: number, prefixLength: number, inputOffset: number): { output: Uint8Array; trailing: number } {
  let result;
  try {
    result = bunzip2(input, maxSize, prefixLength);
  } catch (e) {
    if (e instanceof Bzip2TooLarge) {
      throw new BytecodeError(
        `bzip2 data expands beyond the limit of ${maxSize} bytes (maxDecompressedSize); stopped after ${e.consumed} compressed byte(s)`,
        inputOffset + e.consumed,
      );
    }
    if (e instanceof Bzip2NoMemory) {
      throw new BytecodeError(
        `bzip2 data expands beyond what WebAssembly's memory can hold; stopped after ${e.consumed} compressed byte(s)`,
        inputOffset + e.consumed,
      );
    }
    if (e instanceof Bzip2Truncated) {
      throw new BytecodeError(
        `bzip2 data is truncated: the compressed stream ends after ${input.length} byte(s) without its end-of-stream marker`,
        inputOffset + input.length,
      );
    }
    if (e instanceof Bzip2Error) {
      throw new BytecodeError(`bzip2 data is corrupt (${e.message}) near compressed byte ${e.consumed}`, inputOffset + Math.max(0, e.consumed - 1));
    }
    throw e;
  }
  return { output: result.buffer, trailing: input.length - result.consumed };
}

// ---- Compression (libbzip2's compressor, ported: bzip2-encoder.ts) -----------------------------

/**
 * LLVM's `BZ2_bzCompressInit(…, 5, 0, 100)` work factor. It decides when libbzip2 gives up on
 * its fast sort for repetitive input and falls back to the slower one. Both sort the block the
 * same way except for identical rotations of a periodic block, whose order (and so the block's
 * origin pointer) differs; the port runs the same budget, so it chooses as libbzip2 did.
 */
const LLVM_WORK_FACTOR = 100;

/**
 * Always true: bzip2 compression is synchronous and needs no loading (it needed an asynchronous
 * load while it used the `libbzip2-wasm` package). Kept for existing callers.
 */
export function isBzip2Loaded(): boolean {
  return true;
}

/**
 * Compiles the bzip2 encoder's WebAssembly (about 12 KB) asynchronously, so that the first
 * compression need not compile it synchronously; optional (compression compiles it on first
 * use) and resolved at once after the first call. Kept from when compression used the
 * `libbzip2-wasm` package, which had to be loaded before use; `wrapContainerAsync` and
 * `writeModuleAsync` still call it, which is what a browser's main thread wants (browsers limit
 * synchronous compilation there).
 */
export function loadBzip2(): Promise<void> {
  return precompileBzip2Encoder();
}

/**
 * bzip2-compresses `data` exactly as LLVM 1.4–1.9 did for `llvc2` files: block size 5, work
 * factor 100 (`BZ2_bzCompressInit(…, 5, 0, 100)`, all input given with one `BZ_FINISH`). The
 * output is byte-identical to libbzip2 1.0.x's. Memory: about 9 bytes per input byte, at most
 * ~9 × 100,000 × `blockSize100k` bytes plus the input, whatever the input.
 */
export function compressBzip2(data: Uint8Array, blockSize100k = 5): Uint8Array {
  if (!(Number.isInteger(blockSize100k) && blockSize100k >= 1 && blockSize100k <= 9)) {
    throw new RangeError(`bzip2 block size must be 1..9, got ${blockSize100k}`);
  }
  return bzip2Encode(data, blockSize100k, LLVM_WORK_FACTOR);
}
