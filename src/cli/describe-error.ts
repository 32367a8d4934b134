/** One line describing any thrown value, as the CLI's error lines show it. */

/** Plain words for the file-system errors a user meets; the library's own messages otherwise. */
const ERRNO_WORDS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
};

/**
 * The library's typed errors, each a consumer's refusal of what a file holds: the reader's
 * `BytecodeError`, the writer's `EncodeError` and `InvalidModuleError` (its verifier), the
 * printer's `PrintError`, the upgrade's `UpgradeError`, the assembler's `AssemblyError`, the
 * version-7 conversion's `ConversionError`, the linker's `LinkError` and the archive's `ArchiveError`.
 * Nothing a file can cause is anything else; any other error is our bug.
 */
const USER_ERRORS = new Set(['BytecodeError', 'EncodeError', 'InvalidModuleError', 'PrintError', 'UpgradeError', 'AssemblyError', 'ConversionError', 'LinkError', 'ArchiveError']);

/** The fields of an `AssemblyError` the CLI shows (duck-typed: the assembler loads on demand). */
export interface AssemblyErrorLike {
  reason: string;
  line: number;
  column: number;
  sourceLine: string;
}

export function isAssemblyError(e: unknown): e is Error & AssemblyErrorLike {
  return e instanceof Error && e.name === 'AssemblyError';
}

/**
 * An assembly error as a compiler shows it: `FILE:LINE:COL: error: REASON`, then the source line
 * and a caret under the column (control bytes of the line made visible, as in every message).
 */
export function describeAssemblyError(file: string, e: AssemblyErrorLike): string {
  const shown = e.sourceLine.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '?');
  return `${file}:${e.line}:${e.column}: ${oneLine(e.reason)}\n${shown}\n${' '.repeat(Math.max(0, e.column - 1))}^`;
}

/** One line describing any thrown value. */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code in ERRNO_WORDS) return ERRNO_WORDS[code]!;
    // The library's own errors are meant for users (a BytecodeError carries the offset and block
    // path; EncodeError and UpgradeError name what the target cannot express); anything else is
    // our bug, and says so.
    if (isAssemblyError(e)) return oneLine(`${e.reason} (line ${e.line}, column ${e.column})`);
    const known = USER_ERRORS.has(e.name) || typeof code === 'string';
    return oneLine(known ? e.message : `internal error (${e.name}): ${e.message}`);
  }
  return oneLine(`internal error: ${String(e)}`);
}

/**
 * Keeps a message on one line and harmless to a terminal: messages may quote names from the file,
 * which can hold any byte, so line breaks become spaces and other control bytes `\xNN`.
 */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
