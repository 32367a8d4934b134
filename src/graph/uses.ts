/**
 * Use lists. The graph stores each value's operands, not its users (so it stays plain data that a
 * program can build and edit freely); `collectUses` derives the other direction in one linear pass
 * when a tool needs it (who calls this function, which instructions read this global, …).
 */
import type { Module } from './module.js';
import type { Constant, GlobalVariable, Instruction, Value } from './value.js';

/**
 * One use of a value: `user`'s operand (or element, or initializer) number `index`.
 *
 * @category Graph
 */
export interface Use {
  readonly user: Instruction | Constant | GlobalVariable;
  readonly index: number;
}

/**
 * Every use of every value in `module`, in program order: global initializers, then each
 * function's instructions in order; constants (aggregates and expressions) are visited once each,
 * however many places share them, so a use inside a shared constant is listed once.
 */
export function collectUses(module: Module): Map<Value, Use[]> {
  const uses = new Map<Value, Use[]>();
  const seenConstants = new Set<Constant>();
  const add = (v: Value, user: Use['user'], index: number): void => {
    let list = uses.get(v);
    if (list === undefined) uses.set(v, (list = []));
    list.push({ user, index });
    if ((v.kind === 'expr' || v.kind === 'array' || v.kind === 'struct' || v.kind === 'packed') && !seenConstants.has(v)) visitConstant(v);
  };
  // Iterative over nested constants: a deep or (from a hand-built graph) cyclic constant cannot
  // overflow the stack, and each is expanded once.
  const visitConstant = (root: Constant): void => {
    const stack: Constant[] = [root];
    seenConstants.add(root);
    while (stack.length) {
      const c = stack.pop()!;
      const parts = c.kind === 'expr' ? c.operands : c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed' ? c.elements : [];
      parts.forEach((p, index) => {
        let list = uses.get(p);
        if (list === undefined) uses.set(p, (list = []));
        list.push({ user: c, index });
        if ((p.kind === 'expr' || p.kind === 'array' || p.kind === 'struct' || p.kind === 'packed') && !seenConstants.has(p)) {
          seenConstants.add(p);
          stack.push(p);
        }
      });
    }
  };
  for (const g of module.globals) if (g.initializer !== undefined) add(g.initializer, g, 0);
  for (const f of module.functions) {
    for (const bb of f.blocks) {
      for (const inst of bb.instructions) inst.operands.forEach((op, index) => add(op, inst, index));
    }
  }
  return uses;
}
