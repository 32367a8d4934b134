/**
 * Types across linked modules, as LLVM 1.x's global type uniquing saw them.
 *
 * LLVM kept one object per structurally distinct type for the whole process (recursive types
 * included), so two modules' `int*` were one object and `==` was structural equality. Only an
 * `opaque` type is distinct from every other; the linker *refines* one to a concrete type (LLVM's
 * `refineAbstractTypeTo`), after which every type containing it changes with it and may become
 * equal to another. Here the modules' types stay the objects they are: `refine` records that an
 * opaque type now stands for another type, `same` compares structurally through those records, and
 * `canonical` finally gives one fresh object per class for the linked module (the writer numbers
 * types by object identity).
 */
import type { OpaqueType, Type } from '../graph/type.js';
import { isPrimitive } from '../graph/type.js';

export class TypeResolver {
  private readonly refined = new Map<OpaqueType, Type>();
  private readonly classes: { key: string; type: Type; made: Type }[] = [];
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
  }

  /** Whether LLVM would hold `a` and `b` as one type object (structural equality, cycles included). */
  same(a: Type, b: Type): boolean {
    return this.equal(a, b, new Map());
  }

  private equal(x: Type, y: Type, assumed: Map<Type, Set<Type>>): boolean {
    const a = this.resolve(x);
    const b = this.resolve(y);
    if (a === b) return true;
    if (a.kind !== b.kind || isPrimitive(a) || a.kind === 'opaque') return false;
    let seen = assumed.get(a);
    if (seen?.has(b)) return true;
    if (seen === undefined) assumed.set(a, (seen = new Set()));
    seen.add(b);
    switch (a.kind) {
      case 'pointer':
        return this.equal(a.element, (b as typeof a).element, assumed);
      case 'array':
      case 'packed': {
        const bb = b as typeof a;
        return a.length === bb.length && this.equal(a.element, bb.element, assumed);
      }
      case 'struct': {
        const bb = b as typeof a;
        return a.elements.length === bb.elements.length && a.elements.every((e, i) => this.equal(e, bb.elements[i]!, assumed));
      }
      case 'function': {
        const bb = b as typeof a;
        return (
          a.isVarArg === bb.isVarArg &&
          a.params.length === bb.params.length &&
          this.equal(a.returnType, bb.returnType, assumed) &&
          a.params.every((p, i) => this.equal(p, bb.params[i]!, assumed))
        );
      }
    }
  }

  /**
   * The linked module's object for `t`: one fresh object per class of equal types, made the
   * first time the class is met (primitives are the shared singletons). Call only once every
   * refinement is done.
   */
  canonical(t: Type): Type {
    if (isPrimitive(t)) return t;
    const known = this.canon.get(t);
    if (known !== undefined) return known;
    const r = this.resolve(t);
    if (isPrimitive(r)) return r;
    const key = this.shapeKey(r, 3);
    for (const c of this.classes) {
      if (c.key === key && this.same(c.type, r)) {
        this.canon.set(t, c.made);
        return c.made;
      }
    }
    // A shell first, so that a type containing itself finds its own object.
    const made = shell(r);
    this.classes.push({ key, type: r, made });
    this.canon.set(t, made);
    if (r !== t) this.canon.set(r, made);
    const m = made as { -readonly [K in keyof Type]: unknown } & Record<string, unknown>;
    switch (r.kind) {
      case 'pointer':
      case 'array':
      case 'packed':
        m['element'] = this.canonical(r.element);
        break;
      case 'struct':
        m['elements'] = r.elements.map((e) => this.canonical(e));
        break;
      case 'function':
        m['returnType'] = this.canonical(r.returnType);
        m['params'] = r.params.map((p) => this.canonical(p));
        break;
      default:
        break;
    }
    return made;
  }

  /** A few levels of a type's shape: equal types have equal keys (a cheap filter before `same`). */
  private shapeKey(t: Type, depth: number): string {
    const r = this.resolve(t);
    if (isPrimitive(r)) return r.kind;
    if (depth === 0 || r.kind === 'opaque') return r.kind;
    switch (r.kind) {
      case 'pointer':
        return `${this.shapeKey(r.element, depth - 1)}*`;
      case 'array':
      case 'packed':
        return `${r.kind}${r.length}(${this.shapeKey(r.element, depth - 1)})`;
      case 'struct':
        return `{${r.elements.map((e) => this.shapeKey(e, depth - 1)).join(',')}}`;
      case 'function':
        return `${this.shapeKey(r.returnType, depth - 1)}(${r.params.map((p) => this.shapeKey(p, depth - 1)).join(',')}${r.isVarArg ? ',...' : ''})`;
    }
  }
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
