/**
 * Messages between the page and its parse worker. Everything crosses as plain data (structured
 * clone); big byte arrays are transferred, not copied.
 */

/** The disassembly dialects the page offers (`modern` only when the library has the upgrader). */
export type Syntax = '1.9' | 'native' | 'modern';

/** One block of the bytecode stream, as the block tree shows it. Offsets are stream offsets. */
export interface BlockNode {
  /** LLVM's name for the block, e.g. `Function`, `ConstantPool`. */
  name: string;
  /** Extra words for the label, e.g. the function's name or `#3`. */
  detail: string;
  /** For a function block: the function's name as the analyzer knew it ("" when unnamed). */
  functionName: string;
  /** Offset of the block header's first byte. */
  offset: number;
  /** Header + body (+ padding, where the analyzer counts it): the bytes this block covers. */
  size: number;
  children: BlockNode[];
  /** Records (if the analyzer lists them): what a byte inside this block belongs to. */
  records: RecordInfo[];
}

export interface RecordInfo {
  offset: number;
  size: number;
  label: string;
}

/** What the reader said when the bytes stopped making sense. */
export interface ErrorInfo {
  /** `BytecodeError`, `EncodeError`, or the constructor name of anything unexpected. */
  kind: string;
  reason: string;
  message: string;
  /** Stream offset where the reader stopped (everything before it was read). */
  offset: number | null;
  blockPath: string[];
}

export interface Summary {
  fileName: string;
  fileSize: number;
  signature: string | null;
  compression: string | null;
  bytecodeVersion: number | null;
  /** The LLVM release(s) that wrote this version (format table `writtenBy`). */
  writtenBy: string | null;
  nativeDialect: string | null;
  uncompressedSize: number | null;
  /** Label → figure, in display order (types, globals, functions, …). */
  counts: [string, string][];
}

export interface TextResult {
  syntax: Syntax;
  text: string;
  /** Offsets of the first character of each line (a trailing newline adds no empty last line). */
  lineStarts: Uint32Array;
  millis: number;
}

/** One member of an opened archive, as the page lists it. */
export interface ArchiveEntry {
  name: string;
  /** What it holds: `bytecode`, `compressed-bytecode`, `bitcode`, `file`, … (see MemberKind). */
  kind: string;
  size: number;
  /** Bytecode members only: what to send in `open-member` to open it. */
  index: number | null;
}

export type ToWorker =
  | { type: 'open'; id: number; name: string; bytes: ArrayBuffer; syntax: Syntax }
  /** Opens a bytecode member of the archive opened last (see `archive`). */
  | { type: 'open-member'; id: number; index: number; syntax: Syntax }
  | { type: 'print'; id: number; syntax: Syntax }
  | { type: 'convert'; id: number; version: number; compression: 'auto' | 'none' | 'bzip2' }
  /** The open module upgraded for LLVM `llvm`: modern IR text, or bitcode (answered by `converted`). */
  | { type: 'upgrade'; id: number; emit: 'text' | 'bitcode'; llvm: number };

export type FromWorker =
  | { type: 'progress'; id: number; stage: string; step: number; steps: number }
  /**
   * The file was an `ar` archive: its members. Sent before `opened`, which then shows the first
   * bytecode member (or, when it has none, says so).
   */
  | { type: 'archive'; id: number; name: string; members: ArchiveEntry[] }
  | {
      type: 'opened';
      id: number;
      summary: Summary;
      /**
       * The uncompressed stream (`llvm` + body): what every offset refers to. When the container
       * itself could not be opened, the file's own bytes (its errors' offsets are file offsets).
       */
      stream: ArrayBuffer;
      streamIsFile: boolean;
      error: ErrorInfo | null;
      text: TextResult | null;
      /** Why there is no disassembly, if there is none (printer missing, or it failed). */
      textError: ErrorInfo | null;
      /** Which syntaxes this build can print. */
      syntaxes: Syntax[];
      canConvert: boolean;
      millis: { unwrap: number; read: number; print: number };
    }
  | {
      /** Sent after `opened`: the analyzer's block walk (slower, so it does not hold up the text). */
      type: 'analyzed';
      id: number;
      /** The summary again, completed with the analyzer's figures (and its version, if reading failed early). */
      summary: Summary;
      tree: BlockNode[];
      /** Why the block tree is missing or partial, if it is. */
      treeNote: string | null;
      millis: number;
    }
  | { type: 'printed'; id: number; text: TextResult | null; error: ErrorInfo | null }
  | { type: 'converted'; id: number; bytes: ArrayBuffer | null; fileName: string; error: ErrorInfo | null };
