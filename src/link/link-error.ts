import { LlvmBytecodeError } from '../errors/library-error.js';
/**
 * A link LLVM 1.9's `llvm-link` refused. `message` is the reason LLVM gave, word for word (its
 * `Linker::LinkModules` error string, or `linked module is broken!` when its verifier refused the
 * result); `moduleIndex` is the input being linked in when it happened (0 for the first).
 *
 * @category Errors
 */
export class LinkError extends LlvmBytecodeError {
  override readonly name = 'LinkError';

  constructor(
    message: string,
    readonly moduleIndex: number,
  ) {
    super(message);
  }
}
