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

export interface ReadOptions {
  /** Raise or lower any of the documented limits (docs/limits.md). */
  limits?: Partial<Limits>;
}

export function readModule(bytes: Uint8Array, options: ReadOptions = {}): Module {
  const limits = resolveLimits(options.limits);
  let unwrapped;
  try {
    unwrapped = unwrapContainer(bytes, { maxDecompressedSize: limits.maxDecompressedSize });
  } catch (e) {
    throw e instanceof BytecodeError ? withCompressedTextModeDiagnosis(e, bytes) : e;
  }
  let result;
  try {
    result = decodeModuleStream(unwrapped.stream, limits);
  } catch (e) {
    // A version we do not read is not damage: no diagnosis is added to its refusal.
    if (e instanceof UnsupportedVersionError) throw e;
    if (e instanceof BytecodeError && (unwrapped.compression === 'none' || unwrapped.compression === 'null')) throw withTextModeDiagnosis(e, unwrapped.stream);
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
 * Adds "looks like it went through a text-mode transfer" to an error when the bytes say so
 * (docs/format.md §15.6). Compressed files that carry that damage fail to decompress; their
 * diagnosis is `withCompressedTextModeDiagnosis`, on the compressed bytes.
 */
function withTextModeDiagnosis(e: BytecodeError, stream: Uint8Array): BytecodeError {
  const hint = textModeHint(detectTextModeDamage(stream, 4, e.offset));
  return hint ? new BytecodeError(e.reason + hint, e.offset, e.blockPath) : e;
}
