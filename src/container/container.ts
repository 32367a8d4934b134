import { Inflate, deflate } from 'pako';
import { BytecodeError } from '../errors/bytecode-error.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { compressBzip2, decompressBzip2, loadBzip2 } from './bzip2.js';
import type { Compression, Signature } from '../format/container-kinds.js';

/**
 * The outermost layer of a bytecode file: its signature and optional compression.
 *
 * Layout (LLVM 1.4–1.9, `WriteBytecodeToFile` and `Compressor`): an uncompressed file is the
 * stream itself, starting `llvm`. A compressed file starts `llvc`, then one byte naming the
 * algorithm, then the compressed form of *the stream minus its `llvm` signature*, with nothing else:
 * no stored size, no header tweaks (the bzip2 payload is a standard stream starting `BZh5`).
 *
 *   - `'0'` null compression: the bytes follow as they are. LLVM wrote this below 64 KiB.
 *   - `'1'` zlib (RFC 1950 stream, `deflateInit` level 6 from LLVM 1.4): LLVM could read it but
 *     never wrote it by default, and dropped zlib in favour of bzip2 on 2004-11-25.
 *   - `'2'` bzip2, block size 5: what LLVM wrote above 64 KiB.
 *
 * After unwrapping, `stream` is always `llvm` followed by the decompressed payload, so every offset
 * in it is the offset an uncompressed file would have (4 = first byte after the signature), which
 * is what LLVM's tools report too. Errors found *here* carry offsets in the file as given (there is
 * no stream yet), with an empty block path.
 *
 * @category Graph
 */

export type { Compression, Signature };

export interface UnwrapOptions {
  /** Cap on decompressed payload bytes (default `DEFAULT_LIMITS.maxDecompressedSize`). */
  maxDecompressedSize?: number;
}

export interface Unwrapped {
  /**
   * `llvm` + the (decompressed) stream body: offsets match an uncompressed file. For an `llvm`
   * input this is the input array itself (no copy); otherwise a new array.
   */
  stream: Uint8Array;
  signature: Signature;
  compression: Compression;
  /**
   * Bytes after the end of a bzip2 or zlib stream. LLVM's reader ignored them; a non-zero count
   * means the file was appended to or damaged. Always 0 for `llvm` and `llvc0`.
   */
  trailingBytes: number;
}

/** `llvm` as bytes, the prefix of every unwrapped stream. */
const LLVM = Uint8Array.of(0x6c, 0x6c, 0x76, 0x6d);
/** The threshold above which LLVM compressed with bzip2: the stream *without* its signature > 64 KiB. */
export const LLVM_BZIP2_THRESHOLD = 64 * 1024;

function startsWith(bytes: Uint8Array, prefix: ArrayLike<number>): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** `6c 6c 76 6d ("llvm")`: hex, then the bytes as text with non-printables as `.`. */
export function describeBytes(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
  const text = Array.from(bytes, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
  return `${hex} ("${text}")`;
}

/** Recognisable non-bytecode inputs, so the error can say what the file is instead. */
function guessWhatItIs(bytes: Uint8Array): string {
  if (startsWith(bytes, [0x42, 0x43, 0xc0, 0xde])) return '; this is LLVM 2.0+ bitcode, not LLVM 1.x bytecode';
  if (startsWith(bytes, [0xde, 0xc0, 0x17, 0x0b])) return '; this is wrapped LLVM 2.0+ bitcode, not LLVM 1.x bytecode';
  if (startsWith(bytes, [0x42, 0x5a, 0x68])) return '; this is a bare bzip2 file (LLVM wrote `llvc2` before the bzip2 data)';
  if (startsWith(bytes, [0x1f, 0x8b])) return '; this is a gzip file';
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return '; this is an ELF object';
  if (startsWith(bytes, [0x21, 0x3c, 0x61, 0x72, 0x63, 0x68, 0x3e])) return '; this is an ar archive';
  return '';
}

function checkCap(maxSize: number): number {
  if (!(Number.isSafeInteger(maxSize) && maxSize >= 0)) {
    throw new RangeError(`maxDecompressedSize must be a non-negative integer, got ${maxSize}`);
  }
  return maxSize;
}

/**
 * Recognises the signature of `bytes` and returns the stream as an uncompressed file would hold
 * it. Throws a `BytecodeError` for an unknown signature, corrupt or truncated compressed data, or
 * a decompressed size above the cap (checked while decompressing, so a bomb costs at most the cap).
 */
export function unwrapContainer(bytes: Uint8Array, options: UnwrapOptions = {}): Unwrapped {
  const maxSize = checkCap(options.maxDecompressedSize ?? DEFAULT_LIMITS.maxDecompressedSize);
  if (startsWith(bytes, LLVM)) {
    return { stream: bytes, signature: 'llvm', compression: 'none', trailingBytes: 0 };
  }
  if (!startsWith(bytes, [0x6c, 0x6c, 0x76, 0x63])) {
    if (bytes.length < 4) {
      throw new BytecodeError(
        `not LLVM bytecode: the file has only ${bytes.length} byte(s)` +
          (bytes.length ? `, ${describeBytes(bytes)},` : '') +
          ` where a 4-byte signature 'llvm' or 'llvc' was expected`,
        0,
      );
    }
    throw new BytecodeError(
      `not LLVM bytecode: the file starts with ${describeBytes(bytes.subarray(0, 4))} where 'llvm' or 'llvc' was expected` + guessWhatItIs(bytes),
      0,
    );
  }
  if (bytes.length < 5) {
    throw new BytecodeError("compressed bytecode ('llvc') ends before its compression-type byte", 4);
  }
  const kind = bytes[4]!;
  const payload = bytes.subarray(5);
  switch (kind) {
    case 0x30: {
      if (payload.length > maxSize) {
        throw new BytecodeError(`uncompressed payload of ${payload.length} bytes exceeds the limit of ${maxSize} bytes (maxDecompressedSize)`, 5);
      }
      const stream = new Uint8Array(4 + payload.length);
      stream.set(LLVM, 0);
      stream.set(payload, 4);
      return { stream, signature: 'llvc0', compression: 'null', trailingBytes: 0 };
    }
    case 0x31: {
      const { output, trailing } = inflateCapped(payload, maxSize, 5);
      return { stream: output, signature: 'llvc1', compression: 'zlib', trailingBytes: trailing };
    }
    case 0x32: {
      const { output, trailing } = decompressBzip2(payload, maxSize, 4, 5);
      output.set(LLVM, 0);
      return { stream: output, signature: 'llvc2', compression: 'bzip2', trailingBytes: trailing };
    }
    default:
      throw new BytecodeError(`unknown compression type ${describeBytes(bytes.subarray(4, 5))} after 'llvc' (known: '0' none, '1' zlib, '2' bzip2)`, 4);
  }
}

/** zlib-inflates `input` into `llvm` + output, stopping with an error beyond `maxSize` bytes. */
function inflateCapped(input: Uint8Array, maxSize: number, inputOffset: number): { output: Uint8Array; trailing: number } {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate({ chunkSize: 64 * 1024 });
  // pako keeps its zlib stream state public but untyped; `avail_in` = input bytes not yet consumed.
  const strm = (inflater as unknown as { strm: { avail_in: number } }).strm;
  inflater.onData = (chunk: Uint8Array) => {
    total += chunk.length;
    if (total > maxSize) {
      throw new BytecodeError(`zlib data expands beyond the limit of ${maxSize} bytes (maxDecompressedSize)`, inputOffset + (input.length - strm.avail_in));
    }
    chunks.push(chunk);
  };
  try {
    inflater.push(input, true);
  } catch (e) {
    if (e instanceof BytecodeError) throw e;
    const detail = e instanceof Error ? e.message : String(e);
    throw new BytecodeError(`zlib data is corrupt (${detail})`, inputOffset);
  }
  if (inflater.err) {
    const consumed = input.length - strm.avail_in;
    const truncated = inflater.err === -5; // Z_BUF_ERROR: input ended before the end of the stream
    throw new BytecodeError(
      truncated
        ? `zlib data is truncated: the compressed stream ends after ${input.length} byte(s) without its end`
        : `zlib data is corrupt (${inflater.msg || `error ${inflater.err}`})`,
      inputOffset + consumed,
    );
  }
  const output = new Uint8Array(4 + total);
  output.set(LLVM, 0);
  let at = 4;
  for (const c of chunks) {
    output.set(c, at);
    at += c.length;
  }
  return { output, trailing: strm.avail_in };
}

/**
 * The compression LLVM 1.4–1.9's `llvm-as` would have chosen for `stream` (an `llvm`-prefixed
 * stream of version 4 or later): bzip2 when the body after the signature exceeds 64 KiB, null
 * compression otherwise. (Versions 0–3 were never compressed: use `'none'`.)
 */
export function llvmDefaultCompression(stream: Uint8Array): 'null' | 'bzip2' {
  return stream.length - 4 > LLVM_BZIP2_THRESHOLD ? 'bzip2' : 'null';
}

/**
 * The mirror of `unwrapContainer`: wraps an `llvm`-prefixed stream in the given container.
 * `'bzip2'` output is byte-identical to LLVM's (libbzip2's compressor ported to WebAssembly,
 * block size 5, work factor 100), synchronously.
 * `'zlib'` uses level 6, as LLVM's zlib path did. `'auto'` is LLVM 1.4–1.9's own choice
 * (`llvmDefaultCompression`): meaningful for version 4+ streams only.
 */
export function wrapContainer(stream: Uint8Array, compression: Compression | 'auto'): Uint8Array {
  if (!startsWith(stream, LLVM)) {
    throw new BytecodeError(`wrapContainer expects a stream starting 'llvm', got ${describeBytes(stream.subarray(0, 4))}`, 0);
  }
  if (compression === 'auto') compression = llvmDefaultCompression(stream);
  if (compression === 'none') return stream;
  const body = stream.subarray(4);
  let kind: number;
  let payload: Uint8Array;
  switch (compression) {
    case 'null':
      kind = 0x30;
      payload = body;
      break;
    case 'zlib':
      kind = 0x31;
      payload = deflate(body, { level: 6 });
      break;
    case 'bzip2':
      kind = 0x32;
      payload = compressBzip2(body, 5);
      break;
    default:
      throw new TypeError(`wrapContainer: unknown compression '${String(compression)}' (none, null, zlib, bzip2 or auto)`);
  }
  const out = new Uint8Array(5 + payload.length);
  out.set([0x6c, 0x6c, 0x76, 0x63, kind], 0);
  out.set(payload, 5);
  return out;
}

/**
 * `wrapContainer`, compiling the bzip2 encoder asynchronously first when it is needed (kept from
 * when the codec had to be loaded; `wrapContainer` alone now does everything).
 */
export async function wrapContainerAsync(stream: Uint8Array, compression: Compression | 'auto'): Promise<Uint8Array> {
  if (compression === 'bzip2' || (compression === 'auto' && llvmDefaultCompression(stream) === 'bzip2')) await loadBzip2();
  return wrapContainer(stream, compression);
}
