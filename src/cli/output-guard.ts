/**
 * The one check every command makes before it reads anything: the output is none of its inputs.
 * Two paths are one file when their device and inode agree (through symbolic and hard links);
 * standard input or output redirected to the file counts too (docs/cli-safety.md).
 */
import { FileError } from './file-error.js';
import type { CliIo, FileIdentity } from './io.js';

/** The label for standard input in messages, as llvm-dis showed it in `; ModuleID`. */
export const STDIN_LABEL = '<stdin>';
/** The label for standard output in messages. */
export const STDOUT_LABEL = '<stdout>';

/** Whether two identities are one file. */
export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** An input as messages name it (`label`) and the file whose identity counts (an archive member's archive). */
export interface GuardedInput {
  readonly label: string;
  readonly file: string;
}

/**
 * Throws a FileError when `output` ('-' = standard output) is one of `inputs` ('-' = standard
 * input): "the input" for a command of one input, "an input" for several.
 */
export function refuseOutputOverInputs(inputs: readonly (string | GuardedInput)[], output: string, io: CliIo): void {
  if (!io.identity) return;
  const sink = output === '-' ? io.standardIdentity?.(1) : io.identity(output);
  if (sink === undefined) return;
  for (const input of inputs) {
    const { label, file } = typeof input === 'string' ? { label: input, file: input } : input;
    const source = file === '-' ? io.standardIdentity?.(0) : io.identity(file);
    if (source !== undefined && sameIdentity(source, sink)) {
      const which = inputs.length === 1 ? 'the input' : 'an input';
      throw new FileError(
        output === '-' ? STDOUT_LABEL : output,
        `refusing to write over ${which}: it is the same file as ${label === '-' ? STDIN_LABEL : label} (nothing was read or written)`,
      );
    }
  }
}
