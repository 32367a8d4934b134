/**
 * The LLVM releases `printModern` can write for, and what each no longer accepts in what we emit.
 *
 * LLVM 15 onwards removes constant expressions release by release
 * (https://discourse.llvm.org/t/rfc-remove-most-constant-expressions/63179): the parser then
 * refuses the text (`sext constexprs are no longer supported`). The table gives, for each modern
 * opcode we may print as a constant expression, the first release without it. The versions were
 * taken from the release notes and the removing commits, and those of 16, 19 and 22 measured with
 * Debian's `llvm-as-16`, `llvm-as-19` and `llvm-as-22` (docs/upgrade.md, "LLVM versions").
 */

/** The oldest and newest LLVM release the upgrade writes IR for. */
export const OLDEST_LLVM = 13;
export const NEWEST_LLVM = 22;

/**
 * The last release written with typed pointers (`i32*`): LLVM 13 reads no opaque-pointer
 * bitcode, and LLVM 14 only with `-opaque-pointers`; from 15 on the output uses `ptr`.
 */
export const LAST_TYPED_POINTERS = 14;

/** What `printModern` writes for when no version is given: the newest supported. */
export const DEFAULT_LLVM = NEWEST_LLVM;

/** The first LLVM release whose parser refuses the opcode as a constant expression. */
const REMOVED_IN: ReadonlyMap<string, number> = new Map([
  // LLVM 15 (D129148 and its siblings): division, remainder and all floating-point arithmetic.
  ['udiv', 15],
  ['sdiv', 15],
  ['urem', 15],
  ['srem', 15],
  ['fadd', 15],
  ['fsub', 15],
  ['fmul', 15],
  ['fdiv', 15],
  ['frem', 15],
  // LLVM 17: select (D145382). `and` (D155924) landed around the LLVM 17 branch point; it is
  // treated as gone from 17, so that our output never depends on which side it fell.
  ['select', 17],
  ['and', 17],
  // LLVM 18: or, the right shifts, the integer extensions and every floating-point cast.
  ['or', 18],
  ['lshr', 18],
  ['ashr', 18],
  ['zext', 18],
  ['sext', 18],
  ['fptrunc', 18],
  ['fpext', 18],
  ['fptoui', 18],
  ['fptosi', 18],
  ['uitofp', 18],
  ['sitofp', 18],
  // LLVM 19: comparisons (#93038) and shl (#96037).
  ['icmp', 19],
  ['fcmp', 19],
  ['shl', 19],
  // LLVM 21: mul (release notes of 21.1.0).
  ['mul', 21],
]);

/** An LLVM major version the upgrade supports (13 … 22). */
export type LlvmVersion = number;

/** Throws a RangeError naming the supported range unless `n` is one of its versions. */
export function checkLlvmVersion(n: number): LlvmVersion {
  if (!Number.isInteger(n) || n < OLDEST_LLVM || n > NEWEST_LLVM) {
    throw new RangeError(`LLVM ${n} is not supported: choose a version from ${OLDEST_LLVM} to ${NEWEST_LLVM}`);
  }
  return n;
}

/** Whether LLVM `n`'s parser still takes `opcode` (a modern opcode) as a constant expression. */
export function acceptsConstantExpr(n: LlvmVersion, opcode: string): boolean {
  const removed = REMOVED_IN.get(opcode);
  return removed === undefined || n < removed;
}

/** The constant-expression opcodes LLVM `n` no longer accepts (for documentation and tests). */
export function removedConstantExprs(n: LlvmVersion): string[] {
  return [...REMOVED_IN].filter(([, v]) => n >= v).map(([op]) => op);
}
