/**
 * LLVM 1.x types to version 7's (as `llvm-upgrade` mapped them): bool → i1, sbyte/ubyte → i8,
 * short/ushort → i16, int/uint → i32, long/ulong → i64; derived types rebuilt over the mapped
 * ones. Signedness disappears from types, so two 1.x types that differ only in it (`{ int }` and
 * `{ uint }`) become one type, as LLVM's type uniquing made them: the mapped types are uniqued
 * structurally (recursive types included, keyed with relative back references like LLVM's
 * up-references; opaque types stay distinct).
 */
import {
  integerType,
  primitiveTypes,
  type ArrayType,
  type FunctionType,
  type PackedType,
  type ParamAttribute,
  type PointerType,
  type StructType,
  type Type,
} from '../graph/type.js';

const INTEGER_BITS: Readonly<Record<string, number>> = {
  bool: 1,
  sbyte: 8,
  ubyte: 8,
  short: 16,
  ushort: 16,
  int: 32,
  uint: 32,
  long: 64,
  ulong: 64,
};

/** Whether a 1.x type is a signed integer (what llvm-upgrade's `Signedness::isSigned` said). */
export function isSignedV6(t: Type): boolean {
  return t.kind === 'sbyte' || t.kind === 'short' || t.kind === 'int' || t.kind === 'long';
}

/** Whether a 1.x type is unsigned (ubyte … ulong; `bool` counts as neither, as in llvm-upgrade). */
export function isUnsignedV6(t: Type): boolean {
  return t.kind === 'ubyte' || t.kind === 'ushort' || t.kind === 'uint' || t.kind === 'ulong';
}

/** A derived type under construction or built (its inner types are mapped types too). */
type Derived = PointerType | ArrayType | PackedType | StructType | FunctionType;

function isDerived(t: Type): t is Derived {
  return t.kind === 'pointer' || t.kind === 'array' || t.kind === 'packed' || t.kind === 'struct' || t.kind === 'function';
}

function childrenOf(t: Derived): Type[] {
  switch (t.kind) {
    case 'pointer':
    case 'array':
    case 'packed':
      return [t.element];
    case 'struct':
      return t.elements;
    case 'function':
      return [t.returnType, ...t.params];
    default:
      return [];
  }
}

/** What a derived type is apart from its inner types. */
function labelOf(t: Derived): string {
  switch (t.kind) {
    case 'pointer':
      return '*';
    case 'array':
    case 'packed':
      return `${t.kind}${t.length}`;
    case 'struct':
      return `${t.isPacked === true ? 'P' : ''}{${t.elements.length}`;
    case 'function':
      return `f${t.params.length}${t.isVarArg ? '...' : ''}:${(t.paramAttributes ?? []).map((a) => `${a.index}=${a.attributes}`).join(',')}`;
  }
}

export class TypeMapper {
  /** Source type → its rebuilt copy (before uniquing). */
  private readonly raw = new Map<Type, Type>();
  /** Rebuilt copy → the representative of its structure. */
  private readonly repOf = new Map<Type, Type>();
  /** Representatives by shallow key (label and inner representatives' ids). */
  private readonly byKey = new Map<string, Type>();
  private readonly ids = new Map<Type, number>();

  /** The version-7 type of a 1.x type (one object per distinct structure). */
  map(t: Type): Type {
    const bits = INTEGER_BITS[t.kind];
    if (bits !== undefined) return integerType(bits);
    if (!isDerived(t)) return t;
    const r = this.raw.get(t);
    if (r !== undefined) {
      const rep = this.repOf.get(r);
      if (rep !== undefined) return rep;
    }
    const built = this.build(t);
    this.settle(built);
    return this.repOf.get(built)!;
  }

  /** A function type with `sret` on its first parameter (what llvm-upgrade made of `csretcc`). */
  withSret(ft: FunctionType): Type {
    const attrs: ParamAttribute[] = [{ index: 1, attributes: 1 << 4 }];
    return this.adopt({ kind: 'function', returnType: ft.returnType, params: [...ft.params], isVarArg: ft.isVarArg, paramAttributes: attrs });
  }

  /** The representative of a new type over representatives (e.g. a pointer to a mapped type). */
  adopt(t: Type): Type {
    if (!isDerived(t)) return t;
    this.settle(t);
    return this.repOf.get(t)!;
  }

  private id(t: Type): number {
    let n = this.ids.get(t);
    if (n === undefined) this.ids.set(t, (n = this.ids.size));
    return n;
  }

  /** A copy of a derived source type over mapped leaves (cycles closed through `raw`). */
  private build(t: Type): Type {
    const bits = INTEGER_BITS[t.kind];
    if (bits !== undefined) return integerType(bits);
    if (!isDerived(t)) return t;
    const known = this.raw.get(t);
    if (known !== undefined) return this.repOf.get(known) ?? known;
    let n: Derived;
    switch (t.kind) {
      case 'pointer':
        n = { kind: 'pointer', element: primitiveTypes.void };
        break;
      case 'array':
      case 'packed':
        n = { kind: t.kind, element: primitiveTypes.void, length: t.length } as Derived;
        break;
      case 'struct':
        n = { kind: 'struct', elements: [] };
        if (t.isPacked === true) (n as { isPacked?: boolean }).isPacked = true;
        break;
      default: {
        const ft = t as FunctionType;
        const f: { kind: 'function'; returnType: Type; params: Type[]; isVarArg: boolean; paramAttributes?: readonly ParamAttribute[] } = {
          kind: 'function',
          returnType: primitiveTypes.void,
          params: [],
          isVarArg: ft.isVarArg,
        };
        if (ft.paramAttributes !== undefined) f.paramAttributes = ft.paramAttributes;
        n = f;
      }
    }
    this.raw.set(t, n);
    switch (t.kind) {
      case 'pointer':
      case 'array':
      case 'packed':
        (n as { element: Type }).element = this.build(t.element);
        break;
      case 'struct':
        for (const e of t.elements) (n as { elements: Type[] }).elements.push(this.build(e));
        break;
      case 'function':
        (n as FunctionType).returnType = this.build(t.returnType);
        for (const p of t.params) (n as FunctionType).params.push(this.build(p));
        break;
    }
    return n;
  }

  /**
   * Uniques the new types reachable from `root` (those without a representative yet) by
   * partition refinement: two types are one when their labels agree and their inner types are
   * one, cycles included (LLVM's structural type uniquing). Classes whose shallow key matches an
   * existing representative join it.
   */
  private settle(root: Type): void {
    if (!isDerived(root) || this.repOf.has(root)) return;
    const nodes: Derived[] = [];
    const seen = new Set<Type>();
    const stack: Type[] = [root];
    while (stack.length !== 0) {
      const t = stack.pop()!;
      if (!isDerived(t) || seen.has(t) || this.repOf.has(t)) continue;
      seen.add(t);
      nodes.push(t);
      for (const c of childrenOf(t)) stack.push(c);
    }
    // The class of a leaf or settled type is fixed; new types start by label.
    const fixed = (t: Type): string | undefined => {
      if (!isDerived(t)) return t.kind === 'integer' ? `i${t.bits}` : t.kind === 'opaque' ? `o${this.id(t)}` : t.kind;
      const rep = this.repOf.get(t);
      return rep === undefined ? undefined : `r${this.id(rep)}`;
    };
    let cls = new Map<Type, number>();
    const intern = (m: Map<string, number>, k: string): number => {
      let n = m.get(k);
      if (n === undefined) m.set(k, (n = m.size));
      return n;
    };
    {
      const keys = new Map<string, number>();
      for (const t of nodes) cls.set(t, intern(keys, labelOf(t)));
    }
    let count = -1;
    for (;;) {
      const keys = new Map<string, number>();
      const next = new Map<Type, number>();
      for (const t of nodes) {
        const parts = childrenOf(t).map((c) => fixed(c) ?? `c${cls.get(c)}`);
        next.set(t, intern(keys, `${cls.get(t)}|${parts.join(',')}`));
      }
      cls = next;
      if (keys.size === count) break;
      count = keys.size;
    }
    // The first node of each class represents it.
    const repOfClass = new Map<number, Derived>();
    for (const t of nodes) if (!repOfClass.has(cls.get(t)!)) repOfClass.set(cls.get(t)!, t);
    for (const t of nodes) this.repOf.set(t, repOfClass.get(cls.get(t)!)!);
    for (const rep of repOfClass.values()) this.relink(rep);
    // Join structures known before (only where the shallow key says so).
    for (const rep of repOfClass.values()) {
      const key = `${labelOf(rep)}|${childrenOf(rep)
        .map((c) => this.id(c))
        .join(',')}`;
      const prior = this.byKey.get(key);
      if (prior !== undefined && prior !== rep) {
        for (const t of nodes) if (this.repOf.get(t) === rep) this.repOf.set(t, prior);
      } else {
        this.byKey.set(key, rep);
      }
    }
  }

  /** Points a representative's inner types at their representatives. */
  private relink(t: Derived): void {
    const r = (c: Type): Type => this.repOf.get(c) ?? c;
    switch (t.kind) {
      case 'pointer':
      case 'array':
      case 'packed':
        (t as { element: Type }).element = r(t.element);
        return;
      case 'struct':
        for (let i = 0; i < t.elements.length; i++) t.elements[i] = r(t.elements[i]!);
        return;
      case 'function':
        t.returnType = r(t.returnType);
        for (let i = 0; i < t.params.length; i++) t.params[i] = r(t.params[i]!);
        return;
    }
  }
}
