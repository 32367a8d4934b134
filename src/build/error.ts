import { LlvmBytecodeError } from '../errors/library-error.js';
/**
 * `BuildError`: what the construction API throws when asked to build something LLVM 1.x would not
 * accept (an `add` of an `int` and a `uint`, a load from a non-pointer, a constant that does not
 * fit its type). The message names the operation and what is wrong with which operand, so the
 * mistake is found where it is made, not later by the verifier or the writer.
 *
 * @category Errors
 */
export class BuildError extends TypeError {
  override readonly name = 'BuildError';
  /** The operation refused (`add`, `int constant`, `addGlobal`, …). */
  readonly operation: string;

  constructor(operation: string, problem: string) {
    super(`${operation}: ${problem}`);
    this.operation = operation;
    // A TypeError (a misuse of the construction API), and one of the library's errors too.
    LlvmBytecodeError.brand(this);
  }
}
