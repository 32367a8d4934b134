/**
 * Every limit the library enforces on untrusted input, in one place.
 *
 * A file states counts and sizes before the things they count; each is checked against a limit here
 * *and* against the bytes left in its block before anything is allocated (see
 * `BinaryReader.checkCount`), so a hostile count costs an error, not memory. The defaults are far
 * above anything LLVM 1.x ever wrote, so only damaged or malicious files meet them; raise them with
 * the `limits` option (`readModule(bytes, { limits: { maxTypes: 5_000_000 } })`) or, for the
 * container alone, `unwrapContainer(bytes, { maxDecompressedSize })`. `docs/limits.md` explains
 * each one.
 *
 * @category Read, write, convert
 */
export interface Limits {
  /**
   * Bytes of one input as given: a file, a stream, an archive (`readModule` refuses a larger one
   * before looking at it; the CLI checks a file's size before reading it and stops reading a
   * stream there).
   */
  readonly maxInputSize: number;
  /**
   * Bytes a compressed (`llvc`) file may expand to. Applied while decompressing, so a bzip2 or
   * zlib "bomb" stops with an error once it has produced this much, whatever it claims.
   */
  readonly maxDecompressedSize: number;
  /** How deeply blocks may nest (a real module nests three deep: module → function → body). */
  readonly maxBlockDepth: number;
  /** Types in the module's type table (global type pool plus function-local types). */
  readonly maxTypes: number;
  /** Members of one struct / parameters of one function type. */
  readonly maxTypeMembers: number;
  /** Constants in one type plane of one constant pool. */
  readonly maxConstantsPerPlane: number;
  /** Values (slots) in one type plane: globals + constants + arguments + instructions. */
  readonly maxValuesPerPlane: number;
  /** Instructions in one function. */
  readonly maxInstructionsPerFunction: number;
  /** Basic blocks in one function. */
  readonly maxBasicBlocksPerFunction: number;
  /** Operands of one instruction or constant expression (calls, phis, switches, getelementptr). */
  readonly maxOperandsPerInstruction: number;
  /** Bytes in one string: a name, a string constant, the target triple, a library name. */
  readonly maxStringLength: number;
  /** Functions declared or defined in a module. */
  readonly maxFunctions: number;
  /** Global variables in a module. */
  readonly maxGlobals: number;
  /** Entries (type planes × names) in one symbol table. */
  readonly maxSymbolTableEntries: number;
  /** Entries in one function's compaction table. */
  readonly maxCompactionTableEntries: number;
  /** Dependent libraries named by a module. */
  readonly maxDependentLibraries: number;
  /** Members of one `ar` archive (`readArchive`, `writeArchive`), special members included. */
  readonly maxArchiveMembers: number;
  /** Bytes in one archive member's name (a BSD `#1/N` name or a GNU `//` string-table entry). */
  readonly maxArchiveNameLength: number;
  /**
   * Bits of one version-7 integer type (`i1` … `iN`). The default is LLVM's own bound at the time
   * (IntegerType::MAX_INT_BITS, 2^23 - 1), which the graph cannot exceed; it can only be lowered.
   */
  readonly maxIntegerBits: number;
}

/** 2^24: LLVM 1.3+ stores type slots in 24 bits; no real table of anything comes near it. */
const SIXTEEN_MI = 1 << 24;

/**
 * The defaults.
 *
 * - `maxInputSize` 256 MiB, as for what a compressed file expands to: an uncompressed file of
 *   that size is ten times the largest bytecode LLVM 1.x wrote, and a stream with no end
 *   (`/dev/zero`) stops there.
 * - `maxDecompressedSize` 256 MiB: the largest bytecode LLVM 1.x produced in practice (whole
 *   programs such as SPEC's gcc linked into one module) was tens of megabytes; 256 MiB leaves an
 *   order of magnitude of room yet fails a decompression bomb before it exhausts a default Node
 *   heap. It bounds only decompressed output; an uncompressed `llvm` file is read as given.
 * - `maxBlockDepth` 16: real files nest 3 deep; the limit turns a self-nesting forgery into an
 *   error long before recursion could matter.
 * - Counts default to 2^24 (types, constants, values, instructions, symbols) or 2^20 (functions,
 *   globals, operands, type members, libraries): real modules stay below 10^5, and every count is
 *   also bounded by the bytes left in its block, which is the tighter bound for any real input.
 * - `maxStringLength` 16 MiB: a string constant is one byte per character in the file.
 * - `maxArchiveMembers` 2^20: LLVM 1.x's largest runtime archives held a few hundred members.
 * - `maxArchiveNameLength` 4096: PATH_MAX on Linux, the longest path `llvm-ar` could have stored.
 * - `maxIntegerBits` 2^23 - 1: LLVM trunk's IntegerType::MAX_INT_BITS when it wrote version 7; an
 *   arbitrary-precision constant of that width is about 1 MiB, and its words are also bounded by
 *   the bytes of its block.
 *
 * @category Read, write, convert
 */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxInputSize: 256 * 1024 * 1024,
  maxDecompressedSize: 256 * 1024 * 1024,
  maxBlockDepth: 16,
  maxTypes: SIXTEEN_MI,
  maxTypeMembers: 1 << 20,
  maxConstantsPerPlane: SIXTEEN_MI,
  maxValuesPerPlane: SIXTEEN_MI,
  maxInstructionsPerFunction: SIXTEEN_MI,
  maxBasicBlocksPerFunction: SIXTEEN_MI,
  maxOperandsPerInstruction: 1 << 20,
  maxStringLength: SIXTEEN_MI,
  maxFunctions: 1 << 20,
  maxGlobals: 1 << 20,
  maxSymbolTableEntries: SIXTEEN_MI,
  maxCompactionTableEntries: SIXTEEN_MI,
  maxDependentLibraries: 1 << 20,
  maxArchiveMembers: 1 << 20,
  maxArchiveNameLength: 4096,
  maxIntegerBits: (1 << 23) - 1,
});

/** The names of all limits, for validation and documentation. */
export const LIMIT_NAMES: readonly (keyof Limits)[] = Object.freeze(Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]);

/**
 * The defaults overridden by `partial`. Each override must be a non-negative safe integer
 * (`Infinity` is not accepted: a limit that is off should be a deliberate large number), and an
 * unknown name is an error so that a misspelt option cannot silently leave a limit at its default.
 */
export function resolveLimits(partial?: Partial<Limits>): Limits {
  if (partial === undefined) return DEFAULT_LIMITS;
  const out: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(partial)) {
    if (!Object.hasOwn(DEFAULT_LIMITS, name)) {
      throw new TypeError(`unknown limit '${name}' (known: ${LIMIT_NAMES.join(', ')})`);
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`limit '${name}' must be a non-negative integer, got ${String(value)}`);
    }
    out[name] = value;
  }
  return Object.freeze(out) as unknown as Limits;
}
