/** One line describing any thrown value, as the CLI's error lines show it. */

import { AssemblyError } from '../asm/assembly-error.js';
import { LlvmBytecodeError } from '../errors/library-error.js';

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
 * What the CLI shows a user is decided by class, never by an error's name: an error of the
 * library's family (`LlvmBytecodeError`: the reader's, the writer's, the verifier's, the printer's,
 * the upgrade's, the assembler's, the conversion's, the linker's, the archive's, and the CLI's own
 * refusals of an input on its first bytes or its size, bounded-read.ts) is a refusal of what a file
 * holds and is shown as it is; a file-system error by its words; anything else is our bug, and says so.
 */

/** An assembly error: the family's errors that have a line and column in a text. */
export function isAssemblyError(e: unknown): e is AssemblyError {
  return e instanceof AssemblyError && e.position.kind === 'text';
}

/** The fields of an `AssemblyError` the CLI shows. */
export type AssemblyErrorLike = Pick<AssemblyError, 'reason' | 'line' | 'column' | 'sourceLine'>;

/**
 * An assembly error as a compiler shows it: `FILE:LINE:COL: error: REASON`, then the source line
 * and a caret under the column. The line is shown in printable characters only (any other byte
 * as `\xNN`: a binary file given by mistake must not write raw bytes to a terminal), a long
 * line as the part around the column, and the caret line keeps the line's tabs, so that the
 * caret stands under the column whatever the terminal's tab stops.
 */
export function describeAssemblyError(file: string, e: AssemblyErrorLike): string {
  const column = Math.max(1, e.column);
  let line = e.sourceLine;
  let at = column - 1;
  // A long line (a binary file has no line breaks to speak of): the part around the column.
  const before = 60;
  const after = 60;
  let prefix = '';
  let suffix = '';
  if (at > before) {
    line = line.slice(at - before);
    at = before;
    prefix = '...';
  }
  if (line.length > at + after) {
    line = line.slice(0, at + after);
    suffix = '...';
  }
  let shown = prefix;
  let caret = ' '.repeat(prefix.length);
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    const visible = c === '\t' || (c >= ' ' && c <= '~') ? c : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
    shown += visible;
    if (i < at) caret += c === '\t' ? '\t' : ' '.repeat(visible.length);
  }
  if (at > line.length) caret += ' '.repeat(at - line.length);
  return `${file}:${e.line}:${e.column}: ${oneLine(e.reason)}\n${shown}${suffix}\n${caret}^`;
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
    const known = e instanceof LlvmBytecodeError || typeof code === 'string';
    return oneLine(known ? withLimitOption(e.message) : `internal error (${e.name}): ${e.message}`);
  }
  return oneLine(`internal error: ${String(e)}`);
}

/**
 * A limit the library names in a message, `(maxDecompressedSize)` or `(limit maxArchiveMembers)`,
 * with the option that raises it: the library's messages are the CLI's users' too.
 */
function withLimitOption(message: string): string {
  if (message.includes("'--limit ")) return message;
  return message.replace(/\((?:limit )?(max[A-Z][A-Za-z]*)\)/, (_all, name: string) => `(${name}; '--limit ${name}=N' raises it)`);
}

/**
 * Keeps a message on one line and harmless to a terminal: messages may quote names from the file,
 * which can hold any byte, so line breaks become spaces and other control characters (C0, DEL, C1)
 * `\xNN`.
 */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
