/**
 * Edits of function bodies made by the passes LLVM ran after parsing (obsolete-varargs.ts,
 * intrinsic-upgrade.ts), gathered and applied in one pass over each block and the module.
 *
 * LLVM inserted before an instruction and replaced all uses of a value through its linked lists
 * and use lists, each step costing nothing of the rest of the body. Doing each step at once on
 * arrays (`indexOf` and `splice` per call rewritten, a walk of the whole module per use replaced)
 * made a text with thousands of such calls quadratic: 8,000 `vaarg` lines in one function, 188 KiB
 * of text, took 18 s. The result is the same when applied at the end: every inserted instruction
 * goes right before its anchor, in the order inserted, every replacement value is a new
 * instruction (or constant), never one that is itself replaced, and a rewrite that reads an operand
 * in the meantime asks `current` for it.
 */
import type { Module } from '../graph/module.js';
import type { BasicBlock, Instruction, Value } from '../graph/value.js';

export class BlockEdits {
  private readonly before = new Map<Instruction, Instruction[]>();
  private readonly removed = new Set<Instruction>();
  private readonly blocks = new Set<BasicBlock>();
  private readonly replacements = new Map<Value, Value>();

  /** Puts `inst` before `anchor` (after what was put there before), once `apply` runs. */
  insertBefore(block: BasicBlock, anchor: Instruction, inst: Instruction): void {
    this.blocks.add(block);
    const list = this.before.get(anchor);
    if (list === undefined) this.before.set(anchor, [inst]);
    else list.push(inst);
  }

  /** Takes `inst` out of its block, once `apply` runs. */
  remove(block: BasicBlock, inst: Instruction): void {
    this.blocks.add(block);
    this.removed.add(inst);
  }

  /** Every operand in the module's bodies that is `from` becomes `to`, once `apply` runs. */
  replaceAllUses(from: Value, to: Value): void {
    this.replacements.set(from, to);
  }

  /**
   * What `v` stands for now: its replacement if one was asked for, so a rewrite that reads an
   * operand sees what LLVM's would have seen after replacing at once.
   */
  current(v: Value): Value {
    return this.replacements.get(v) ?? v;
  }

  /** Makes the edits: each touched block rebuilt once, then one walk of the bodies for the uses. */
  apply(module: Module): void {
    for (const block of this.blocks) {
      const out: Instruction[] = [];
      for (const inst of block.instructions) {
        const inserted = this.before.get(inst);
        if (inserted !== undefined) out.push(...inserted);
        if (!this.removed.has(inst)) out.push(inst);
      }
      // In place: the array is the block's, whoever else holds it.
      const list = block.instructions;
      list.length = out.length;
      for (let i = 0; i < out.length; i++) list[i] = out[i]!;
    }
    if (this.replacements.size > 0) {
      const map = this.replacements;
      for (const fn of module.functions) {
        for (const block of fn.blocks) {
          for (const inst of block.instructions) {
            const ops = inst.operands;
            for (let k = 0; k < ops.length; k++) {
              const to = map.get(ops[k]!);
              if (to !== undefined) ops[k] = to;
            }
          }
        }
      }
    }
    this.before.clear();
    this.removed.clear();
    this.blocks.clear();
    this.replacements.clear();
  }
}
