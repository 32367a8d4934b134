/**
 * Upgrade: an LLVM 1.x module graph printed as modern textual LLVM IR (LLVM 16, opaque
 * pointers) that `llvm-as-16` accepts and `opt-16 -passes=verify` passes. The mapping, construct
 * by construct, with what each lowering loses, is docs/upgrade.md.
 */
import type { Module } from '../graph/module.js';
import { ModuleContext } from './module.js';

export { UpgradeError } from './ops.js';

/**
 * The module as LLVM 16 textual IR. Throws `UpgradeError` for the few constructs with no modern
 * form (see docs/upgrade.md, "Not upgradable"). Linear in the size of the module.
 */
export function printModern(module: Module): string {
  return new ModuleContext(module).print();
}
