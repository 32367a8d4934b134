/**
 * Use counts (`[#uses=N]`) and predecessor lists, computed over the whole module as LLVM had them
 * in memory. LLVM uniqued constants, so a constant expression or aggregate that refers to a global
 * is one user however many instructions share it, while the graph may hold several equal copies
 * (one per constant pool): constants are therefore keyed structurally before their operands are
 * counted. Constants never show a use count, so only uses *of* non-constants are tallied.
 */
import type { Type } from '../graph/type.js';
import type { BasicBlock, Constant, Function, Instruction, Value } from '../graph/value.js';
import { BytecodeError } from '../errors/bytecode-error.js';
import { canonicalConstant } from './constants.js';
import { instructionsIn, type ModuleView } from './view.js';

/**
 * What the printer needs about a non-constant value, kept in one record so that printing a line
 * costs one lookup: its number of uses and its slot number (-1 when it has none).
 */
export interface ValueInfo {
  uses: number;
  slot: number;
}

export class UseCounts {
  /** Records of globals, arguments, blocks and instructions (slots are filled in by slots.ts). */
  readonly info = new Map<Value, ValueInfo>();
  private readonly typeIds = new Map<Type, number>();
  private readonly globalIds = new Map<Value, number>();
  private readonly keys = new Map<Constant, string>();
  /** Structural keys of the distinct constants already counted. */
  private readonly seen = new Set<string>();
  /** Constants whose key or operands are being walked (a cycle can only come from bad input). */
  private readonly active = new Set<Constant>();
  private readonly keyActive = new Set<Constant>();
  private readonly mentions = new Map<Constant, boolean>();
  /** Globals that already have their ConstantPointerRef. */
  private readonly referenced = new Set<Value>();

  constructor(
    view: ModuleView,
    private readonly foldCasts: boolean,
    private readonly pointerRefs = false,
  ) {
    let id = 0;
    for (const g of view.globals) this.globalIds.set(g, id++);
    for (const f of view.functions) this.globalIds.set(f, id++);
    for (const g of view.globals) if (g.initializer !== undefined) this.useFromConstant(g.initializer);
    for (const f of view.functions) for (const b of f.blocks) for (const i of instructionsIn(view, b)) for (const op of i.operands) this.use(op);
  }

  /** Number of uses of `v` (a global, argument, block or instruction). */
  of(v: Value): number {
    return this.info.get(v)?.uses ?? 0;
  }

  /** The record of `v`, made on first request. */
  infoFor(v: Value): ValueInfo {
    let i = this.info.get(v);
    if (i === undefined) {
      i = { uses: 0, slot: -1 };
      this.info.set(v, i);
    }
    return i;
  }

  /**
   * A use made by a constant (or initializer). With ConstantPointerRefs (LLVM ≤ 1.2) a global
   * is used once, by its uniqued reference, however many constants mention it.
   */
  private useFromConstant(v: Value): void {
    if (this.pointerRefs && (v.kind === 'global' || v.kind === 'function')) {
      if (this.referenced.has(v)) return;
      this.referenced.add(v);
    }
    this.use(v);
  }

  /** Counts one use of `v` and, for a constant seen for the first time, the uses it makes. */
  use(v: Value): void {
    switch (v.kind) {
      case 'argument':
      case 'block':
      case 'instruction':
      case 'global':
      case 'function':
        this.infoFor(v).uses++;
        return;
      case 'expr':
      case 'array':
      case 'struct':
      case 'packed': {
        // Only constants that mention a global make uses worth counting; most do not, and
        // skipping them avoids building their structural keys.
        if (!this.mentionsGlobal(v)) return;
        const c = canonicalConstant(v, this.foldCasts);
        if (c.kind !== 'expr' && c.kind !== 'array' && c.kind !== 'struct' && c.kind !== 'packed') return;
        if (this.active.has(c)) throw new BytecodeError('a constant contains itself (cyclic constant references)', 0, ['Module']);
        const key = this.key(c);
        if (this.seen.has(key)) return;
        this.seen.add(key);
        this.active.add(c);
        for (const op of c.kind === 'expr' ? c.operands : c.elements) this.useFromConstant(op);
        this.active.delete(c);
        return;
      }
      default:
        return;
    }
  }

  /** Whether `c` refers to a global or function, directly or through its operands. */
  private mentionsGlobal(c: Constant): boolean {
    const known = this.mentions.get(c);
    if (known !== undefined) return known;
    this.mentions.set(c, false); // a cycle (bad input) is caught when its key is built
    let found = false;
    if (c.kind === 'global' || c.kind === 'function') found = true;
    else if (c.kind === 'expr') found = c.operands.some((o) => this.mentionsGlobal(o));
    else if (c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') found = c.elements.some((o) => this.mentionsGlobal(o));
    this.mentions.set(c, found);
    return found;
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
    if (this.keyActive.has(c)) throw new BytecodeError('a constant contains itself (cyclic constant references)', 0, ['Module']);
    this.keyActive.add(c);
    try {
      return this.computeKey(c);
    } finally {
      this.keyActive.delete(c);
    }
  }

  private computeKey(c: Constant): string {
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
 * list keeping uses by terminators. Uses were made in reading order (instruction by instruction,
 * operand by operand); LLVM 1.4+ kept the newest use first (`newestFirst`), older releases last.
 */
export function predecessors(view: ModuleView, f: Function, newestFirst: boolean): Map<BasicBlock, BasicBlock[]> {
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
  if (newestFirst) for (const list of preds.values()) list.reverse();
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
