import { LlvmBytecodeError } from '../errors/library-error.js';
/**
 * What the CLI reads is bounded before it is read: the first bytes are checked (a file that is not
 * the command's kind of input is refused at once: `dis /dev/zero` reads 8 bytes, not memory's
 * worth), then the whole is held to a documented maximum size (`maxInputSize`, docs/limits.md).
 */

/** How an input is read: a check of its first bytes, and a size it may not pass. */
export interface ReadBounds {
  /** Bytes past which the input is refused (`InputTooLarge`). */
  readonly maxSize?: number;
  /** Shown the first `headLength` bytes (fewer if the input is shorter) before more is read; throws to refuse. */
  readonly checkHead?: (head: Uint8Array) => void;
  /** How many bytes `checkHead` is shown (default 8). */
  readonly headLength?: number;
}

/** An input larger than the limit: reported as the limit, and how to raise it, nothing else. */
export class InputTooLarge extends LlvmBytecodeError {
  override readonly name = 'InputTooLarge';
  constructor(
    readonly limit: number,
    /** The input's size when it was known before reading (a regular file). */
    readonly size?: number,
  ) {
    super(
      `${size === undefined ? 'the input is larger than' : `the input is ${size} bytes, more than`} the limit of ${limit} bytes (maxInputSize; '--limit maxInputSize=N' raises it)`,
    );
  }
}

/** An input that is not the command's kind, refused on its first bytes. */
export class InputRefused extends LlvmBytecodeError {
  override readonly name = 'InputRefused';
}
