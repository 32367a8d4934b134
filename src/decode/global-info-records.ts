/**
 * The one reader of the ModuleGlobalInfo block's records (docs/format.md §6, version 7's §14.4),
 * for every version: the global variables (a word, an extension word, the initializer's slot),
 * the functions (a word and an extension word), the dependent libraries and target triple, the
 * data layout (version 7), the section names and module inline asm, and version 7's aliases.
 * The row says which fields exist and where their bits are.
 *
 * Its consumers are the module-graph builder (`global-info.ts`, `v7/global-info.ts`) and the
 * analyzer (both walks). What the fields mean, and which a reader refused, is the consumer's: it
 * sees them through the hooks below, in the order its reader read them (a word before its
 * extension word, the extension's alignment before its section id, a global before its
 * initializer), and checks them with its own limits and messages.
 */
import type { FormatRow } from '../format/format-table.js';
import type { BytecodeReader } from './reader.js';

/** A global variable's fields; the extension's fields are 0 until it is read. */
export interface GlobalVariableRecord {
  /** Offset of the global's word, and of the byte after it. */
  readonly at: number;
  readonly wordEnd: number;
  /** The type slot as stored (v0–v1: not yet shifted past the type-type plane). */
  readonly slot: number;
  readonly isConstant: boolean;
  readonly isThreadLocal: boolean;
  linkage: number;
  hasInitializer: boolean;
  /** `log2(alignment) + 1` as stored, 0 for none. */
  alignmentLog: number;
  visibility: number;
  /** Section id (1-based), 0 for none. */
  section: number;
}

/** A function's fields; the extension's fields are 0 until it is read. */
export interface FunctionRecord {
  readonly at: number;
  readonly slot: number;
  /** The word's low five bits: `(cc + 1) & 15`, and 16 for a declaration. */
  readonly flags: number;
  readonly hasExtension: boolean;
  alignmentLog: number;
  /** The extension's bits 5–8: the calling convention plus one, shifted right by 4. */
  callingConvHigh: number;
  section: number;
  /** The extension's bits 11–12: 1 dllimport, 2 extern_weak. */
  declarationLinkage: number;
}

/** A version-7 alias's fields. */
export interface AliasRecord {
  readonly at: number;
  readonly slot: number;
  readonly linkage: number;
  readonly constantAliasee: boolean;
  aliasee: number;
}

/** Where the block's fields ended (what `Module.globalInfoEnd` records for the writer). */
export type GlobalInfoEnd = 'functions' | 'triple' | 'sections' | 'asm';

/** How a consumer reads and checks the block's fields (`G`: what it keeps of a global variable). */
export interface GlobalInfoReading<G> {
  /**
   * LLVM 1.9's reader looked for a global's extension word in every version; the builder, in the
   * versions that have one (`hasPackedAndAttributes`).
   */
  readonly extensionInEveryVersion?: boolean;
  /** A global's word, just read (before its extension word). */
  globalWord?(g: GlobalVariableRecord): void;
  /** An extension word's alignment, just read (before its section id). */
  alignment?(log: number, at: number): void;
  /** A global's fields, all read but its initializer's slot: what the consumer keeps of it. */
  global(g: GlobalVariableRecord): G;
  /** A global is read: its initializer's slot, when it has one, just read. */
  globalDone?(global: G, initializer: number | undefined, g: GlobalVariableRecord): void;
  /**
   * The function word as the consumer's reader widened a version 0–4 word (a bare type slot) to
   * the later layout; by default `slot * 32 + 1` (a C function with a body).
   */
  widenFunctionWord?(raw: number): number;
  /** A function's word, just read (before its extension word). */
  functionWord?(f: FunctionRecord): void;
  /** A function's fields, all read. */
  function(f: FunctionRecord): void;
  /** The dependent-library count, just read: the count to read. */
  libraryCount(n: number, at: number): number;
  /** The section-name count, just read: the count to read. */
  sectionCount(n: number, at: number): number;
  /** Reads one string (the consumer's own length check), `what` naming it. */
  string(r: BytecodeReader, what: string): string;
  library?(name: string): void;
  triple?(triple: string): void;
  dataLayout?(layout: string): void;
  section?(name: string): void;
  inlineAsm?(asm: string): void;
  /** Version 7: aliases follow (the names are all read). */
  beforeAliases?(): void;
  /** Version 7: an alias's word, just read (before its aliasee's slot). */
  aliasWord?(a: AliasRecord): void;
  /** Version 7: an alias's fields, all read. */
  alias?(a: AliasRecord): void;
}

/** The word's type slot past its bit fields (the function word's extension flag, bit 31, dropped). */
const FUNCTION_SLOT_LIMIT = 2 ** 26;
const FUNCTION_WORD_HAS_EXTENSION = 2 ** 31;
const EXT_HAS_SECTION_GLOBAL = 1 << 9;
const EXT_HAS_SECTION_FUNCTION = 1 << 10;
const INTERNAL = 3;

/** Reads the block's fields from the reader's position; returns where they ended. */
export function readGlobalInfoRecords<G>(r: BytecodeReader, row: FormatRow, reading: GlobalInfoReading<G>): GlobalInfoEnd {
  readGlobalVariables(r, row, reading);
  readFunctions(r, row, reading);
  if (row.noDependentLibraries) return 'functions';
  const libraries = r.pos;
  const n = reading.libraryCount(r.vbr32(), libraries);
  for (let i = 0; i < n; i++) {
    const name = reading.string(r, 'a dependent library name');
    reading.library?.(name);
  }
  const triple = reading.string(r, 'the target triple');
  reading.triple?.(triple);
  if (row.hasDataLayout) {
    const layout = reading.string(r, 'the data layout');
    reading.dataLayout?.(layout);
  }
  if (!row.hasSectionNames || r.atEnd()) return 'triple';
  const at = r.pos;
  const sections = reading.sectionCount(r.vbr32(), at);
  for (let i = 0; i < sections; i++) {
    const name = reading.string(r, 'a section name');
    reading.section?.(name);
  }
  if (r.atEnd()) return 'sections';
  const asm = reading.string(r, 'the module inline asm');
  reading.inlineAsm?.(asm);
  if (row.hasAliases && !r.atEnd()) {
    reading.beforeAliases?.();
    readAliases(r, reading);
  }
  return 'asm';
}

function readGlobalVariables<G>(r: BytecodeReader, row: FormatRow, reading: GlobalInfoReading<G>): void {
  const slotShift = row.hasThreadLocal ? 64 : 32;
  const extensions = row.hasPackedAndAttributes || reading.extensionInEveryVersion === true;
  for (let at = r.pos, word = r.vbr32(); word !== 0; at = r.pos, word = r.vbr32()) {
    const g: GlobalVariableRecord = {
      at,
      wordEnd: r.pos,
      slot: Math.floor(word / slotShift),
      isConstant: (word & 1) !== 0,
      isThreadLocal: row.hasThreadLocal && (word & 32) !== 0,
      linkage: (word >>> 2) & 7,
      hasInitializer: (word & 2) !== 0,
      alignmentLog: 0,
      visibility: 0,
      section: 0,
    };
    reading.globalWord?.(g);
    // "Internal without initializer" cannot exist, so it escapes to an extension word.
    if (extensions && g.linkage === INTERNAL && !g.hasInitializer) {
      const ext = r.vbr32();
      g.hasInitializer = (ext & 1) !== 0;
      g.linkage = (ext >>> 1) & 7;
      g.alignmentLog = (ext >>> 4) & 31;
      if (row.hasVisibility) g.visibility = (ext >>> 10) & 7;
      reading.alignment?.(g.alignmentLog, g.wordEnd);
      if (ext & EXT_HAS_SECTION_GLOBAL) g.section = r.vbr32();
    }
    const kept = reading.global(g);
    const initializer = g.hasInitializer ? r.vbr32() : undefined;
    reading.globalDone?.(kept, initializer, g);
  }
}

function readFunctions<G>(r: BytecodeReader, row: FormatRow, reading: GlobalInfoReading<G>): void {
  for (;;) {
    const at = r.pos;
    const raw = r.vbr32();
    // Before version 5 the word is the bare type slot: a C function whose body (or linkage-only
    // block, for a declaration) follows later.
    const word = !row.noFlagsForFunctions ? raw : reading.widenFunctionWord ? reading.widenFunctionWord(raw) : raw * 32 + 1;
    const slot = Math.floor(word / 32) % FUNCTION_SLOT_LIMIT;
    if (slot === 0) return;
    const f: FunctionRecord = {
      at,
      slot,
      flags: word & 31,
      hasExtension: word >= FUNCTION_WORD_HAS_EXTENSION,
      alignmentLog: 0,
      callingConvHigh: 0,
      section: 0,
      declarationLinkage: 0,
    };
    reading.functionWord?.(f);
    if (f.hasExtension) {
      const ext = r.vbr32();
      f.alignmentLog = ext & 31;
      f.callingConvHigh = (ext >>> 5) & 15;
      reading.alignment?.(f.alignmentLog, at);
      if (ext & EXT_HAS_SECTION_FUNCTION) f.section = r.vbr32();
      f.declarationLinkage = (ext >>> 11) & 3;
    }
    reading.function(f);
  }
}

function readAliases<G>(r: BytecodeReader, reading: GlobalInfoReading<G>): void {
  for (let at = r.pos, word = r.vbr32(); word !== 0; at = r.pos, word = r.vbr32()) {
    const a: AliasRecord = { at, slot: Math.floor(word / 8), linkage: word & 3, constantAliasee: (word & 4) !== 0, aliasee: 0 };
    reading.aliasWord?.(a);
    a.aliasee = r.vbr32();
    reading.alias?.(a);
  }
}
