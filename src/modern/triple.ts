/**
 * The `target triple` choice of the upgrade, and its one default, shared by `printModern` and the
 * CLI's `upgrade` (which imports this small module alone, so that a start of the CLI does not load
 * the upgrader).
 */

/**
 * What `target triple` the upgraded module says: `'keep'` the module's own (when LLVM 16 knows
 * its architecture), `'none'` no triple (LLVM's tools then use the host they run on), or any other
 * string: that triple.
 *
 * @category Upgrade
 */
export type TripleChoice = 'keep' | 'none' | (string & {});

/**
 * `'none'`: a 1.x module's triple names the machine it was compiled for, most often
 * `i686-pc-linux-gnu`, and `lli-16` on an x86-64 host JIT-compiles such a module as 32-bit code
 * into its 64-bit process and crashes. Without a triple the result runs on the host that compiles
 * it, which is what someone upgrading an old file wants first; `'keep'` is there to compile for
 * the old target (docs/upgrade.md, "The target triple").
 */
export const DEFAULT_TRIPLE: TripleChoice = 'none';
