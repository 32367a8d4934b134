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

const USER_ERRORS = new Set(['BytecodeError', 'EncodeError', 'UpgradeError']);

/** One line describing any thrown value. */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code in ERRNO_WORDS) return ERRNO_WORDS[code]!;
    // The library's own errors are meant for users (a BytecodeError carries the offset and block
    // path; EncodeError and UpgradeError name what the target cannot express); anything else is
    // our bug, and says so.
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
