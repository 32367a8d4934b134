/**
 * Where an error of the family is: a byte offset and block path in a stream, or a line and
 * column in a text.
 *
 * @category Errors
 */
export type ErrorPosition =
  | { readonly kind: 'bytes'; readonly offset: number; readonly blockPath: readonly string[] }
  | { readonly kind: 'text'; readonly line: number; readonly column: number };

const BRAND: unique symbol = Symbol.for('llvm-bytecode.error');

/**
 * The base of every error this library throws for a problem in its input or in a module: bad
 * bytes (`BytecodeError`, `ArchiveError`, `UnsupportedVersionError`), bad assembly text
 * (`AssemblyError`), a module a version cannot hold (`EncodeError`; `WriteRangeError` for a value a
 * written field cannot hold), the verifier's refusal
 * (`InvalidModuleError`), the printer's (`PrintError`), the upgrade's (`UpgradeError`), the
 * linker's (`LinkError`), the version-7 conversion's (`ConversionError`) and the builder's
 * (`BuildError`). `catch (e) { if (e instanceof LlvmBytecodeError) … }` tells them from bugs.
 *
 * `position` says where, as far as the error knows: a byte offset and block path in a stream, or
 * a line and column in a text; undefined for an error about a module as a whole.
 *
 * `BuildError` stays a `TypeError` (a misuse of the construction API, as documented) and is
 * recognised by a brand instead of the prototype chain; `instanceof` on every subclass is the
 * ordinary one.
 *
 * @category Errors
 */
export class LlvmBytecodeError extends Error {
  override readonly name: string = 'LlvmBytecodeError';
  /** Where the problem is, as far as this error knows. */
  get position(): ErrorPosition | undefined {
    return undefined;
  }

  /** Marks `error` (an error of ours that must extend another built-in) as one of the family. */
  static brand<E extends Error>(error: E): E {
    Object.defineProperty(error, BRAND, { value: true });
    return error;
  }

  /**
   * `instanceof`: the ordinary prototype test on every subclass; on `LlvmBytecodeError` itself, also
   * true for the branded errors of the family that extend another built-in (`BuildError`).
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses answer as usual; the base also recognises the branded errors.
    if (this !== LlvmBytecodeError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return Function.prototype[Symbol.hasInstance].call(this, value) || (value instanceof Error && Object.hasOwn(value, BRAND));
  }
}
