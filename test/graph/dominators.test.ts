/**
 * A function's blocks as numbers (block 0 the entry): its control flow in compressed form, and
 * which blocks dominate which, with LLVM's answer for blocks the entry never reaches.
 */
import { describe, expect, it } from 'vitest';
import { ControlFlow, Dominators } from '../../src/graph/dominators.js';

function flow(succ: number[][]): ControlFlow {
  return new ControlFlow(succ.length, (b, out) => {
    for (const s of succ[b]!) out.push(s);
  });
}

/** Every pair (a, b) where a dominates b, by the definition: every path from the entry to b passes a. */
function dominatesByPaths(succ: number[][], a: number, b: number): boolean {
  const seen = new Set<number>([a]);
  const stack = a === 0 ? [] : [0];
  if (a !== 0) seen.add(0);
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x === b) return false; // reached b avoiding a
    for (const s of succ[x]!) if (!seen.has(s)) seen.add(s), stack.push(s);
  }
  return true;
}

describe('ControlFlow', () => {
  it('lists successors and predecessors, an edge named twice counted twice', () => {
    const cfg = flow([[1, 1], [2], []]);
    expect([...cfg.succ]).toEqual([1, 1, 2]);
    expect([...cfg.succStart]).toEqual([0, 2, 3, 3]);
    expect([...cfg.pred]).toEqual([0, 0, 1]);
    expect([...cfg.predStart]).toEqual([0, 0, 2, 3]);
  });
});

describe('Dominators', () => {
  it('a diamond: the entry and the join dominate, the arms do not dominate the join', () => {
    const succ = [[1, 2], [3], [3], []];
    const dom = new Dominators(flow(succ), 4);
    expect(dom.dominates(0, 3)).toBe(true);
    expect(dom.dominates(1, 3)).toBe(false);
    expect(dom.dominates(2, 3)).toBe(false);
    expect(dom.dominates(3, 3)).toBe(true);
  });

  it('agrees with the definition on every pair of a graph with loops and a back edge to the entry', () => {
    const succ = [[1], [2, 5], [3, 4], [1], [6], [6], [0, 7], []];
    const dom = new Dominators(flow(succ), succ.length);
    for (let a = 0; a < succ.length; a++) {
      for (let b = 0; b < succ.length; b++) expect(dom.dominates(a, b), `${a} dom ${b}`).toBe(dominatesByPaths(succ, a, b));
    }
  });

  it('a block the entry never reaches is dominated by every block and dominates none that is reached', () => {
    const succ = [[1], [], [1]];
    const dom = new Dominators(flow(succ), 3);
    expect(dom.reachable(2)).toBe(false);
    expect(dom.dominates(1, 2)).toBe(true);
    expect(dom.dominates(2, 1)).toBe(false);
  });

  it('a function without blocks has no dominators to ask for', () => {
    expect(() => new Dominators(flow([]), 0)).not.toThrow();
  });
});
