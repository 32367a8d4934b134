import { LlvmBytecodeError } from '../errors/library-error.js';

/**
 * The refusal of a module the verifier rejects (by the writer, the assembler, the builder);
 * `problems` lists every finding, each naming its place (function, block, instruction).
 *
 * @category Errors
 */
export class InvalidModuleError extends LlvmBytecodeError {
  override readonly name = 'InvalidModuleError';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    super(`invalid module: ${problems[0] ?? 'unknown problem'}${more}`);
    this.problems = problems;
  }
}
