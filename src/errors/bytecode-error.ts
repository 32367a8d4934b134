import { LlvmBytecodeError, type ErrorPosition } from './library-error.js';

/**
 * The one error type for anything wrong with the bytes of a file.
 *
 * `offset` is the absolute byte offset in the (decompressed) bytecode stream where the reader
 * found the problem — the stream as if it followed the `llvm` signature, so offset 4 is the first
 * byte after the signature. `blockPath` names the nesting of blocks the reader was inside, outermost
 * first, e.g. `["Module", "Function #3", "InstructionList"]`.
 *
 * @category Errors
 */
export class BytecodeError extends LlvmBytecodeError {
  override readonly name = 'BytecodeError';
  readonly offset: number;
  readonly blockPath: readonly string[];
  /** The bare message, without the offset and block path that `message` appends. */
  readonly reason: string;

  constructor(reason: string, offset: number, blockPath: readonly string[] = []) {
    super(`${reason} (offset ${offset}${blockPath.length ? `, in ${blockPath.join('/')}` : ''})`);
    this.reason = reason;
    this.offset = offset;
    this.blockPath = blockPath;
  }

  override get position(): ErrorPosition {
    return { kind: 'bytes', offset: this.offset, blockPath: this.blockPath };
  }
}
