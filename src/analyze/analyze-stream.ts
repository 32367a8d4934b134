/**
 * One analysis from a file's bytes: the container is unwrapped, the version word picks the walk
 * (LLVM 1.9's reader for versions 0–6, `walker.ts`; r36867's for version 7, `walker-v7.ts`), and
 * where the walk stopped is recorded with LLVM's reason and the text-mode-damage hint.
 */
import type { BytecodeReader } from '../decode/reader.js';
import { BytecodeError } from '../errors/bytecode-error.js';
import { unwrapContainer } from '../container/index.js';
import { detectTextModeDamage, textModeHint, withCompressedTextModeDiagnosis, type TextModeDamage } from '../format/text-mode-damage.js';
import { peekVersionWord, UnsupportedVersionError, type VersionWord } from '../format/version-word.js';
import { formatFor, type FormatRow } from '../format/format-table.js';
import type { Analysis, DumpRecord } from './analysis.js';
import { AnalyzerWalkLlvm19 } from './walker.js';
import { AnalyzerWalkV7 } from './walker-v7.js';
import type { WalkErrorSink } from './walk-base.js';

export function emptyAnalysis(moduleId: string, fileSize: number): Analysis {
  return {
    schema: 1,
    reference: 'llvm-1.9',
    moduleId,
    signature: null,
    compression: null,
    version: null,
    versionFlags: null,
    fileSize,
    streamSize: 0,
    bytes: {
      module: fileSize,
      function: 0,
      globalTypes: 0,
      constantPool: 0,
      moduleGlobals: 0,
      instructionList: 0,
      compactionTable: 0,
      symbolTable: 0,
      typeSymbolTable: 0,
      basicBlock: 0,
    },
    alignmentBytes: 0,
    blockHeaderBytes: 0,
    dependentLibrariesBytes: 0,
    counts: {
      blocks: 0,
      functions: 0,
      types: 0,
      constants: 0,
      globalVariables: 0,
      values: 0,
      basicBlocks: 0,
      instructions: 0,
      longInstructions: 0,
      operands: 0,
      compactionTables: 0,
      symbolTables: 0,
      dependentLibs: 0,
    },
    instructionSize: 0,
    maxTypeSlot: 0,
    maxValueSlot: 0,
    density: null,
    vbr: { count32: 0, count64: 0, compressedBytes: 0, expandedBytes: 0 },
    functions: [],
    blocks: [],
    instructionFormats: {},
    opcodes: {},
    error: null,
  };
}

/** What the analyzer needs of a walk. */
interface Walk {
  run(stream: Uint8Array, onError: WalkErrorSink): void;
  finish(): void;
  readonly listingDepth: number;
}

/** A walk, for the files of one type-id scheme (the format table's `typeIdScheme`). */
interface WalkKind {
  /** The reader whose figures, messages and listing the walk reproduces. */
  readonly reference: Analysis['reference'];
  /** Why a file of this scheme is not walked at all, if it is not. */
  refuse?(peeked: VersionWord): BytecodeError | undefined;
  start(a: Analysis, row: FormatRow | undefined, listing: DumpRecord[] | null): Walk;
  /** How deep in the listing the stop line goes. */
  stopDepth(walk: Walk): number;
}

const WALKS: Readonly<Record<FormatRow['typeIdScheme'], WalkKind>> = {
  llvm1: {
    reference: 'llvm-1.9',
    // The walk takes the row from the version word it reads (refusing what it cannot read).
    start: (a, _row, listing) => new AnalyzerWalkLlvm19(a, formatFor(6)!, listing),
    stopDepth: (walk) => walk.listingDepth,
  },
  llvm2: {
    reference: 'r36867',
    // Only r36867's layout is walked; earlier stages wrote a flagged word (docs/format.md §14).
    refuse: (peeked) => (peeked.layout !== 'bare' ? new UnsupportedVersionError(peeked, 12, ['Module']) : undefined),
    start: (a, row, listing) => new AnalyzerWalkV7(a, row!, listing),
    // Its stop line has always been listed unindented.
    stopDepth: () => 0,
  },
};

const NO_DAMAGE: TextModeDamage = { verdict: 'none', crCount: 0, lfCount: 0, missingBytes: 0, evidence: [] };

export class AnalyzerWalk {
  readonly a: Analysis;
  readonly dumpLines: DumpRecord[] = [];
  private readonly dumping: boolean;
  private stream: Uint8Array = new Uint8Array(0);

  constructor(moduleId: string, fileSize: number, dump: boolean) {
    this.a = emptyAnalysis(moduleId, fileSize);
    this.dumping = dump;
  }

  run(bytes: Uint8Array, maxDecompressedSize?: number): void {
    const a = this.a;
    let stream: Uint8Array;
    try {
      const u = unwrapContainer(bytes, maxDecompressedSize === undefined ? {} : { maxDecompressedSize });
      stream = u.stream;
      a.signature = u.signature;
      a.compression = u.compression;
      a.streamSize = stream.length;
    } catch (e) {
      if (e instanceof BytecodeError) {
        const diagnosed = withCompressedTextModeDiagnosis(e, bytes);
        a.error = { reason: diagnosed.reason, offset: e.offset, blockPath: [...e.blockPath], phase: 'container' };
        return;
      }
      throw e;
    }
    this.stream = stream;
    const listing = this.dumping ? this.dumpLines : null;
    // The row's type-id scheme names the reader whose walk this is: LLVM 1.9's for versions 0–6
    // (and for whatever the version word turns out to be: the walk refuses it by name), r36867's
    // for version 7 (LLVM 2.0's development).
    const peeked = peekVersionWord(stream);
    const row = peeked ? formatFor(peeked.version) : undefined;
    const kind = WALKS[row?.typeIdScheme ?? 'llvm1'];
    a.reference = kind.reference;
    const refusal = peeked && kind.refuse?.(peeked);
    if (refusal) {
      this.recordError(refusal, 'module', undefined, 0);
      return;
    }
    const walk = kind.start(a, row, listing);
    try {
      walk.run(stream, (e, phase, r) => this.recordError(e, phase, r, kind.stopDepth(walk)));
    } finally {
      walk.finish();
    }
  }

  private recordError(e: unknown, phase: 'module' | 'function', r: BytecodeReader | undefined, depth: number): void {
    if (e instanceof BytecodeError) {
      // A version we do not read is not damage: no text-mode diagnosis for it.
      const damage = e instanceof UnsupportedVersionError ? NO_DAMAGE : detectTextModeDamage(this.stream, 4, e.offset);
      const hint = damage.verdict === 'none' ? '' : textModeHint(damage);
      this.a.error = { reason: e.reason + hint, offset: e.offset, blockPath: [...e.blockPath], phase };
      if (this.dumping) this.dumpLines.push({ offset: e.offset, depth, text: `ERROR at ${e.offset}: ${e.reason}` });
      return;
    }
    // Anything else is a bug in the walk; report it as a typed error rather than crash.
    const msg = e instanceof Error ? e.message : String(e);
    this.a.error = { reason: `internal error: ${msg}`, offset: r ? r.pos : 0, blockPath: r ? [...r.blockPath] : [], phase };
  }
}
