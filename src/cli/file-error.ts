import { describeError } from './describe-error.js';

/** An error already tied to the file it concerns (input or output); a string is the message itself. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    readonly original: unknown,
    /** What was being done with the file when it failed, said before the reason. */
    readonly doing?: string,
  ) {
    const reason = typeof original === 'string' ? original : describeError(original);
    super(doing ? `${doing}: ${reason}` : reason);
  }
}
