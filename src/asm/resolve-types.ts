/**
 * From the parser's type nodes to the module's types, as LLVM's type system made them: named and
 * numbered references and up-references resolved, and structurally equal types — recursive ones
 * included — made one object (LLVM uniqued types and merged refined abstract types; two
 * definitions `%A = type { %A* }` and `%B = type { %B* }` are one type with two names). Equality
 * of recursive types is the greatest fixed point, found by partition refinement: classes start
 * by kind and shape and split until each member's children agree.
 */
import { integerType, primitiveTypes, type PrimitiveType, type Type } from '../graph/type.js';
import type { ModuleAst, TypeNode } from './ast.js';
import type { SourceText } from './assembly-error.js';

export interface ResolvedTypes {
  /** The type of each parser node (aliases resolved). */
  typeOf(node: number): Type;
  /** Named types, in order of definition. */
  names: Map<string, Type>;
  /** Every derived type, in order of first appearance in the text. */
  derived: Type[];
  /** Interning for types made after resolution (a global's pointer type, …). */
  interner: TypeInterner;
}

export function resolveTypes(ast: ModuleAst, source: SourceText, undefinedTypesInBodies = false): ResolvedTypes {
  const nodes = ast.types;
  const named = new Map<string, number>();
  const numbered: number[] = [];
  const redefinitions: { name: string; first: number; second: number; at: number }[] = [];
  for (const item of ast.items) {
    if (item.k !== 'typedef') continue;
    if (item.name === undefined) {
      numbered.push(item.type);
      continue;
    }
    const earlier = named.get(item.name);
    if (earlier !== undefined && nodes[earlier]!.k === 'opaque') {
      // `%T = type opaque` then `%T = type {…}`: the later definition refines the opaque type.
      named.set(item.name, item.type);
      continue;
    }
    if (earlier !== undefined) {
      // LLVM allowed a redefinition only as a refinement of `opaque` or as the same type; both
      // are settled after uniquing, so remember the pair and check then.
      redefinitions.push({ name: item.name, first: earlier, second: item.type, at: item.at });
      continue;
    }
    named.set(item.name, item.type);
  }

  improviseUndefinedTypes(ast, named, numbered, source, undefinedTypesInBodies);

  // 1. Every node to a concrete node (prim, opaque or composite), following aliases.
  const concrete = new Int32Array(nodes.length).fill(-1);
  const follow = (start: number): number => {
    let id = start;
    const chain: number[] = [];
    for (;;) {
      if (concrete[id]! >= 0) {
        id = concrete[id]!;
        break;
      }
      const n = nodes[id]!;
      let next: number;
      if (n.k === 'named') {
        const def = named.get(n.name);
        if (def === undefined) throw source.error(`reference to an undefined type '%${n.name}'`, n.at);
        next = def;
      } else if (n.k === 'numbered') {
        const def = numbered[n.n];
        if (def === undefined) throw source.error(`reference to an undefined type '%${n.n}'`, n.at);
        next = def;
      } else if (n.k === 'up') {
        if (n.target < 0) throw source.error('an up-reference (\\N) that climbs out of its type', n.at);
        next = n.target;
      } else break;
      chain.push(id);
      if (chain.length > nodes.length) {
        const at = (nodes[start] as { at?: number }).at ?? 0;
        throw source.error('a type defined as itself', at);
      }
      id = next;
    }
    for (const c of chain) concrete[c] = id;
    concrete[start] = id;
    return id;
  };
  for (let i = 0; i < nodes.length; i++) follow(i);

  // 2. Partition refinement over the concrete nodes.
  const cls = new Int32Array(nodes.length).fill(-1);
  let classCount = 0;
  {
    const initial = new Map<string, number>();
    for (let i = 0; i < nodes.length; i++) {
      if (concrete[i] !== i) continue;
      const key = shapeKey(nodes[i]!, i);
      let c = initial.get(key);
      if (c === undefined) {
        c = classCount++;
        initial.set(key, c);
      }
      cls[i] = c;
    }
  }
  const childrenOf = (n: TypeNode): readonly number[] => {
    switch (n.k) {
      case 'pointer':
      case 'array':
      case 'packed':
        return [n.el];
      case 'struct':
        return n.els;
      case 'function':
        return [n.ret, ...n.params];
      default:
        return [];
    }
  };
  // Refined with a worklist: a class is looked at again only for the members whose children
  // moved to another class since it was last looked at (each round over every node, until none
  // split, made a chain of N types `%tK = type { %tK+1* }` take N rounds: 3,000 of them, 74 KiB
  // of text, took 3.6 s). The coarsest stable partition is unique, so the classes are the same.
  const parents: number[][] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (concrete[i] !== i) continue;
    for (const ch of childrenOf(nodes[i]!)) (parents[concrete[ch]!] ??= []).push(i);
  }
  const size: number[] = new Array<number>(classCount).fill(0);
  const dirty = new Map<number, number[]>();
  const isDirty = new Uint8Array(nodes.length);
  const mark = (i: number): void => {
    if (isDirty[i]) return;
    isDirty[i] = 1;
    const list = dirty.get(cls[i]!);
    if (list === undefined) dirty.set(cls[i]!, [i]);
    else list.push(i);
  };
  for (let i = 0; i < nodes.length; i++) {
    if (concrete[i] !== i) continue;
    size[cls[i]!]!++;
    mark(i);
  }
  // Invariant: the members of a class that are not dirty share the children's classes they had
  // when the class was last looked at; a dirty member's children include a class made since.
  while (dirty.size > 0) {
    const [c, list] = dirty.entries().next().value as [number, number[]];
    dirty.delete(c);
    const groups = new Map<string, number[]>();
    for (const i of list) {
      isDirty[i] = 0;
      let key = '';
      for (const ch of childrenOf(nodes[i]!)) key += cls[concrete[ch]!]! + ',';
      const g = groups.get(key);
      if (g === undefined) groups.set(key, [i]);
      else g.push(i);
    }
    const whole = list.length === size[c];
    if (whole && groups.size === 1) continue;
    // With every member dirty, the largest group stays and the others leave it (so a long chain
    // moves one node a step, not all but one). Otherwise every dirty group leaves the members
    // that did not change.
    let stays: number[] | undefined;
    if (whole) for (const g of groups.values()) if (stays === undefined || g.length > stays.length) stays = g;
    const moved: number[] = [];
    for (const g of groups.values()) {
      if (g === stays) continue;
      const nc = classCount++;
      size[c] -= g.length;
      size[nc] = g.length;
      for (const i of g) {
        cls[i] = nc;
        moved.push(i);
      }
    }
    for (const i of moved) for (const p of parents[i] ?? []) mark(p);
  }

  // 3. One Type object per class; composites filled in after all exist (cycles).
  const byClass: (Type | undefined)[] = new Array(classCount);
  const representative = new Int32Array(classCount).fill(-1);
  const derived: Type[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (concrete[i] !== i) continue;
    const c = cls[i]!;
    if (byClass[c] !== undefined) continue;
    representative[c] = i;
    const n = nodes[i]!;
    let t: Type;
    switch (n.k) {
      case 'prim':
        t = n.t;
        break;
      case 'int':
        t = integerType(n.bits);
        break;
      case 'opaque':
        t = { kind: 'opaque' };
        break;
      case 'pointer':
        t = { kind: 'pointer', element: primitiveTypes.void };
        break;
      case 'array':
      case 'packed':
        t = { kind: n.k, element: primitiveTypes.void, length: n.length };
        break;
      case 'struct':
        t = n.packed === true ? { kind: 'struct', elements: [], isPacked: true } : { kind: 'struct', elements: [] };
        break;
      case 'function':
        t =
          n.attrs === undefined
            ? { kind: 'function', returnType: primitiveTypes.void, params: [], isVarArg: n.varArg }
            : { kind: 'function', returnType: primitiveTypes.void, params: [], isVarArg: n.varArg, paramAttributes: n.attrs };
        break;
      default:
        throw new Error('internal error: alias node after resolution');
    }
    byClass[c] = t;
  }
  const typeOfNode = (id: number): Type => byClass[cls[concrete[id]!]!]!;
  for (let c = 0; c < classCount; c++) {
    const n = nodes[representative[c]!]!;
    const t = byClass[c]! as { element?: Type; elements?: Type[]; returnType?: Type; params?: Type[] };
    switch (n.k) {
      case 'pointer':
      case 'array':
      case 'packed':
        t.element = typeOfNode(n.el);
        break;
      case 'struct':
        t.elements = n.els.map(typeOfNode);
        break;
      case 'function':
        t.returnType = typeOfNode(n.ret);
        t.params = n.params.map(typeOfNode);
        break;
      default:
        break;
    }
  }
  // Derived types in order of first appearance (the node of a composite type comes after its
  // parts', as LLVM's parser made the parts first).
  const firstNode = new Map<Type, number>();
  for (let i = 0; i < nodes.length; i++) {
    const t = typeOfNode(i);
    if (!isPrimitiveKind(t) && !firstNode.has(t)) {
      firstNode.set(t, i);
      derived.push(t);
    }
  }

  const names = new Map<string, Type>();
  for (const [name, node] of named) names.set(name, typeOfNode(node));
  for (const r of redefinitions) {
    const a = typeOfNode(r.first);
    const b = typeOfNode(r.second);
    if (a !== b && a.kind !== 'opaque') throw source.error(`redefinition of type '%${r.name}'`, r.at);
  }

  return { typeOf: typeOfNode, names, derived, interner: new TypeInterner(derived, firstNode) };
}

function isPrimitiveKind(t: Type): boolean {
  return !(t.kind === 'function' || t.kind === 'struct' || t.kind === 'array' || t.kind === 'packed' || t.kind === 'pointer' || t.kind === 'opaque');
}

function shapeKey(n: TypeNode, id: number): string {
  switch (n.k) {
    case 'prim':
      return 'p:' + n.t.kind;
    case 'int':
      return 'i:' + n.bits;
    case 'opaque':
      return 'o:' + id; // every opaque type is distinct
    case 'pointer':
      return '*';
    case 'array':
      return 'a:' + n.length;
    case 'packed':
      return 'v:' + n.length;
    case 'struct':
      return 's:' + n.els.length + (n.packed === true ? 'p' : '');
    case 'function':
      return 'f:' + n.params.length + (n.varArg ? '...' : '') + (n.attrs === undefined ? '' : ':' + n.attrs.map((a) => `${a.index}=${a.attributes}`).join(','));
    default:
      return '?';
  }
}

/**
 * Types made after resolution, one object per structure: the pointer to a global's type, the
 * pointer an `alloca` returns, … — the same object as an equal type already in the module.
 */
export class TypeInterner {
  private readonly ids = new Map<Type, number>();
  private readonly byKey = new Map<string, Type>();
  /** When each derived type came to be, in parser-node units (see `creationRank`). */
  private readonly ranks: Map<Type, number>;
  /** The parser's node count where the builder now stands: the rank of a type made now. */
  mark = 0;
  private made = 0;

  constructor(existing: readonly Type[], firstNode: ReadonlyMap<Type, number> = new Map()) {
    this.ranks = new Map(firstNode);
    for (const t of Object.values(primitiveTypes) as PrimitiveType[]) this.id(t);
    for (const t of existing) this.id(t);
    for (const t of existing) {
      if (t.kind === 'pointer') {
        if (!this.pointers.has(t.element)) this.pointers.set(t.element, t);
        continue;
      }
      const key = this.keyOf(t);
      if (key !== undefined && !this.byKey.has(key)) this.byKey.set(key, t);
    }
  }

  pointer(element: Type): Type {
    let t = this.pointers.get(element);
    if (t === undefined) {
      t = { kind: 'pointer', element };
      this.pointers.set(element, t);
      this.id(t);
    }
    this.madeNow(t);
    return t;
  }

  /** The pointer type to each element type (the first of equal ones in the text). */
  private readonly pointers = new Map<Type, Type>();

  function(returnType: Type, params: readonly Type[], isVarArg: boolean): Type {
    const key = 'f' + this.id(returnType) + '(' + params.map((p) => this.id(p)).join(',') + (isVarArg ? ',...' : '') + ')';
    let t = this.byKey.get(key);
    if (t === undefined) {
      t = { kind: 'function', returnType, params: [...params], isVarArg };
      this.byKey.set(key, t);
      this.id(t);
    }
    this.madeNow(t);
    return t;
  }

  /** A structure type of these elements (LLVM's `StructType::get`), as the after-parsing passes need one. */
  struct(elements: readonly Type[]): Type {
    const key = 's(' + elements.map((e) => this.id(e)).join(',') + ')';
    let t = this.byKey.get(key);
    if (t === undefined) {
      t = { kind: 'struct', elements: [...elements] } as Type;
      this.byKey.set(key, t);
      this.id(t);
    }
    this.madeNow(t);
    return t;
  }

  /**
   * Set when what comes next was allocated in memory LLVM had freed (see obsolete-varargs.ts):
   * a type made from then on ranks at `mark` even when that is below types made before it, and a
   * type that already has a rank keeps it.
   */
  reusingFreedMemory = false;

  /** The parser made `t` at `mark`, unless it had made it earlier (a text's later node). */
  private madeNow(t: Type): void {
    const now = this.mark + ++this.made * 1e-9;
    const before = this.ranks.get(t);
    if (before === undefined || (now < before && !this.reusingFreedMemory)) this.ranks.set(t, now);
  }

  /**
   * When a derived type came to be, as LLVM's parser would have made it: its first appearance in
   * the text, or where the builder stood when it made it (a global's pointer type, …).
   */
  creationRank(t: Type): number | undefined {
    return this.ranks.get(t);
  }

  private id(t: Type): number {
    let id = this.ids.get(t);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(t, id);
    }
    return id;
  }

  private keyOf(t: Type): string | undefined {
    switch (t.kind) {
      case 'pointer':
        return '*' + this.id(t.element);
      case 'function':
        return 'f' + this.id(t.returnType) + '(' + t.params.map((p) => this.id(p)).join(',') + (t.isVarArg ? ',...' : '') + ')';
      case 'struct':
        return 's(' + t.elements.map((e) => this.id(e)).join(',') + ')';
      default:
        return undefined;
    }
  }
}

/**
 * A type name (or number) that no definition gives. LLVM's parser made an opaque type of every
 * one it met, the same one for each later use of the name, and checked that none was left only
 * at the end of the module's first part (the constant pool): a name used first after it — in a
 * function's header or a declaration after `implementation` or after the first function — stayed
 * an (unnamed) opaque type, in every release. Inside a function body, LLVM 1.5-1.9 refused the
 * name at once; LLVM 1.1-1.3 kept a second table of such names for bodies, checked when the next
 * function body began, so only the last body could use one.
 *
 * Each first use becomes an `opaque` node in place, and later uses refer to it.
 */
function improviseUndefinedTypes(
  ast: ModuleAst,
  named: ReadonlyMap<string, number>,
  numbered: readonly number[],
  source: SourceText,
  undefinedTypesInBodies: boolean,
): void {
  const nodes = ast.types;
  const inModule = new Map<string, number>();
  const inBodies = new Map<string, number>();
  let range = 0;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    let key: string;
    let shown: string;
    if (n.k === 'named') {
      if (named.has(n.name)) continue;
      key = `%${n.name}`;
      shown = `'%${n.name}'`;
    } else if (n.k === 'numbered') {
      if (numbered[n.n] !== undefined) continue;
      key = `#${n.n}`;
      shown = `'%${n.n}'`;
    } else continue;
    if (i < ast.constPoolTypes) throw source.error(`reference to an undefined type ${shown}`, n.at);
    const ranges = ast.bodyTypeRanges;
    while (range < ranges.length && ranges[range]![1] <= i) range++;
    const inBody = range < ranges.length && ranges[range]![0] <= i;
    if (inBody && !undefinedTypesInBodies) throw source.error(`reference to an undefined type ${shown} in a function body`, n.at);
    if (inBody && range + 1 < ranges.length) {
      throw source.error(`reference to an undefined type ${shown} in a function body that another follows (LLVM 1.1-1.3 took one only in the last body)`, n.at);
    }
    const table = inBody ? inBodies : inModule;
    const first = table.get(key);
    if (first === undefined) {
      table.set(key, i);
      nodes[i] = { k: 'opaque' };
    } else nodes[i] = { k: 'up', target: first, at: n.at };
  }
}
