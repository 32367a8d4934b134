/**
 * The order of a symbol table's entries.
 *
 * LLVM 1.x kept a symbol table as `map<Type*, map<string, Value*>>` plus `map<string, Type*>` for
 * type names: names within a plane, and type names, come out sorted bytewise, but the planes come
 * out in the order of their types' heap addresses, which depends on how the module was built in
 * memory. The decoder records the file's plane order (`SymbolTableLayout`); we follow it when
 * present. Otherwise (a module built in code) planes come in the order their types first appear
 * in `typeRank` (the writer passes the global type table's order), which is deterministic.
 * Names within a plane are always sorted bytewise, as `std::map<std::string, …>` did; entries the
 * layout lists keep its order (so a file whose order was not sorted still round-trips).
 */
import type { Type } from '../graph/type.js';
import type { Value, SymbolTableLayout } from '../graph/value.js';

export interface SymbolPlane<K = Value> {
  type: Type;
  /** Named values with their names, in output order. */
  entries: { name: string; value: K }[];
}

/** A named value of a symbol table: the value (or how the caller knows it), its type and name. */
export interface NamedValue<K> {
  value: K;
  type: Type;
  name: string;
}

/** Bytewise comparison of two names (names hold one byte per UTF-16 unit, latin1). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Named type entries in output order (sorted by name). */
export function typeNameOrder(typeNames: ReadonlyMap<string, Type>): { name: string; type: Type }[] {
  const out = [...typeNames].map(([name, type]) => ({ name, type }));
  out.sort((x, y) => compareNames(x.name, y.name));
  return out;
}

/**
 * Orders the named values of one symbol table. `named` lists every value with a non-empty name;
 * `typeRank` ranks plane types for the default order (lower first; unranked types go last, in
 * first-seen order).
 */
export function symbolPlanes(named: readonly Value[], layout: SymbolTableLayout | undefined, typeRank: (t: Type) => number): SymbolPlane[] {
  return symbolPlanesOf(
    named.map((value) => ({ value, type: value.type, name: nameOf(value) })),
    layout?.valuePlanes,
    typeRank,
  );
}

/**
 * `symbolPlanes` over values known by any key `K` (a function body's values are numbers, see
 * encode/body-view.ts): `layoutPlanes` lists keys in the file's order.
 */
export function symbolPlanesOf<K>(
  named: readonly NamedValue<K>[],
  layoutPlanes: readonly { type: Type; values: readonly K[] }[] | undefined,
  typeRank: (t: Type) => number,
): SymbolPlane<K>[] {
  // Planes in first-seen order (a Map iterates in insertion order).
  const byType = new Map<Type, NamedValue<K>[]>();
  for (const v of named) {
    const plane = byType.get(v.type);
    if (plane === undefined) byType.set(v.type, [v]);
    else plane.push(v);
  }
  const planeTypes: Type[] = [];
  let layoutOrder: Map<Type, readonly K[]> | undefined;
  if (layoutPlanes !== undefined) {
    layoutOrder = new Map<Type, readonly K[]>();
    for (const p of layoutPlanes) {
      if (!layoutOrder.has(p.type) && byType.has(p.type)) {
        planeTypes.push(p.type);
        layoutOrder.set(p.type, p.values);
      }
    }
  }
  const rest: Type[] = [];
  for (const t of byType.keys()) if (layoutOrder === undefined || !layoutOrder.has(t)) rest.push(t);
  if (rest.length > 1) {
    // Array.prototype.sort is stable: equal ranks keep first-seen order.
    const ranks = new Map<Type, number>();
    for (const t of rest) ranks.set(t, typeRank(t));
    rest.sort((a, b) => ranks.get(a)! - ranks.get(b)!);
  }
  for (const t of rest) planeTypes.push(t);

  const planes: SymbolPlane<K>[] = [];
  for (const type of planeTypes) {
    const values = byType.get(type)!;
    const inLayout = layoutOrder?.get(type);
    if (inLayout === undefined) {
      planes.push({ type, entries: sortedEntries(values) });
      continue;
    }
    // The layout's order for the values it lists (once each), then the others sorted by name.
    // (A value listed twice among `named` is one member, as a Set of values made it.)
    const members = new Map<K, NamedValue<K>>();
    for (const v of values) if (!members.has(v.value)) members.set(v.value, v);
    const entries: { name: string; value: K }[] = [];
    for (const k of inLayout) {
      const v = members.get(k);
      if (v === undefined) continue;
      members.delete(k);
      entries.push({ name: v.name, value: k });
    }
    if (members.size !== 0) for (const e of sortedEntries([...members.values()])) entries.push(e);
    planes.push({ type, entries });
  }
  return planes;
}

function sortedEntries<K>(values: readonly NamedValue<K>[]): { name: string; value: K }[] {
  const entries = values.map((v) => ({ name: v.name, value: v.value }));
  if (entries.length > 1) entries.sort((x, y) => compareNames(x.name, y.name));
  return entries;
}

/**
 * A value's name, or '' when it has none. Constants normally have none, but LLVM 1.0–1.2 could
 * name one in a symbol table (the reader keeps such a name on the constant it names).
 */
export function nameOf(v: Value): string {
  switch (v.kind) {
    case 'block':
    case 'argument':
    case 'instruction':
    case 'global':
    case 'function':
      return v.name ?? '';
    default: {
      const name = (v as { name?: unknown }).name;
      return typeof name === 'string' ? name : '';
    }
  }
}

/** The named constants a symbol table layout lists (LLVM 1.0–1.2 only; see `nameOf`). */
export function namedConstants(layout: SymbolTableLayout | undefined): Value[] {
  const out: Value[] = [];
  if (layout === undefined) return out;
  for (const plane of layout.valuePlanes) {
    for (const v of plane.values) {
      switch (v.kind) {
        case 'block':
        case 'argument':
        case 'instruction':
        case 'global':
        case 'function':
        case 'alias':
          continue;
        default:
          if (nameOf(v) !== '') out.push(v);
      }
    }
  }
  return out;
}
