/**
 * What each command takes as input, judged on the first bytes before anything more is read (see
 * bounded-read.ts): bytecode starts `llvm` or `llvc`, an archive `!<arch>`, assembly text has no
 * NUL byte. A refusal is the reader's own message for a wrong signature (so `dis` and `analyze`
 * say the same thing whether or not the rest was read), or, for text, what the bytes are.
 */
import { describeBytes, unwrapContainer } from '../container/container.js';
import { limitsForReading, type CliLimits } from './cli-limits.js';
import { InputRefused, type ReadBounds } from './bounded-read.js';

/** The kinds of input a command reads. */
export type InputKind = 'bytecode' | 'bytecode-or-archive' | 'bytecode-or-text' | 'text' | 'archive' | 'any';

/** The first bytes the check is shown: enough for every signature and a look into text. */
export const HEAD_LENGTH = 64;

function startsWithText(head: Uint8Array, text: string): boolean {
  if (head.length < text.length) return false;
  for (let i = 0; i < text.length; i++) if (head[i] !== text.charCodeAt(i)) return false;
  return true;
}

export function isBytecodeHead(head: Uint8Array): boolean {
  return startsWithText(head, 'llvm') || startsWithText(head, 'llvc');
}

export function isArchiveHead(head: Uint8Array): boolean {
  return startsWithText(head, '!<arch>\n');
}

/** Refuses a head that is not bytecode with the reader's message (short files are left to it). */
function checkBytecode(head: Uint8Array): void {
  if (head.length < 4 || isBytecodeHead(head)) return;
  unwrapContainer(head.subarray(0, 8)); // throws the reader's "not LLVM bytecode: …" error
}

/** Refuses a head that cannot be assembly text. */
function checkText(head: Uint8Array): void {
  if (isBytecodeHead(head)) throw new InputRefused(`this is LLVM bytecode, not assembly text ('dis' prints it as text)`);
  const nul = head.indexOf(0);
  if (nul >= 0) {
    throw new InputRefused(`not LLVM assembly text: it has a NUL byte at offset ${nul}, which text never has; it starts ${describeBytes(head.subarray(0, 8))}`);
  }
}

const CHECKS: Record<InputKind, ((head: Uint8Array) => void) | undefined> = {
  bytecode: checkBytecode,
  'bytecode-or-archive': (head) => {
    if (!isArchiveHead(head)) checkBytecode(head);
  },
  'bytecode-or-text': (head) => {
    if (head.length >= 4 && !isBytecodeHead(head) && head.includes(0)) checkBytecode(head);
  },
  text: checkText,
  archive: (head) => {
    if (head.length > 0 && !isArchiveHead(head))
      throw new InputRefused(`not an archive: it starts ${describeBytes(head.subarray(0, 8))} where '!<arch>' was expected`);
  },
  any: undefined,
};

/** How an input of `kind` is read under `limits`. */
export function boundsFor(kind: InputKind, limits: CliLimits): ReadBounds {
  const check = CHECKS[kind];
  return { maxSize: limitsForReading(limits).maxInputSize, ...(check ? { checkHead: check, headLength: HEAD_LENGTH } : {}) };
}
