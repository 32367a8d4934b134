/**
 * The control-flow side of upgrading `invoke`/`unwind` (docs/upgrade.md, "Exceptions"): which
 * invokes stay invokes, which edges disappear, and which invoke results need a stack slot.
 *
 * LLVM 1.x defined an invoke's result at the end of its block, so it was usable wherever the
 * block dominated (even on the unwind path, where its value is garbage); modern IR defines it only
 * on the normal edge. A result with a use the normal edge does not dominate is *demoted*: stored
 * to a slot on the normal edge and loaded at each use (the load gives an undefined value exactly
 * where 1.x gave garbage). `opt`'s mem2reg/SROA turn the slot back into SSA values.
 *
 * Cost: linear in the function's size plus one dominator computation.
 */
import type { BasicBlock, Function, Instruction, Value } from '../graph/value.js';
import { ControlFlow, Dominators } from '../graph/dominators.js';

/**
 * `native`: `invoke` stays an invoke with a landing pad, `unwind` raises through the platform
 * unwinder. `abort`: `invoke` becomes `call` + `br`, `unwind` calls `abort()`.
 *
 * @category Upgrade
 */
export type ExceptionModel = 'native' | 'abort';

export const EXCEPTION_MODELS: readonly ExceptionModel[] = ['native', 'abort'];

/** An invoke that stays an invoke: its block, normal and unwind destinations. */
export interface NativeInvoke {
  readonly inst: Instruction;
  readonly block: BasicBlock;
  readonly normal: BasicBlock;
  readonly unwind: BasicBlock;
  /** The result is demoted (see the file comment). */
  readonly demoted: boolean;
  /** The demoted result's store needs a block of its own on the normal edge (the normal destination has other predecessors). */
  readonly splitNormalEdge: boolean;
}

export interface ExceptionPlan {
  /** Invokes kept as invokes, by their block. */
  readonly native: ReadonlyMap<BasicBlock, NativeInvoke>;
  /** Invokes flattened to call + br: unwind destination → (invoking block → removed edges). */
  readonly removedEdges: ReadonlyMap<BasicBlock, ReadonlyMap<BasicBlock, number>>;
  /** Results of native invokes that live in a stack slot. */
  readonly demoted: ReadonlySet<Instruction>;
}

function terminator(bb: BasicBlock): Instruction | undefined {
  return bb.instructions[bb.instructions.length - 1];
}

/**
 * Plans a function's invokes. `canStayInvoke(inst)` says whether the callee may be invoked in
 * modern IR (not an intrinsic, not inline asm); the others are flattened in either model.
 */
export function planExceptions(fn: Function, model: ExceptionModel, canStayInvoke: (inst: Instruction) => boolean): ExceptionPlan {
  const removedEdges = new Map<BasicBlock, Map<BasicBlock, number>>();
  const kept: { inst: Instruction; block: BasicBlock; normal: BasicBlock; unwind: BasicBlock }[] = [];
  for (const bb of fn.blocks) {
    const last = terminator(bb);
    if (last?.opcode !== 'invoke') continue;
    const normal = last.operands[1] as BasicBlock;
    const unwind = last.operands[2] as BasicBlock;
    if (model === 'native' && canStayInvoke(last)) {
      kept.push({ inst: last, block: bb, normal, unwind });
      continue;
    }
    let m = removedEdges.get(unwind);
    if (!m) removedEdges.set(unwind, (m = new Map()));
    m.set(bb, (m.get(bb) ?? 0) + 1);
  }
  const native = new Map<BasicBlock, NativeInvoke>();
  const demoted = new Set<Instruction>();
  if (kept.length === 0) return { native, removedEdges, demoted };

  const cfg = new ModernCfg(fn, new Set(kept.map((k) => k.block)));
  const uses = invokeResultUses(fn, new Set(kept.map((k) => k.inst)));
  for (const k of kept) {
    const users = uses.get(k.inst) ?? [];
    const needsSlot = users.some((u) => !cfg.resultReaches(k.block, k.normal, u));
    if (needsSlot) demoted.add(k.inst);
    native.set(k.block, { ...k, demoted: needsSlot, splitNormalEdge: needsSlot && !cfg.soleEdge(k.block, k.normal) });
  }
  return { native, removedEdges, demoted };
}

/** A use of an invoke's result: in `block` by an ordinary instruction, or by a phi entry coming from `from`. */
interface ResultUse {
  readonly block: BasicBlock;
  /** For a phi entry: the 1.x incoming block and whether this entry is the invoke's own unwind edge. */
  readonly from?: BasicBlock;
  readonly ownUnwindEdge?: boolean;
}

function invokeResultUses(fn: Function, results: ReadonlySet<Instruction>): Map<Instruction, ResultUse[]> {
  const uses = new Map<Instruction, ResultUse[]>();
  const add = (v: Value, use: ResultUse): void => {
    if (v.kind !== 'instruction' || !results.has(v)) return;
    let l = uses.get(v);
    if (!l) uses.set(v, (l = []));
    l.push(use);
  };
  for (const bb of fn.blocks) {
    for (const inst of bb.instructions) {
      if (inst.opcode !== 'phi') {
        for (const op of inst.operands) if (op) add(op, { block: bb });
        continue;
      }
      for (const [value, from, edge] of phiEdges(inst, bb)) add(value, { block: bb, from, ownUnwindEdge: edge === 'unwind' && value === terminator(from) });
    }
  }
  return uses;
}

/**
 * A phi's entries with the edge each one stands for when its incoming block ends in an invoke:
 * `unwind` when the block is reached from there only by unwinding, or for the second entry of a
 * block reached both ways (`invoke … to label %b except label %b`); otherwise `normal`.
 */
export function phiEdges(phi: Instruction, block: BasicBlock): [Value, BasicBlock, 'normal' | 'unwind'][] {
  const out: [Value, BasicBlock, 'normal' | 'unwind'][] = [];
  const seen = new Map<BasicBlock, number>();
  const ops = phi.operands;
  for (let i = 0; i + 1 < ops.length; i += 2) {
    const from = ops[i + 1] as BasicBlock;
    const t = terminator(from);
    let edge: 'normal' | 'unwind' = 'normal';
    if (t?.opcode === 'invoke' && t.operands[2] === block) {
      const n = seen.get(from) ?? 0;
      seen.set(from, n + 1);
      edge = t.operands[1] === block && n === 0 ? 'normal' : 'unwind';
    }
    out.push([ops[i]!, from, edge]);
  }
  return out;
}

/**
 * The modern CFG of a function as far as dominance goes: flattened invokes have lost their unwind
 * edge; a kept invoke's unwind edge passes through a landing-pad block, which changes no dominance
 * between the original blocks (the pad has one predecessor and one successor).
 */
class ModernCfg {
  private readonly index = new Map<BasicBlock, number>();
  private readonly succ: number[][];
  /** Predecessor edges of each block: the source block and whether it is a kept invoke's unwind edge. */
  private readonly preds: { from: number; unwind: boolean }[][];
  private readonly dom: Dominators;

  constructor(fn: Function, keptBlocks: ReadonlySet<BasicBlock>) {
    fn.blocks.forEach((bb, i) => this.index.set(bb, i));
    this.succ = fn.blocks.map(() => []);
    this.preds = fn.blocks.map(() => []);
    fn.blocks.forEach((bb, i) => {
      const t = terminator(bb);
      if (!t) return;
      const targets: [Value | undefined, boolean][] =
        t.opcode === 'invoke'
          ? keptBlocks.has(bb)
            ? [
                [t.operands[1], false],
                [t.operands[2], true],
              ]
            : [[t.operands[1], false]]
          : t.operands.map((o) => [o, false]);
      for (const [o, unwind] of targets) {
        const j = o?.kind === 'block' ? this.index.get(o) : undefined;
        if (j === undefined) continue;
        this.succ[i]!.push(j);
        this.preds[j]!.push({ from: i, unwind });
      }
    });
    const succ = this.succ;
    this.dom = new Dominators(
      new ControlFlow(succ.length, (b, out) => {
        for (const t of succ[b]!) out.push(t);
      }),
      succ.length,
    );
  }

  /** The normal edge is the destination's only predecessor edge. */
  soleEdge(block: BasicBlock, normal: BasicBlock): boolean {
    const p = this.preds[this.index.get(normal)!]!;
    return p.length === 1 && p[0]!.from === this.index.get(block) && !p[0]!.unwind;
  }

  /**
   * LLVM 16's rule: the result of the invoke ending `block` is available at `use`. An ordinary
   * use (or a phi entry, at the end of its incoming block) must be dominated by the normal edge;
   * a phi entry of the normal destination on that edge itself is fine, and the invoke's own unwind
   * edge gets `undef` (the call did not return), so neither needs a slot.
   */
  resultReaches(block: BasicBlock, normal: BasicBlock, use: ResultUse): boolean {
    if (use.from !== undefined) {
      if (use.ownUnwindEdge) return true;
      if (use.from === block && use.block === normal) return true;
      return this.edgeDominates(block, normal, use.from);
    }
    return this.edgeDominates(block, normal, use.block);
  }

  /** LLVM's `DominatorTree::dominates(BasicBlockEdge, BasicBlock)` for the normal edge of an invoke. */
  private edgeDominates(block: BasicBlock, normal: BasicBlock, at: BasicBlock): boolean {
    const b = this.index.get(block)!;
    const n = this.index.get(normal)!;
    const x = this.index.get(at);
    if (x === undefined || !this.dom.reachable(x)) return true;
    if (!this.dom.dominates(n, x)) return false;
    let normalEdges = 0;
    for (const p of this.preds[n]!) {
      if (p.from === b && !p.unwind && normalEdges++ === 0) continue;
      // Another edge into the normal destination (a kept invoke's unwind edge comes from its pad,
      // which the destination dominates exactly when it dominates the invoking block).
      if (!this.dom.dominates(n, p.from)) return false;
    }
    return true;
  }
}
