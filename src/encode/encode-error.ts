import { LlvmBytecodeError } from '../errors/library-error.js';
/**
 * The writer's one error: the module holds something the target bytecode version cannot express
 * (or that no LLVM writer could have produced). `construct` names the thing, `version` the target.
 *
 * @category Errors
 */
export class EncodeError extends LlvmBytecodeError {
  override readonly name = 'EncodeError';
  readonly construct: string;
  readonly version: number;

  constructor(construct: string, version: number, detail?: string) {
    super(`${construct} cannot be written in bytecode version ${version}${detail ? `: ${detail}` : ''}`);
    this.construct = construct;
    this.version = version;
  }
}

/**
 * The writer's refusal of something the module refers to but does not hold: a value or type of
 * another module, or an operand left empty. (The verifier finds these first; `verify: false`
 * reaches this.)
 */
export function notInModule(what: string, version: number): EncodeError {
  return new EncodeError(what, version, 'it does not belong to the module being written (a value or type of another module, or a missing operand)');
}

/** Why version 7 refuses an LLVM 1.x module or type: the writer's entry and its type writer say it alike. */
export const CONVERT_FIRST =
  "version 7 has signless integers only: convert the module first with convertToVersion7(module), as the CLI's rewrite --bytecode-version 7 does";
