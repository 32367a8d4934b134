/**
 * A function's control flow and the dominators of its blocks, over block numbers (block 0 the
 * entry), for the writer's verifier and the modern-IR converter's exception lowering alike.
 */

/**
 * A function's control-flow graph in compressed form: the successors of block `b` are
 * `succ[succStart[b] .. succStart[b + 1])`, its predecessors likewise in `pred`/`predStart`
 * (an edge repeated in the terminator, e.g. both arms of a branch to one block, counts twice).
 */
export class ControlFlow {
  readonly succStart: Int32Array;
  readonly succ: Int32Array;
  readonly predStart: Int32Array;
  readonly pred: Int32Array;

  /** `successors(b, out)` appends block `b`'s successors to `out`. */
  constructor(n: number, successors: (b: number, out: number[]) => void) {
    const succStart = new Int32Array(n + 1);
    const edges: number[] = [];
    for (let b = 0; b < n; b++) {
      succStart[b] = edges.length;
      successors(b, edges);
    }
    succStart[n] = edges.length;
    const succ = Int32Array.from(edges);
    const predStart = new Int32Array(n + 1);
    for (let e = 0; e < succ.length; e++) predStart[succ[e]! + 1]!++;
    for (let b = 0; b < n; b++) predStart[b + 1]! += predStart[b]!;
    const fill = predStart.slice(0, n);
    const pred = new Int32Array(succ.length);
    for (let b = 0; b < n; b++) for (let e = succStart[b]!; e < succStart[b + 1]!; e++) pred[fill[succ[e]!]!++] = b;
    this.succStart = succStart;
    this.succ = succ;
    this.predStart = predStart;
    this.pred = pred;
  }
}

/**
 * Dominators of a function's blocks (Cooper, Harvey & Kennedy, "A Simple, Fast Dominance
 * Algorithm"), with pre/post numbers on the dominator tree for O(1) queries. Blocks unreachable
 * from the entry dominate nothing and everything dominates them (uses there are not checked, as
 * LLVM's verifier did not).
 */
export class Dominators {
  private readonly idom: Int32Array;
  private readonly pre: Int32Array;
  private readonly post: Int32Array;

  // (Each walk is a function of its own: a function of thousands of blocks runs each loop long
  // enough to be optimized on the stack, and code optimized for one loop is thrown away when the
  // next statement after it runs for the first time; one function per loop keeps each.)
  constructor(cfg: ControlFlow, n: number) {
    if (n === 0) {
      this.idom = this.pre = this.post = new Int32Array(0);
      return;
    }
    const order = new Int32Array(n);
    const numReached = reversePostorder(cfg, n, order);
    const rpoNum = new Int32Array(n).fill(-1);
    for (let i = 0; i < numReached; i++) rpoNum[order[i]!] = i;
    const idom = immediateDominators(cfg, n, order, numReached, rpoNum);
    this.idom = idom;
    const pre = new Int32Array(n).fill(-1);
    const post = new Int32Array(n).fill(-1);
    numberDominatorTree(idom, n, pre, post);
    this.pre = pre;
    this.post = post;
  }

  /** Block `b` is reachable from the entry. */
  reachable(b: number): boolean {
    return this.idom[b] !== -1;
  }

  /**
   * Block `a` dominates block `b`: a definition in `a` reaches a use in (or at the end of) `b`.
   * True when `b` is unreachable, false when only `a` is, as in LLVM.
   */
  dominates(a: number, b: number): boolean {
    if (!this.reachable(b)) return true;
    return this.reachable(a) && this.pre[a]! <= this.pre[b]! && this.post[b]! <= this.post[a]!;
  }
}

/**
 * Writes the blocks reached from the entry into `order` in reverse postorder (iterative DFS;
 * `next[b]` is b's next successor edge) and returns how many there are.
 */
function reversePostorder(cfg: ControlFlow, n: number, order: Int32Array): number {
  const { succStart, succ } = cfg;
  let numReached = 0;
  const visited = new Uint8Array(n);
  const next = succStart.slice(0, n);
  const stack = new Int32Array(n);
  let sp = 0;
  stack[sp++] = 0;
  visited[0] = 1;
  while (sp !== 0) {
    const top = stack[sp - 1]!;
    if (next[top]! < succStart[top + 1]!) {
      const s = succ[next[top]!++]!;
      if (!visited[s]) {
        visited[s] = 1;
        stack[sp++] = s;
      }
    } else {
      order[numReached++] = top;
      sp--;
    }
  }
  order.subarray(0, numReached).reverse();
  return numReached;
}

/** Each block's immediate dominator (-1: unreachable), by Cooper, Harvey & Kennedy's iteration. */
function immediateDominators(cfg: ControlFlow, n: number, order: Int32Array, numReached: number, rpoNum: Int32Array): Int32Array {
  const { predStart, pred } = cfg;
  const idom = new Int32Array(n).fill(-1);
  idom[0] = 0;
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = 1; i < numReached; i++) {
      const b = order[i]!;
      let nd = -1;
      for (let e = predStart[b]!; e < predStart[b + 1]!; e++) {
        const p = pred[e]!;
        if (idom[p] === -1) continue; // unreachable or not yet processed
        if (nd === -1) nd = p;
        else {
          // Intersect: walk up by reverse-postorder number.
          let x = p;
          let y = nd;
          while (x !== y) {
            while (rpoNum[x]! > rpoNum[y]!) x = idom[x]!;
            while (rpoNum[y]! > rpoNum[x]!) y = idom[y]!;
          }
          nd = x;
        }
      }
      if (nd !== -1 && idom[b] !== nd) {
        idom[b] = nd;
        changed = true;
      }
    }
  }
  return idom;
}

/** Pre/post numbering of the dominator tree (children in compressed form, as ControlFlow's edges). */
function numberDominatorTree(idom: Int32Array, n: number, pre: Int32Array, post: Int32Array): void {
  const childStart = new Int32Array(n + 1);
  for (let b = 1; b < n; b++) if (idom[b] !== -1) childStart[idom[b]! + 1]!++;
  for (let b = 0; b < n; b++) childStart[b + 1]! += childStart[b]!;
  const fill = childStart.slice(0, n);
  const children = new Int32Array(childStart[n]!);
  for (let b = 1; b < n; b++) if (idom[b] !== -1) children[fill[idom[b]!]!++] = b;
  const nextChild = childStart.slice(0, n);
  const stack = new Int32Array(n);
  let clock = 0;
  let sp = 0;
  stack[sp++] = 0;
  pre[0] = clock++;
  while (sp !== 0) {
    const top = stack[sp - 1]!;
    if (nextChild[top]! < childStart[top + 1]!) {
      const child = children[nextChild[top]!++]!;
      pre[child] = clock++;
      stack[sp++] = child;
    } else {
      post[top] = clock++;
      sp--;
    }
  }
}
