/**
 * The engine's own limits, met by a module that nests deeper than the call stack allows (a chain
 * of thousands of constant expressions, each the operand of the next) or whose text would be
 * longer than a string can be. Each consumer turns these into its own typed error at its entry
 * point, naming itself, so that no input ends in a bare `RangeError`; the recursions that a
 * damaged file can drive without bound (type cycles, type and constant DAGs) are bounded where
 * they are, and this is the net under the rest.
 */
const EXHAUSTION = /^(Maximum call stack size exceeded|Invalid string length)$/;

/** Whether `e` is the engine running out of call stack or of string length. */
export function isEngineExhaustion(e: unknown): e is RangeError {
  return e instanceof RangeError && EXHAUSTION.test(e.message);
}

/** The plain words for an engine exhaustion, for a consumer's own error message. */
export function exhaustionWords(e: RangeError): string {
  return e.message.startsWith('Maximum') ? 'it nests too deeply (the call stack ran out)' : 'its text would be longer than a string can hold';
}
