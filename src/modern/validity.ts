/**
 * The upgrade's precondition: the module must be one LLVM itself would have taken. A damaged file
 * can read into a module no LLVM 1.x accepted (a use its definition does not dominate, a `ret`
 * of the wrong type, a branch back to the entry block); its upgrade would be IR that `llvm-as`
 * and `opt -passes=verify` refuse, and its bitcode a file LLVM's reader rejects. Such a module is
 * refused up front, naming the first problem, rather than written as output no LLVM takes
 * (found by `npm run fuzz:upgrade`, docs/fuzzing.md).
 */
import type { Module } from '../graph/module.js';
import { compactBodyOf, operandStart, TAG_BLOCK, type CompactBody } from '../graph/compact-body.js';
import type { Function } from '../graph/value.js';
import { verifyModule } from '../verify/verify.js';
import { UpgradeError } from './upgrade-error.js';

/**
 * `print()`, for a module with a valid modern form; throws what `print` throws first (the
 * printer's own refusals, a type that contains itself, …, name the construct), else
 * `UpgradeError` naming the first reason the module has no valid modern form.
 *
 * The module's rules are checked before printing although their verdict is given after: a body
 * read from a file is checked where it lies, in its compact form, cheaply (verify.ts), and
 * printing turns it into objects, over which the same check costs three times as much. What the
 * check throws (a module nested deeper than the call stack allows) waits for the printer too.
 */
export function printUpgradable<T>(module: Module, print: () => T): T {
  let problems: string[] = [];
  let failure: { error: unknown } | undefined;
  try {
    problems = moduleProblems(module);
  } catch (error) {
    failure = { error };
  }
  const result = print();
  if (failure !== undefined) throw failure.error;
  refuse(module, problems);
  return result;
}

/**
 * The module's own rules (LLVM 1.x's for versions 0–6, r36867's for 7): linear, and cached on
 * compact bodies. For a module read from bytes, where damage comes from; one built in code is its
 * builder's to verify (the upgrade widens, for one, a malloc count of a signed type).
 */
function moduleProblems(module: Module): string[] {
  return module.source === undefined ? [] : verifyModule(module, { maxProblems: 1 });
}

function refuse(module: Module, problems: readonly string[]): void {
  if (problems.length > 0) throw new UpgradeError(`the module is not valid (${problems[0]}), so neither is its upgrade`);
  // What LLVM 1.9's Verifier checked and our 1.x rules do not yet (src/verify/rules.ts, `signatureRules`).
  for (const f of module.functions) {
    if (f.linkage === 'appending') throw new UpgradeError(`@${f.name ?? '(unnamed)'}: only global variables can have appending linkage, not a function`);
    if (!f.isDeclaration && entryHasPredecessors(f))
      throw new UpgradeError(`@${f.name ?? '(unnamed)'}: its entry block is the target of a branch, which LLVM never allowed`);
  }
  for (const g of module.globals) {
    if (g.linkage === 'appending' && g.valueType.kind !== 'array')
      throw new UpgradeError(`@${g.name ?? '(unnamed)'}: only global arrays can have appending linkage`);
  }
}

function entryHasPredecessors(f: Function): boolean {
  // A body still compact is read there: `f.blocks` would build an object per instruction.
  const compact = compactBodyOf(f);
  if (compact !== undefined) return compactEntryHasPredecessors(compact);
  const blocks = f.blocks;
  const entry = blocks[0];
  if (entry === undefined) return false;
  for (let b = 0; b < blocks.length; b++) {
    const insts = blocks[b]!.instructions;
    const last = insts[insts.length - 1];
    if (last === undefined) continue;
    const ops = last.operands;
    for (let i = 0; i < ops.length; i++) if (ops[i] === entry) return true;
  }
  return false;
}

/** `entryHasPredecessors` of a compact body (graph/compact-body.ts: operand codes, blocks by their ends). */
function compactEntryHasPredecessors(body: CompactBody): boolean {
  const { data, instructionCount: n, blockCount } = body;
  const operandBase = 2 * n + blockCount;
  const entry = TAG_BLOCK; // block 0
  let first = 0;
  for (let b = 0; b < blockCount; b++) {
    const end = data[2 * n + b]!;
    if (end > first) {
      const last = end - 1;
      for (let k = operandStart(data, n, last), stop = data[n + last]!; k < stop; k++) if (data[operandBase + k] === entry) return true;
    }
    first = end;
  }
  return false;
}
