import { LlvmBytecodeError } from '../errors/library-error.js';
/**
 * The upgrade's one error: the module holds something LLVM 16 IR cannot express (docs/upgrade.md,
 * "Not upgradable"), such as a type that contains itself other than through a pointer.
 *
 * @category Errors
 */
export class UpgradeError extends LlvmBytecodeError {
  override readonly name = 'UpgradeError';
}
