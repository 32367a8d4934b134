/**
 * Types across linked modules, as LLVM 1.x's global type uniquing saw them.
 *
 * LLVM kept one object per structurally distinct type for the whole process (recursive types
 * included), so two modules' `int*` were one object and `==` was structural equality. Only an
 * `opaque` type is distinct from every other; the linker *refines* one to a concrete type (LLVM's
 * `refineAbstractTypeTo`), after which every type containing it changes with it and may become
 * equal to another. Here the modules' types stay the objects they are: `refine` records that an
 * opaque type now stands for another type, `same` compares structurally through those records, and
 * `canonicalize` finally gives one fresh object per class for the linked module (the writer
 * numbers types by object identity).
 *
 * Costs stay near linear in the number of types: `same` remembers its answers until the next
 * refinement, and the classes are found bottom-up (a type's class from its kind and its parts'
 * classes), comparing structurally only types that lie on a cycle.
 */
import type { ArrayType, FunctionType, OpaqueType, PackedType, PointerType, StructType, Type } from '../graph/type.js';
import { isPrimitive, subtypes } from '../graph/type.js';

export class TypeResolver {
  private readonly refined = new Map<OpaqueType, Type>();
  /** Answers of `same` since the last refinement. */
  private memo = new Map<Type, Map<Type, boolean>>();
  private readonly canon = new Map<Type, Type>();

  /** `t` with refined opaque types followed to what they stand for. */
  resolve(t: Type): Type {
    let cur = t;
    for (;;) {
      if (cur.kind !== 'opaque') return cur;
      const next = this.refined.get(cur);
      if (next === undefined) return cur;
      cur = next;
    }
  }

  isOpaque(t: Type): boolean {
    return this.resolve(t).kind === 'opaque';
  }

  /** LLVM's `refineAbstractTypeTo`: the opaque type `opaque` becomes `to` everywhere. */
  refine(opaque: Type, to: Type): void {
    const from = this.resolve(opaque);
    const target = this.resolve(to);
    if (from === target || from.kind !== 'opaque') return;
    this.refined.set(from, target);
    this.memo = new Map();
  }

  /** Whether LLVM would hold `a` and `b` as one type object (structural equality, cycles included). */
  same(a: Type, b: Type): boolean {
    const x = this.resolve(a);
    const y = this.resolve(b);
    if (x === y) return true;
    if (x.kind !== y.kind || isPrimitive(x)) return false;
    let row = this.memo.get(x);
    const known = row?.get(y);
    if (known !== undefined) return known;
    const result = this.equal(x, y, new Map());
    if (row === undefined) this.memo.set(x, (row = new Map()));
    row.set(y, result);
    return result;
  }

  private equal(x: Type, y: Type, assumed: Map<Type, Set<Type>>): boolean {
    const a = this.resolve(x);
    const b = this.resolve(y);
    if (a === b) return true;
    if (a.kind !== b.kind || isPrimitive(a) || a.kind === 'opaque') return false;
    // A difference found under assumptions is a difference; an equality is only known at the top.
    if (this.memo.get(a)?.get(b) === false) return false;
    let seen = assumed.get(a);
    if (seen?.has(b)) return true;
    if (seen === undefined) assumed.set(a, (seen = new Set()));
    seen.add(b);
    switch (a.kind) {
      case 'pointer':
        return this.equal(a.element, (b as PointerType).element, assumed);
      case 'array':
      case 'packed': {
        const bb = b as ArrayType | PackedType;
        return a.length === bb.length && this.equal(a.element, bb.element, assumed);
      }
      case 'struct': {
        const bb = b as StructType;
        return a.elements.length === bb.elements.length && a.elements.every((e, i) => this.equal(e, bb.elements[i]!, assumed));
      }
      case 'function': {
        const bb = b as FunctionType;
        return (
          a.isVarArg === bb.isVarArg &&
          a.params.length === bb.params.length &&
          this.equal(a.returnType, bb.returnType, assumed) &&
          a.params.every((p, i) => this.equal(p, bb.params[i]!, assumed))
        );
      }
      case 'integer':
        // One object per width (graph/type.ts): different objects are different widths.
        return false;
    }
  }

  /**
   * Finds the classes of `roots` and every type inside them, and makes one fresh object per class
   * (primitives stay the shared singletons). Call once every refinement is done; `canonical` then
   * answers for these types.
   */
  canonicalize(roots: Iterable<Type>): void {
    // Resolved types reachable from the roots, in the order found.
    const nodes: Type[] = [];
    const index = new Map<Type, number>();
    const visit = (t: Type): void => {
      const r = this.resolve(t);
      if (isPrimitive(r) || index.has(r)) return;
      index.set(r, nodes.length);
      nodes.push(r);
    };
    for (const t of roots) visit(t);
    for (let i = 0; i < nodes.length; i++) for (const s of subtypes(nodes[i]!)) visit(s);

    const classOf = new Array<number>(nodes.length).fill(-1);
    const reps: Type[] = [];
    /** Classes by their type's kind and parts' classes (hash-consing). */
    const byKey = new Map<string, number>();
    /** Classes by their type's own shape alone, for types on a cycle. */
    const byShape = new Map<string, number[]>();
    const partKey = (s: Type): string => {
      const r = this.resolve(s);
      return isPrimitive(r) ? r.kind : String(classOf[index.get(r)!]!);
    };
    const shapeKey = (t: Type): string => {
      switch (t.kind) {
        case 'array':
        case 'packed':
          return `${t.kind}${t.length}`;
        case 'function':
          return `function${t.isVarArg ? '...' : ''}/${t.params.length}`;
        case 'struct':
          return `struct/${t.elements.length}`;
        default:
          return t.kind;
      }
    };
    const fullKey = (t: Type): string => `${shapeKey(t)}(${subtypes(t).map(partKey).join(',')})`;
    const newClass = (t: Type): number => {
      const c = reps.push(t) - 1;
      const list = byShape.get(shapeKey(t));
      if (list === undefined) byShape.set(shapeKey(t), [c]);
      else list.push(c);
      return c;
    };
    for (const scc of stronglyConnected(nodes, index, (t) => subtypes(t).map((s) => this.resolve(s)))) {
      const first = nodes[scc[0]!]!;
      const cyclic = scc.length > 1 || subtypes(first).some((s) => this.resolve(s) === first);
      if (!cyclic) {
        // Every part is classed already (components come parts first): equal keys, equal types.
        if (first.kind === 'opaque') {
          classOf[scc[0]!] = newClass(first); // every opaque type is its own
          continue;
        }
        const key = fullKey(first);
        const known = byKey.get(key);
        classOf[scc[0]!] = known ?? newClass(first);
        if (known === undefined) byKey.set(key, classOf[scc[0]!]!);
        continue;
      }
      // On a cycle: compared structurally with the classes of the same shape.
      for (const i of scc) {
        const t = nodes[i]!;
        const match = (byShape.get(shapeKey(t)) ?? []).find((c) => this.same(reps[c]!, t));
        classOf[i] = match ?? newClass(t);
      }
      // Now that its parts are classed, an acyclic type equal to one of these finds it by key.
      for (const i of scc) {
        const key = fullKey(nodes[i]!);
        if (!byKey.has(key)) byKey.set(key, classOf[i]!);
      }
    }
    // One object per class: shells first, so that a type containing itself finds its own object.
    const made = reps.map(shell);
    const objectFor = (s: Type): Type => {
      const r = this.resolve(s);
      return isPrimitive(r) ? r : made[classOf[index.get(r)!]!]!;
    };
    reps.forEach((r, c) => {
      const m = made[c]!;
      switch (r.kind) {
        case 'pointer':
        case 'array':
        case 'packed':
          (m as PointerType | ArrayType | PackedType).element = objectFor(r.element);
          break;
        case 'struct':
          (m as StructType).elements = r.elements.map(objectFor);
          break;
        case 'function':
          (m as FunctionType).returnType = objectFor(r.returnType);
          (m as FunctionType).params = r.params.map(objectFor);
          break;
        default:
          break;
      }
    });
    nodes.forEach((n, i) => this.canon.set(n, made[classOf[i]!]!));
  }

  /** The linked module's object for `t` (after `canonicalize` saw it). */
  canonical(t: Type): Type {
    const r = this.resolve(t);
    if (isPrimitive(r)) return r;
    const c = this.canon.get(r);
    if (c === undefined) throw new Error('internal error: link: a type was not canonicalized');
    return c;
  }
}

/**
 * Tarjan's strongly connected components, without recursion (type graphs may be deep), in the
 * order Tarjan finds them: every component after the components it reaches.
 */
function stronglyConnected(nodes: readonly Type[], index: ReadonlyMap<Type, number>, edges: (t: Type) => Type[]): number[][] {
  const n = nodes.length;
  const order = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const onStack = new Array<boolean>(n).fill(false);
  const stack: number[] = [];
  const out: number[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (order[root] !== -1) continue;
    const work: { v: number; next: number[]; i: number }[] = [];
    const open = (v: number): void => {
      order[v] = low[v] = counter++;
      stack.push(v);
      onStack[v] = true;
      const next: number[] = [];
      for (const e of edges(nodes[v]!)) {
        const w = index.get(e);
        if (w !== undefined) next.push(w);
      }
      work.push({ v, next, i: 0 });
    };
    open(root);
    while (work.length !== 0) {
      const top = work[work.length - 1]!;
      if (top.i < top.next.length) {
        const w = top.next[top.i++]!;
        if (order[w] === -1) open(w);
        else if (onStack[w]) low[top.v] = Math.min(low[top.v]!, order[w]!);
        continue;
      }
      work.pop();
      if (work.length !== 0) {
        const parent = work[work.length - 1]!.v;
        low[parent] = Math.min(low[parent]!, low[top.v]!);
      }
      if (low[top.v] === order[top.v]) {
        const scc: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = false;
          scc.push(w);
        } while (w !== top.v);
        out.push(scc);
      }
    }
  }
  return out;
}

function shell(t: Type): Type {
  switch (t.kind) {
    case 'pointer':
      return { kind: 'pointer', element: t };
    case 'array':
      return { kind: 'array', element: t, length: t.length };
    case 'packed':
      return { kind: 'packed', element: t, length: t.length };
    case 'struct':
      return { kind: 'struct', elements: [] };
    case 'function':
      return { kind: 'function', returnType: t, params: [], isVarArg: t.isVarArg };
    default:
      return { kind: 'opaque' };
  }
}
