import type createLibBzip2 from 'libbzip2-wasm';
import { BytecodeError } from '../errors/bytecode-error.js';
import { bunzip2, Bzip2Error, Bzip2TooLarge, Bzip2Truncated } from './bunzip2.js';

/**
 * bzip2 for the `llvc2` container: decoding with our own decoder (bunzip2.ts: synchronous, a
 * small WebAssembly module carried inline, fast from a cold start) and encoding with
 * `libbzip2-wasm` (the reference libbzip2, so the output is byte-identical to what LLVM's bundled
 * libbzip2 wrote; it needs a one-time asynchronous load, see `loadBzip2`).
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
export function decompressBzip2(
  input: Uint8Array,
  maxSize: number,
  prefixLength: number,
  inputOffset: number,
): { output: Uint8Array; trailing: number } {
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

// ---- Compression (libbzip2-wasm) ------------------------------------------------------------------

/**
 * LLVM's `BZ2_bzCompressInit(…, 5, 0, 100)` work factor. It only decides when libbzip2 gives up on
 * its fast sort for repetitive input and falls back to the slower one; both produce the same
 * block, so it does not change a byte, but 100 is measurably faster than the default (30) on
 * bytecode, which is repetitive.
 */
const LLVM_WORK_FACTOR = 100;

let bzip2Module: createLibBzip2.Module | undefined;
let loading: Promise<void> | undefined;

/** True once `loadBzip2()` has finished: bzip2 compression is then available synchronously. */
export function isBzip2Loaded(): boolean {
  return bzip2Module !== undefined;
}

/**
 * Loads the WebAssembly libbzip2 used for bzip2 *compression* (decompression needs nothing).
 * Call it once and await it before `wrapContainer(stream, 'bzip2')` or `compressBzip2`; later
 * calls return the same promise. `wrapContainerAsync` does this for you.
 *
 * On Node the Emscripten runtime registers `uncaughtException`/`unhandledRejection` listeners
 * on `process` as it starts; we remove the ones it added so that loading a codec does not change
 * how the host program handles its own errors.
 */
export function loadBzip2(): Promise<void> {
  if (loading) return loading;
  // Imported only here: the 200 KB Emscripten module costs every program that merely reads
  // (decompression does not need it) tens of milliseconds of start-up.
  loading = import('libbzip2-wasm').then(({ default: create }) => instantiate(create));
  // A failed load may be retried.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

function instantiate(create: typeof createLibBzip2): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const proc = (globalThis as { process?: NodeLikeProcess }).process;
    const events = ['uncaughtException', 'unhandledRejection'] as const;
    const before = proc && typeof proc.listeners === 'function' ? events.map((ev) => proc.listeners(ev)) : undefined;
    let mod: createLibBzip2.Module;
    try {
      mod = create();
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
      return;
    } finally {
      if (proc && before) {
        events.forEach((ev, i) => {
          for (const listener of proc.listeners(ev)) {
            if (!before[i]!.includes(listener)) proc.removeListener(ev, listener);
          }
        });
      }
    }
    // Never resolve *with* the module: it is a thenable whose `then` yields itself.
    mod.then(() => {
      bzip2Module = mod;
      resolve();
    });
  });
}

/** The part of Node's `process` that `loadBzip2` touches (kept structural: no Node types in core). */
interface NodeLikeProcess {
  listeners(event: string): ((...args: unknown[]) => void)[];
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * bzip2-compresses `data` exactly as LLVM 1.4–1.9 did for `llvc2` files: block size 5, work
 * factor 100 (`BZ2_bzCompressInit(…, 5, 0, 100)`). Requires `await loadBzip2()` first.
 * Speed is libbzip2's: about 5 MB/s on repetitive bytecode, as with the native `bzip2` tool.
 */
export function compressBzip2(data: Uint8Array, blockSize100k = 5): Uint8Array {
  if (!bzip2Module) {
    throw new Error('bzip2 compression is not loaded: call `await loadBzip2()` first (or use wrapContainerAsync)');
  }
  if (!(Number.isInteger(blockSize100k) && blockSize100k >= 1 && blockSize100k <= 9)) {
    throw new RangeError(`bzip2 block size must be 1..9, got ${blockSize100k}`);
  }
  const result = bzip2Module.compressBZ2(data, blockSize100k, LLVM_WORK_FACTOR);
  try {
    if (result.error !== 0) throw new Error(`bzip2 compression failed: ${result.errorMsg || `error ${result.error}`}`);
    // `output` views the WebAssembly heap; copy it out before anything else runs in the module.
    return result.output.slice();
  } finally {
    result.delete();
  }
}
