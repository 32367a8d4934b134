import { WriteRangeError } from '../errors/write-range-error.js';
/**
 * `writeModule`: a module graph to bytecode, byte for byte as LLVM's own writer produced it.
 *
 * Supported targets: version 6 (LLVM 1.9's writer), version 5 (LLVM 1.8's), version 3 (LLVM
 * 1.3's), version 1 (LLVM 1.2's) and version 0 (LLVM 1.1's). The stream is `llvm` + the module block; `compression` then wraps it: `auto` as
 * LLVM 1.4+ did (`llvc0` when the payload after the signature is at most 64 KiB, else `llvc2` =
 * bzip2 -5), `none` leaves the bare `llvm` stream, `bzip2` forces `llvc2`. Versions before 5 are
 * never compressed (`auto` means `none` there).
 *
 * bzip2 output comes from libbzip2's compressor ported to WebAssembly (byte-identical to LLVM's),
 * synchronous: `writeModule` needs no preparation. `writeModuleAsync` remains for callers that
 * used it when the codec had to be loaded first; it compiles the encoder asynchronously.
 *
 * What the target version cannot express is refused with an `EncodeError` naming the construct
 * and the version (e.g. `undef`, `unreachable`, calling conventions before version 5). A module
 * that is not valid at all (see `verify/verify.ts`) is refused first with an `InvalidModuleError`.
 */
import { version7Feature } from '../graph/describe.js';
import { formatFor } from '../format/format-table.js';
import type { Module } from '../graph/module.js';
import { isInteger, subtypes, type Type } from '../graph/type.js';
import { llvmDefaultCompression, loadBzip2, wrapContainer, type Compression } from '../container/index.js';
import { CONVERT_FIRST, EncodeError } from './encode-error.js';
import { writeStream } from './module-block.js';
import { assertValidModule } from '../verify/verify.js';
import { exhaustionWords, isEngineExhaustion } from '../errors/exhaustion.js';

export { InvalidModuleError, verifyModule } from '../verify/verify.js';
export { SUPPORTED_VERSIONS } from './module-block.js';

/** @category Read, write, convert */
export interface WriteOptions {
  /** Target bytecode version (default 6). Supported: 0, 1, 3, 5, 6 (`SUPPORTED_VERSIONS`). */
  bytecodeVersion?: number;
  /**
   * `auto` (default): what the version's `llvm-as` did unasked (by size for versions 5–6:
   * `llvc0` up to 64 KiB, else `llvc2`; none for version 7); `llvm`: LLVM's choice by size
   * whatever the version (version 7's `llvm-as -disable-compression=false`); `none`: bare `llvm`
   * stream; `bzip2`: `llvc2`.
   */
  compression?: 'auto' | 'llvm' | 'none' | 'bzip2';
  /**
   * Run the verifier first (default true) and refuse an invalid module with its message
   * (`InvalidModuleError`). It runs for every module, one just read by `readModule` included:
   * the graph is plain mutable objects, so nothing cheap can tell whether a caller edited it
   * since (an operand replaced, a block moved), and bytes written from a broken graph would be
   * a file no LLVM reader accepts. It is linear in the module's size; a body read and untouched
   * since is checked in full once, later only for what it names outside itself (verify/verify.ts), under
   * a tenth of the writing time then. `false` skips it where the caller knows the module is valid.
   */
  verify?: boolean;
}

/** The container compression for `stream` under `options` (refusing bzip2 where LLVM had none). */
function containerFor(stream: Uint8Array, version: number, requested: WriteOptions['compression']): Compression {
  const compressible = formatFor(version)?.mayBeCompressed ?? false;
  if (requested === 'bzip2' && !compressible) throw new EncodeError('bzip2 compression', version);
  if (!compressible || requested === 'none') return 'none';
  if (requested === 'bzip2') return 'bzip2';
  if (requested === 'llvm') return llvmDefaultCompression(stream);
  if (formatFor(version)?.compressesByDefault === false) return 'none';
  return llvmDefaultCompression(stream);
}

/**
 * The verifier's verdict, then the uncompressed stream. A damaged module nested deeper than the
 * call stack allows (thousands of constant expressions, each the operand of the next) is refused
 * with an `EncodeError` naming that, not a bare `RangeError`.
 */
function verifiedStream(module: Module, version: number, verify: boolean): Uint8Array {
  // A version-7 module (signless integers, LLVM 2.0's opcodes, …) has no form in versions 0–6.
  const v7 = version <= 6 ? version7Feature(module) : undefined;
  if (v7 !== undefined) throw new EncodeError(v7, version, 'a version-7 (LLVM 2.0 development) construct');
  // And the other way round: an LLVM 1.x module at version 7 is refused naming the verb that
  // converts it (as the version-7 type writer would), not with the verifier's list of every
  // 1.x integer in it.
  const legacy = version >= 7 ? legacyIntegerType(module) : undefined;
  if (legacy !== undefined) throw new EncodeError(`the ${legacy.kind} type`, version, CONVERT_FIRST);
  try {
    // Under the target's rules: LLVM 1.x's for versions 0–6, r36867's for version 7 (verify/rules.ts).
    if (verify) assertValidModule(module, version);
    return writeStream(module, version);
  } catch (e) {
    if (isEngineExhaustion(e)) throw new EncodeError('this module', version, exhaustionWords(e));
    // A value of the module its field cannot hold (a name with a character above U+00FF, a block
    // past its header's size): the module's problem, said as the writer's.
    if (e instanceof WriteRangeError) throw new EncodeError(`a ${e.what}`, version, e.message);
    throw e;
  }
}

/**
 * The first of LLVM 1.x's integer types (`bool`, `int`, `ubyte`, …) in the module's type pool, its
 * globals' types or its functions' signatures, looking through derived types; undefined when
 * there is none there.
 */
function legacyIntegerType(module: Module): Type | undefined {
  const seen = new Set<Type>();
  const stack: Type[] = [...module.types];
  for (const g of module.globals) stack.push(g.valueType);
  for (const f of module.functions) stack.push(f.functionType);
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (seen.has(t)) continue;
    seen.add(t);
    if (t.kind === 'bool' || isInteger(t)) return t;
    for (const sub of subtypes(t)) stack.push(sub);
  }
  return undefined;
}

/**
 * Writes `module` as a bytecode file (bzip2 included: compression is synchronous).
 *
 * @category Read, write, convert
 */
export function writeModule(module: Module, options: WriteOptions = {}): Uint8Array {
  const version = options.bytecodeVersion ?? 6;
  const stream = verifiedStream(module, version, options.verify !== false);
  const compression = containerFor(stream, version, options.compression);
  return wrapContainer(stream, compression);
}

/**
 * `writeModule`, compiling the bzip2 encoder asynchronously first when the output needs it (kept
 * from when the codec had to be loaded; on a browser's main thread it avoids a synchronous compile).
 */
export async function writeModuleAsync(module: Module, options: WriteOptions = {}): Promise<Uint8Array> {
  const version = options.bytecodeVersion ?? 6;
  const stream = verifiedStream(module, version, options.verify !== false);
  const compression = containerFor(stream, version, options.compression);
  if (compression === 'bzip2') await loadBzip2();
  return wrapContainer(stream, compression);
}
