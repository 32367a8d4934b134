/**
 * Use counts (`[#uses=N]`) and predecessor lists, computed over the whole module as LLVM had them
 * in memory. LLVM uniqued constants, so a constant expression or aggregate that refers to a global
 * is one user however many instructions share it, while the graph may hold several equal copies
 * (one per constant pool): constants are therefore keyed structurally before their operands are
 * counted. Constants never show a use count, so only uses *of* non-constants are tallied.
 */
import type { Type } from '../graph/type.js';
import type { BasicBlock, Constant, Function, Instruction, Value } from '../graph/value.js';
import { canonicalConstant } from './constants.js';
import { instructionsIn, type ModuleView } from './view.js';

export class UseCounts {
  private readonly counts = new Map<Value, number>();
  private readonly typeIds = new Map<Type, number>();
  private readonly globalIds = new Map<Value, number>();
  private readonly keys = new Map<Constant, string>();
  /** Structural keys of the distinct constants already counted. */
  private readonly seen = new Set<string>();

  constructor(
    view: ModuleView,
    private readonly foldCasts: boolean,
  ) {
    let id = 0;
    for (const g of view.globals) this.globalIds.set(g, id++);
    for (const f of view.functions) this.globalIds.set(f, id++);
    for (const g of view.globals) if (g.initializer !== undefined) this.use(g.initializer);
    for (const f of view.functions) for (const b of f.blocks) for (const i of instructionsIn(view, b)) for (const op of i.operands) this.use(op);
  }

  /** Number of uses of `v` (a global, argument, block or instruction). */
  of(v: Value): number {
    return this.counts.get(v) ?? 0;
  }

  /** Counts one use of `v` and, for a constant seen for the first time, the uses it makes. */
  use(v: Value): void {
    switch (v.kind) {
      case 'argument':
      case 'block':
      case 'instruction':
      case 'global':
      case 'function':
        this.counts.set(v, (this.counts.get(v) ?? 0) + 1);
        return;
      case 'expr':
      case 'array':
      case 'struct':
      case 'packed': {
        const c = canonicalConstant(v, this.foldCasts);
        if (c.kind !== 'expr' && c.kind !== 'array' && c.kind !== 'struct' && c.kind !== 'packed') return;
        const key = this.key(c);
        if (this.seen.has(key)) return;
        this.seen.add(key);
        for (const op of c.kind === 'expr' ? c.operands : c.elements) this.use(op);
        return;
      }
      default:
        return;
    }
  }

  private typeId(t: Type): number {
    let id = this.typeIds.get(t);
    if (id === undefined) {
      id = this.typeIds.size;
      this.typeIds.set(t, id);
    }
    return id;
  }

  private key(c: Constant): string {
    const cached = this.keys.get(c);
    if (cached !== undefined) return cached;
    let k: string;
    const t = this.typeId(c.type);
    switch (c.kind) {
      case 'global':
      case 'function':
        k = 'G' + (this.globalIds.get(c) ?? -1);
        break;
      case 'bool':
        k = (c.value ? 'T' : 'F') + t;
        break;
      case 'int':
        k = 'i' + t + ':' + c.value;
        break;
      case 'fp':
        k = 'f' + t + ':' + c.bits;
        break;
      case 'inlineasm':
        k = 'A' + t + ':' + JSON.stringify([c.asm, c.constraints, c.hasSideEffects]);
        break;
      case 'expr': {
        const cc = canonicalConstant(c, this.foldCasts);
        k = cc === c ? 'E' + t + c.opcode + '(' + c.operands.map((o) => this.key(o)).join(',') + ')' : this.key(cc);
        break;
      }
      case 'array':
      case 'struct':
      case 'packed': {
        const cc = canonicalConstant(c, this.foldCasts);
        k = cc === c ? c.kind[0]! + t + '(' + c.elements.map((o) => this.key(o)).join(',') + ')' : this.key(cc);
        break;
      }
      default:
        k = c.kind + t;
    }
    this.keys.set(c, k);
    return k;
  }
}

/**
 * Predecessors of each block of `f`, in the order LLVM listed them: LLVM walked a block's use
 * list, which holds the newest use first, keeping uses by terminators. Uses were made in reading
 * order (instruction by instruction, operand by operand), so the list is that order reversed.
 */
export function predecessors(view: ModuleView, f: Function): Map<BasicBlock, BasicBlock[]> {
  const preds = new Map<BasicBlock, BasicBlock[]>();
  for (const b of f.blocks) preds.set(b, []);
  for (const b of f.blocks) {
    for (const i of instructionsIn(view, b)) {
      if (!isTerminator(i)) continue;
      for (const op of i.operands) {
        if (op.kind !== 'block') continue;
        let list = preds.get(op);
        if (list === undefined) preds.set(op, (list = []));
        list.push(b);
      }
    }
  }
  for (const list of preds.values()) list.reverse();
  return preds;
}

function isTerminator(i: Instruction): boolean {
  switch (i.opcode) {
    case 'br':
    case 'switch':
    case 'invoke':
    case 'ret':
    case 'unwind':
    case 'unreachable':
      return true;
    default:
      return false;
  }
}
