import { BytecodeError } from '../errors/bytecode-error.js';

/**
 * A malformed archive. A `BytecodeError` whose offset is the byte in the archive and whose block
 * path names the member (`member #3`, with its name once known), so the CLI reports it like any
 * other format error.
 *
 * @category Errors
 */
export class ArchiveError extends BytecodeError {}

/** `member #N` or `member #N 'name'`, the name escaped and shortened (names come from the file). */
export function memberLabel(index: number, name?: string): string {
  return name === undefined ? `member #${index}` : `member #${index} '${printable(name)}'`;
}

/** Text from the file, for a message: control and high bytes escaped, at most 80 characters. */
export function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = s.replace(/[\x00-\x1f\x7f-\xff\\']/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return escaped.length > 80 ? `${escaped.slice(0, 80)}...` : escaped;
}
