import { LlvmBytecodeError } from '../errors/library-error.js';
/**
 * The printer's one error: a module graph it cannot print. No module read from a file LLVM wrote
 * meets it; a damaged one can (a constant that contains itself, a type whose text would exceed
 * `MAX_TYPE_TEXT`, constants nested deeper than the call stack allows).
 *
 * @category Errors
 */
export class PrintError extends LlvmBytecodeError {
  override readonly name = 'PrintError';
}
