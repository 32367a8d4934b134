/**
 * Upgrade: an LLVM 1.x module graph printed as modern textual LLVM IR (LLVM 16, opaque
 * pointers) that `llvm-as-16` accepts and `opt-16 -passes=verify` passes. The mapping, construct
 * by construct, with what each lowering loses, is docs/upgrade.md.
 */
import type { Module } from '../graph/module.js';
import { exhaustionWords, isEngineExhaustion } from '../errors/exhaustion.js';
import { ModuleContext } from './module.js';
import { UpgradeError } from './upgrade-error.js';

export { UpgradeError };

/**
 * The module as LLVM 16 textual IR. Throws `UpgradeError` for the few constructs with no modern
 * form (see docs/upgrade.md, "Not upgradable"), among them a type that contains itself other
 * than through a pointer, and for a damaged module nested deeper than the call stack allows.
 * Linear in the size of the module.
 */
export function printModern(module: Module): string {
  try {
    return new ModuleContext(module).print();
  } catch (e) {
    if (isEngineExhaustion(e)) throw new UpgradeError(`the module cannot be upgraded: ${exhaustionWords(e)}`);
    throw e;
  }
}
