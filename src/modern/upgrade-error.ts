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

/**
 * A constant expression the chosen LLVM no longer accepts, in a place that takes no instructions
 * (a global's initializer, an alias), whose value the upgrade cannot compute: typically one over
 * addresses, known only once the program is linked (`sext (i32 ptrtoint (ptr @g to i32) to i64)`).
 * `global` names the global whose initializer holds it (empty while the constant is being
 * printed, before the module knows where it is).
 */
export class UnfoldableConstantError extends UpgradeError {
  constructor(
    /** The construct, as it would have been printed: `zext (i32 ptrtoint (ptr @g to i32) to i64)`. */
    readonly construct: string,
    /** The LLVM major version written for. */
    readonly llvm: number,
    /** The global (`@g`) whose initializer holds it. */
    readonly global = '',
  ) {
    super(
      `${global ? `${global}: its initializer holds` : 'a constant holds'} '${construct}', a constant expression LLVM ${llvm} no longer accepts, ` +
        'whose value is not known before the program is linked (upgrade for an older LLVM, or see docs/upgrade.md, "LLVM versions")',
    );
  }

  /** The same refusal, naming the global that holds the construct. */
  in(global: string): UnfoldableConstantError {
    return new UnfoldableConstantError(this.construct, this.llvm, global);
  }
}
