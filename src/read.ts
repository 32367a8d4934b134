/**
 * `readModule`: bytes of a `.bc` file in, module graph out. The container layer strips the
 * signature and decompresses; the decoders in `decode/` do the rest. Every problem with the bytes
 * is a `BytecodeError` with the offset (in the uncompressed stream) and the block path.
 */
import { unwrapContainer } from './container/index.js';
import { decodeModuleStream } from './decode/module-block.js';
import { BytecodeError } from './errors/bytecode-error.js';
import { detectTextModeDamage, textModeHint, withCompressedTextModeDiagnosis } from './format/text-mode-damage.js';
import { UnsupportedVersionError } from './format/version-word.js';
import type { Module } from './graph/module.js';
import { resolveLimits, type Limits } from './limits.js';

/** @category Read, write, convert */
export interface ReadOptions {
  /** Raise or lower any of the documented limits (docs/limits.md). */
  limits?: Partial<Limits>;
}

/**
 * Reads a bytecode file (any version 0–7, version 7 as LLVM trunk r36867 wrote it, in any
 * container: bare, zlib, bzip2, or uncompressed `llvc0`) into a module graph.
 *
 * @param bytes - the whole file as it is on disk (a Node `Buffer` is a `Uint8Array` too).
 * @param options - `limits` raises or lowers the bounds on untrusted input (docs/limits.md).
 * @returns the module: types, globals, functions with their instructions, and `source` (the
 *   container, compression and bytecode version it was read from).
 * @throws BytecodeError - when the bytes are not a module this library can read, with the offset
 *   and the block path where they stopped making sense (earlier version-7 stages are refused this
 *   way too, as `UnsupportedVersionError`, naming the stage).
 * @throws TypeError - when `bytes` is not a `Uint8Array` (a string or a path is not read).
 *
 * @category Read, write, convert
 */
export function readModule(bytes: Uint8Array, options: ReadOptions = {}): Module {
  if (!(bytes instanceof Uint8Array)) {
    const what = typeof bytes === 'string' ? "a string (pass the file's bytes, e.g. readFileSync(path), not its path or text)" : describeArgument(bytes);
    throw new TypeError(`readModule: expected the file's bytes as a Uint8Array, got ${what}`);
  }
  const limits = resolveLimits(options.limits);
  if (bytes.length > limits.maxInputSize) {
    throw new BytecodeError(`the input is ${bytes.length} bytes, more than the limit of ${limits.maxInputSize} bytes (maxInputSize)`, 0, []);
  }
  let unwrapped;
  try {
    unwrapped = unwrapContainer(bytes, { maxDecompressedSize: limits.maxDecompressedSize });
  } catch (e) {
    // A limit reached is the reason, and the only one: the damage diagnosis is for damage.
    throw e instanceof BytecodeError && !isLimitError(e) ? withCompressedTextModeDiagnosis(e, bytes) : e;
  }
  let result;
  try {
    result = decodeModuleStream(unwrapped.stream, limits);
  } catch (e) {
    // A version we do not read is not damage: no diagnosis is added to its refusal.
    if (e instanceof UnsupportedVersionError) throw e;
    if (e instanceof BytecodeError && !isLimitError(e) && (unwrapped.compression === 'none' || unwrapped.compression === 'null'))
      throw withTextModeDiagnosis(e, unwrapped.stream);
    if (e instanceof RangeError && /call stack|Invalid array length/i.test(e.message)) {
      throw new BytecodeError(`the file is too deeply nested or too large to decode (${e.message})`, 0, []);
    }
    throw e;
  }
  result.module.source = {
    signature: unwrapped.signature,
    compression: unwrapped.compression,
    bytecodeVersion: result.row.version,
    uncompressedSize: unwrapped.stream.length,
  };
  return result.module;
}

/**
 * An error that says a limit was reached (its reason names the limit, `(maxDecompressedSize)`, or
 * says what went past "the limit of" N), not that the bytes are damaged.
 */
export function isLimitError(e: BytecodeError): boolean {
  return /\((max[A-Za-z]+)\)|the limit of/.test(e.reason);
}

function describeArgument(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v !== 'object') return typeof v;
  return ArrayBuffer.isView(v) || v instanceof ArrayBuffer
    ? `${v.constructor.name} (wrap it: new Uint8Array(buffer))`
    : `an object (${v.constructor?.name ?? 'Object'})`;
}

/**
 * Adds "looks like it went through a text-mode transfer" to an error when the bytes say so
 * (docs/format.md §15.6). Compressed files that carry that damage fail to decompress; their
 * diagnosis is `withCompressedTextModeDiagnosis`, on the compressed bytes.
 */
function withTextModeDiagnosis(e: BytecodeError, stream: Uint8Array): BytecodeError {
  const hint = textModeHint(detectTextModeDamage(stream, 4, e.offset));
  return hint ? new BytecodeError(e.reason + hint, e.offset, e.blockPath) : e;
}
