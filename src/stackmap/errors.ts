import { BytecodeError } from '../errors/bytecode-error.js';

/**
 * A stack map section or an object file that cannot be read as one. A `BytecodeError` (the
 * project's one error family for bad bytes): `offset` is the byte in the input the reader was at
 * (in the object file when the section came from one), and `blockPath` names where, outermost
 * first, e.g. `['ELF section .llvm_stackmaps', 'record #3', 'location #2']`, so the CLI reports it
 * like any other format error.
 *
 * `fork` is set when the bytes are a known fork's variant that this library recognises but does
 * not read (LLILC's flat version 2, ykllvm's extended version 3): the section is not damaged,
 * it is another format.
 */
export class StackMapError extends BytecodeError {
  readonly fork: string | undefined;

  constructor(reason: string, offset: number, blockPath: readonly string[] = [], fork?: string) {
    super(reason, offset, blockPath);
    this.fork = fork;
  }
}
