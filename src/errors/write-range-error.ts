import { LlvmBytecodeError } from './library-error.js';

/**
 * The writers' refusal of a value its field cannot hold: a number past the field's width, a
 * string with a character above U+00FF (bytecode strings hold bytes), a block too big for its
 * header, data too big to compress in WebAssembly's memory. A module can carry such values (a name typed by a user, a huge constant), so this is a
 * problem in the module, not a bug: `writeModule` reports it as an `EncodeError` naming `what`.
 *
 * @category Errors
 */
export class WriteRangeError extends LlvmBytecodeError {
  override readonly name = 'WriteRangeError';
  constructor(
    /** The field that could not hold the value, e.g. `uint32`, `block size`, `string`. */
    readonly what: string,
    message: string,
  ) {
    super(message);
  }
}
