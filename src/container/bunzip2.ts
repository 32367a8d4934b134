/**
 * The bzip2 decoder (one stream, the format libbzip2 0.9.5–1.0.x writes). The decoding itself is
 * WebAssembly, compiled from src/container/wasm/bunzip2.ts (AssemblyScript) by `npm run build`
 * and carried inline (bunzip2-wasm.generated.ts); this module moves the bytes in and out and turns
 * the decoder's error codes into errors.
 *
 * Why WebAssembly: `dis` or `analyze` of a large `llvc2` file runs the decoder once, before V8 has
 * optimized any JavaScript. The same decoder in TypeScript (typed arrays, a Huffman lookup table,
 * everything in locals) spent most of that call in V8's interpreter: ~35 ms of CPU cold for
 * big-bf's 0.42 MB against 8 ms warm. WebAssembly is compiled before its first call (Liftoff:
 * well under a millisecond for this module) and decodes big-bf in ~12 ms from the start.
 *
 * Synchronous, like the rest of the reader: `new WebAssembly.Module`. Browsers refuse that on
 * their main thread above a size (Chromium: 8 MB today, 4 KB in older releases); the module is
 * under 4 KB (the build fails above it), so a page may read files on its main thread too.
 *
 * Errors are `Bzip2Error`s carrying the number of compressed bytes consumed when the problem was
 * found; input that ends early is an `Bzip2Truncated`. The caller turns both into BytecodeErrors.
 */
import { BUNZIP2_WASM_BASE64 } from './bunzip2-wasm.generated.js';
import { embeddedWasmBytes, webAssembly as WebAssembly } from './embedded-wasm.js';

/** The stream stopped making sense; `consumed` compressed bytes had been read. */
export class Bzip2Error extends Error {
  constructor(
    message: string,
    readonly consumed: number,
  ) {
    super(message);
  }
}

/** The input ended before the stream's end-of-stream marker and CRC. */
export class Bzip2Truncated extends Error {}

/** The decompressed output would need more memory than WebAssembly can have (4 GiB). */
export class Bzip2NoMemory extends Error {
  constructor(readonly consumed: number) {
    super('bzip2 output does not fit in memory');
  }
}

/** The output grew past the caller's cap; `consumed` compressed bytes had been read. */
export class Bzip2TooLarge extends Error {
  constructor(readonly consumed: number) {
    super('bzip2 output exceeds the cap');
  }
}

/** What the WebAssembly decoder exports (src/container/wasm/bunzip2.ts). */
interface DecoderExports {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  INPUT: { readonly value: number };
  decode(inputLength: number, maxSize: number): void;
  getOutStart(): number;
  getOutEnd(): number;
  getConsumed(): number;
  getErrorCode(): number;
  getErrorConsumed(): number;
  getCrcGot(): number;
  getCrcExpected(): number;
}

/** The decoder's error codes, as in src/container/wasm/bunzip2.ts. */
const E_TRUNCATED = 1;
const E_TOO_LARGE = 2;
const E_NO_MEMORY = 3;
const E_BAD_STREAM_CRC = 6;
const E_BAD_BLOCK_CRC = 8;
/** The message of each other code (index: the code). */
const MESSAGES: readonly string[] = [
  '',
  '',
  '',
  '',
  'bad magic: not a bzip2 stream',
  'bad block size in the stream header',
  '',
  'bad block header',
  '',
  'randomised blocks (bzip2 before 0.9.5) are not supported',
  'block origin out of range',
  'block uses no byte values',
  'bad number of Huffman tables',
  'no Huffman table selectors',
  'bad Huffman table selector',
  'bad Huffman code length',
  'more symbols than Huffman table selectors',
  'bad Huffman code',
  'run of bytes longer than the block',
  'block longer than its declared size',
];

/**
 * An instance keeps its memory (tables, input, the block, the output) for the next file; one
 * whose memory grew past this is dropped after its call, so a large file or a bomb does not keep
 * its memory alive.
 */
const KEEP_MEMORY_UP_TO = 32 * 1024 * 1024;

let compiled: object | undefined;
let kept: DecoderExports | undefined;

function decoder(): DecoderExports {
  if (kept) return kept;
  if (!compiled) {
    compiled = new WebAssembly.Module(embeddedWasmBytes(BUNZIP2_WASM_BASE64));
  }
  kept = new WebAssembly.Instance(compiled, {}).exports as unknown as DecoderExports;
  return kept;
}

/**
 * Decodes the bzip2 stream at the start of `input`. The output goes after `prefixLength` reserved
 * (zero) bytes of the returned buffer, which it fills exactly; a stream that would write more than
 * `maxSize` bytes throws `Bzip2TooLarge` at the byte that passes it (the decoder's memory never
 * holds more than `maxSize` bytes of output). Returns the buffer and how many input bytes the
 * stream took (the rest are trailing bytes).
 */
export function bunzip2(input: Uint8Array, maxSize: number, prefixLength: number): { buffer: Uint8Array; consumed: number } {
  const d = decoder();
  const memory = d.memory;
  const at = d.INPUT.value;
  const need = at + input.length + 8;
  if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
  new Uint8Array(memory.buffer, at, input.length).set(input);
  try {
    d.decode(input.length, Math.min(Math.max(0, Math.floor(maxSize)), 0xffffffff));
  } catch (e) {
    kept = undefined;
    throw e instanceof WebAssembly.RuntimeError ? decoderError(d, e) : e;
  } finally {
    if (memory.buffer.byteLength > KEEP_MEMORY_UP_TO) kept = undefined;
  }
  const start = d.getOutStart();
  const end = d.getOutEnd();
  const buffer = new Uint8Array(prefixLength + end - start);
  buffer.set(new Uint8Array(memory.buffer, start, end - start), prefixLength);
  return { buffer, consumed: d.getConsumed() };
}

/** The error the decoder stopped with (it sets a code, then traps). */
function decoderError(d: DecoderExports, trap: Error): Error {
  const code = d.getErrorCode();
  const consumed = d.getErrorConsumed();
  switch (code) {
    case E_TRUNCATED:
      return new Bzip2Truncated();
    case E_TOO_LARGE:
      return new Bzip2TooLarge(consumed);
    case E_NO_MEMORY:
      return new Bzip2NoMemory(consumed);
    case E_BAD_STREAM_CRC:
      return new Bzip2Error(`bad stream CRC (got ${hex(d.getCrcGot())}, expected ${hex(d.getCrcExpected())})`, consumed);
    case E_BAD_BLOCK_CRC:
      return new Bzip2Error(`bad block CRC (got ${hex(d.getCrcGot())}, expected ${hex(d.getCrcExpected())})`, consumed);
  }
  const message = MESSAGES[code];
  // No code: the trap is a fault of the decoder itself, not of the input.
  if (!message) return trap;
  return new Bzip2Error(message, consumed);
}

function hex(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}
