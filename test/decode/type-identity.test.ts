/** The reader's type registry: one object per structure across pools, found in linear time. */
import { describe, expect, it } from 'vitest';
import { TypeRegistry } from '../../src/decode/type-identity.js';
import { primitiveTypes as P, type PointerType, type Type } from '../../src/graph/type.js';

/** `int*`, `int**`, …: `depth` module pointer types, registered as a module pool would be. */
function moduleChain(registry: TypeRegistry, depth: number): PointerType[] {
  const chain: PointerType[] = [];
  let el: Type = P.int;
  for (let i = 0; i < depth; i++) {
    const p: PointerType = { kind: 'pointer', element: el };
    registry.register(p);
    chain.push(p);
    el = p;
  }
  return chain;
}

describe('TypeRegistry.canonicalize', () => {
  it('maps a function pool redefinition onto the module type, members first', () => {
    const registry = new TypeRegistry(new Map());
    const [intPtr] = moduleChain(registry, 1);
    const local: PointerType = { kind: 'pointer', element: P.int };
    const struct: Type = { kind: 'struct', elements: [local] };
    const replaced = registry.canonicalize([struct, local]);
    expect(replaced.get(local)).toBe(intPtr);
    expect(struct.kind === 'struct' && struct.elements[0]).toBe(intPtr);
    // The struct is new: it stays, and a later pool's equal struct becomes it.
    const again: Type = { kind: 'struct', elements: [intPtr!] };
    expect(registry.canonicalize([again]).get(again)).toBe(struct);
  });

  it('leaves opaque types and recursive local types as read', () => {
    const registry = new TypeRegistry(new Map());
    const opaque: Type = { kind: 'opaque' };
    const node: Type = { kind: 'struct', elements: [] };
    const ptr: Type = { kind: 'pointer', element: node };
    node.elements.push(ptr);
    expect(registry.canonicalize([opaque, node, ptr]).size).toBe(0);
  });

  it('resolves a long chain of forward references in one pass (no quadratic retries)', () => {
    // Work, not time: every read of a local type's fields is counted. One pass reads each type a
    // few times; a retry per unresolved reference would read the chain once per link (N²/2).
    const measure = (depth: number): number => {
      const registry = new TypeRegistry(new Map());
      const chain = moduleChain(registry, depth);
      // The same chain defined again, outermost first: each refers forward to the next one.
      let reads = 0;
      const counted = (t: PointerType): PointerType =>
        new Proxy(t, {
          get(target, key, receiver) {
            reads++;
            return Reflect.get(target, key, receiver) as unknown;
          },
        });
      const local: PointerType[] = [];
      for (let i = 0; i < depth; i++) local.push(counted({ kind: 'pointer', element: P.int }));
      for (let i = 0; i < depth - 1; i++) local[i]!.element = local[i + 1]!;
      reads = 0;
      const replaced = registry.canonicalize(local);
      const used = reads;
      expect(replaced.get(local[0]!)).toBe(chain[depth - 1]);
      expect(replaced.size).toBe(depth);
      return used;
    };
    const n = 20_000;
    const once = measure(n);
    const twice = measure(2 * n);
    expect(once).toBeLessThan(20 * n);
    // Twice the chain, about twice the work (quadratic would be four times).
    expect(twice / once).toBeLessThan(2.5);
  });
});
