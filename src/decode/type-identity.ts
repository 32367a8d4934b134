/**
 * One object per type across the whole module, as LLVM had.
 *
 * LLVM uniqued types, but its files number them per pool: LLVM 1.0/1.1 and 1.3 redefine in a
 * function's constant pool the types only that function uses, and a type several functions use
 * is defined again in each of them. Read naively, each definition would become an object of its
 * own, and the graph's promise (structurally equal types are the same object, which the writer
 * relies on) would break. This registry maps every definition onto the first structurally equal
 * type met in the module.
 *
 * Keys are built from the identities of a type's members, so a type is looked up after its
 * members (definitions may refer forward within their list): one pass in members-first order,
 * linear in the number of definitions. Opaque types are never merged (each is distinct), nor are
 * recursive local types (which cannot be keyed before themselves); both stay as read.
 */
import { DenseIds } from '../graph/dense-ids.js';
import { subtypes, type PointerType, type Type } from '../graph/type.js';

export class TypeRegistry {
  private readonly ids = new DenseIds<Type>();
  private readonly byKey = new Map<string, Type>();
  /**
   * Registered non-pointer types not keyed yet. Keys are needed only once a function's pool
   * defines types (versions 0 and 3 mostly), so most files never pay for them.
   */
  private unkeyed: Type[] = [];

  constructor(private readonly pointerTypes: Map<Type, PointerType>) {}

  /** The structural key of a derived type in terms of its members' identities. */
  private keyOf(t: Type): string | undefined {
    switch (t.kind) {
      case 'struct':
        return `s${t.elements.map((e) => this.ids.of(e)).join(',')}`;
      case 'array':
        return `a${t.length}:${this.ids.of(t.element)}`;
      case 'packed':
        return `v${t.length}:${this.ids.of(t.element)}`;
      case 'function':
        return `f${t.isVarArg ? 1 : 0}:${this.ids.of(t.returnType)}(${t.params.map((p) => this.ids.of(p)).join(',')})`;
      default:
        return undefined; // pointers go through pointerTypes; primitives and opaques are unique
    }
  }

  /** An existing type structurally equal to `t` (other than `t`), if any. */
  find(t: Type): Type | undefined {
    if (t.kind === 'pointer') {
      const p = this.pointerTypes.get(t.element);
      return p !== t ? p : undefined;
    }
    this.keyRegistered();
    const key = this.keyOf(t);
    const found = key === undefined ? undefined : this.byKey.get(key);
    return found !== t ? found : undefined;
  }

  /** Keys the types registered so far, in registration order (the first of a structure wins). */
  private keyRegistered(): void {
    if (this.unkeyed.length === 0) return;
    for (const t of this.unkeyed) {
      const key = this.keyOf(t);
      if (key !== undefined && !this.byKey.has(key)) this.byKey.set(key, t);
    }
    this.unkeyed = [];
  }

  /** Makes `t` the type that later equal definitions become (unless one is known already). */
  register(t: Type): void {
    if (t.kind === 'pointer') {
      if (!this.pointerTypes.has(t.element)) this.pointerTypes.set(t.element, t);
      return;
    }
    this.unkeyed.push(t);
  }

  /**
   * Maps freshly read definitions onto known equal types: returns the replacement of each one
   * that has an equal type already (the caller puts it in its table), after pointing the members
   * of the others at the replacements. The others are registered for later pools.
   */
  canonicalize(added: readonly Type[]): Map<Type, Type> {
    const replaced = new Map<Type, Type>();
    const swap = (x: Type): Type => replaced.get(x) ?? x;
    for (const t of membersFirst(added)) {
      repoint(t, swap);
      const found = this.find(t);
      if (found !== undefined) replaced.set(t, found);
    }
    // Registered once every replacement is known (a recursive group's members may change late).
    for (const t of added) {
      if (replaced.has(t)) continue;
      repoint(t, swap);
      this.register(t);
    }
    return replaced;
  }
}

/**
 * `added` ordered so that each type comes after those of its members that are in `added` too
 * (post-order of an iterative depth-first walk; a cycle is entered once and broken anywhere).
 */
function membersFirst(added: readonly Type[]): Type[] {
  const inBatch = new Set(added);
  const seen = new Set<Type>();
  const order: Type[] = [];
  for (const root of added) {
    if (seen.has(root)) continue;
    seen.add(root);
    const stack: { t: Type; members: readonly Type[]; next: number }[] = [{ t: root, members: subtypes(root), next: 0 }];
    while (stack.length !== 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.members.length) {
        const m = top.members[top.next++]!;
        if (inBatch.has(m) && !seen.has(m)) {
          seen.add(m);
          stack.push({ t: m, members: subtypes(m), next: 0 });
        }
        continue;
      }
      stack.pop();
      order.push(top.t);
    }
  }
  return order;
}

/** Points the members of a freshly read (not yet shared) type at their replacements. */
function repoint(t: Type, swap: (x: Type) => Type): void {
  switch (t.kind) {
    case 'struct':
      for (let i = 0; i < t.elements.length; i++) t.elements[i] = swap(t.elements[i]!);
      return;
    case 'array':
    case 'packed':
    case 'pointer':
      t.element = swap(t.element);
      return;
    case 'function':
      t.returnType = swap(t.returnType);
      for (let i = 0; i < t.params.length; i++) t.params[i] = swap(t.params[i]!);
      return;
    default:
  }
}
