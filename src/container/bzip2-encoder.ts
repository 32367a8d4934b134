import { WriteRangeError } from '../errors/write-range-error.js';
/**
 * The bzip2 encoder: libbzip2's compressor ported to AssemblyScript
 * (src/container/wasm/bzip2-encoder.ts, compiled by `npm run build` and carried inline in
 * bzip2-encoder-wasm.generated.ts); this module moves the bytes in and out.
 *
 * Byte-identical to libbzip2 1.0.x given all its input at once with BZ_FINISH (what
 * BZ2_bzBuffToBuffCompress does): same blocks, same sort (and work-factor budget), same Huffman
 * tables. Synchronous: the module (about 12 KB) is compiled on first use, or ahead of it,
 * asynchronously, by `precompileBzip2Encoder()` (browsers refuse large synchronous compiles on
 * their main thread).
 */
import { BZIP2_ENCODER_WASM_BASE64 } from './bzip2-encoder-wasm.generated.js';
import { embeddedWasmBytes, webAssembly as WebAssembly } from './embedded-wasm.js';

/** What the WebAssembly encoder exports (src/container/wasm/bzip2-encoder.ts). */
interface EncoderExports {
  memory: { readonly buffer: ArrayBuffer };
  begin(level: number, workFactor: number, inputLength: number): number;
  compressNext(): void;
  getZbits(): number;
  getNumZ(): number;
  isFinished(): number;
}

/**
 * An instance keeps its memory for the next call; one whose memory grew past this is dropped
 * after its call, so one large input does not keep its memory alive.
 */
const KEEP_MEMORY_UP_TO = 16 * 1024 * 1024;

let compiled: object | undefined;
let compiling: Promise<void> | undefined;
let kept: EncoderExports | undefined;

function moduleBytes(): Uint8Array {
  return embeddedWasmBytes(BZIP2_ENCODER_WASM_BASE64);
}

/** Compiles the encoder's module asynchronously, ahead of the first (synchronous) use. */
export function precompileBzip2Encoder(): Promise<void> {
  if (compiled) return Promise.resolve();
  compiling ??= WebAssembly.compile(moduleBytes()).then(
    (m) => {
      compiled ??= m;
    },
    (e: unknown) => {
      compiling = undefined;
      throw e;
    },
  );
  return compiling;
}

function encoder(): EncoderExports {
  if (kept) return kept;
  compiled ??= new WebAssembly.Module(moduleBytes());
  kept = new WebAssembly.Instance(compiled, {}).exports as unknown as EncoderExports;
  return kept;
}

/**
 * bzip2-compresses `data` with libbzip2's algorithm: `level` is the block size in 100 kB
 * (1..9), `workFactor` libbzip2's (0..250, 0 meaning 30). The caller checks the arguments.
 * Memory: the input plus 8 bytes per byte of the largest block this input can make (at most
 * 100,000 × `level`, at most 5/4 of the input), plus 330 KB of tables.
 */
export function bzip2Encode(data: Uint8Array, level: number, workFactor: number): Uint8Array {
  const e = encoder();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    let at: number;
    try {
      at = e.begin(level, workFactor, data.length);
    } catch {
      // begin traps only when the memory cannot grow (WebAssembly memory stops at 4 GiB).
      throw new WriteRangeError('bzip2 compression', `bzip2 compression of ${data.length} bytes needs more memory than WebAssembly can have`);
    }
    new Uint8Array(e.memory.buffer, at, data.length).set(data);
    do {
      e.compressNext();
      const n = e.getNumZ();
      chunks.push(new Uint8Array(e.memory.buffer, e.getZbits(), n).slice());
      total += n;
    } while (!e.isFinished());
  } catch (err) {
    kept = undefined;
    throw err;
  } finally {
    if (e.memory.buffer.byteLength > KEEP_MEMORY_UP_TO) kept = undefined;
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let pos = 0;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.length;
  }
  return out;
}
