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
    const depth = 50_000;
    const registry = new TypeRegistry(new Map());
    const chain = moduleChain(registry, depth);
    // The same chain defined again, outermost first: each refers forward to the next one.
    const local: PointerType[] = [];
    for (let i = 0; i < depth; i++) local.push({ kind: 'pointer', element: P.int });
    for (let i = 0; i < depth - 1; i++) local[i]!.element = local[i + 1]!;
    const started = performance.now();
    const replaced = registry.canonicalize(local);
    const ms = performance.now() - started;
    expect(replaced.get(local[0]!)).toBe(chain[depth - 1]);
    expect(replaced.size).toBe(depth);
    expect(ms).toBeLessThan(1000);
  });
});
