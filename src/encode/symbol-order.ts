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

export interface SymbolPlane {
  type: Type;
  /** Named values with their names, in output order. */
  entries: { name: string; value: Value }[];
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
export function symbolPlanes(
  named: readonly Value[],
  layout: SymbolTableLayout | undefined,
  typeRank: (t: Type) => number,
): SymbolPlane[] {
  const byType = new Map<Type, Value[]>();
  for (const v of named) {
    let plane = byType.get(v.type);
    if (plane === undefined) byType.set(v.type, (plane = []));
    plane.push(v);
  }
  const planeTypes: Type[] = [];
  const placed = new Set<Type>();
  const layoutOrder = new Map<Type, Value[]>();
  if (layout !== undefined) {
    for (const p of layout.valuePlanes) {
      if (!placed.has(p.type) && byType.has(p.type)) {
        placed.add(p.type);
        planeTypes.push(p.type);
        layoutOrder.set(p.type, p.values);
      }
    }
  }
  const rest = [...byType.keys()].filter((t) => !placed.has(t));
  const seen = new Map(rest.map((t, i) => [t, i]));
  rest.sort((a, b) => typeRank(a) - typeRank(b) || seen.get(a)! - seen.get(b)!);
  planeTypes.push(...rest);

  return planeTypes.map((type) => {
    const values = byType.get(type)!;
    const sorted = values.map((value) => ({ name: nameOf(value), value }));
    sorted.sort((x, y) => compareNames(x.name, y.name));
    const inLayout = layoutOrder.get(type);
    if (inLayout === undefined) return { type, entries: sorted };
    const members = new Set(values);
    const entries: { name: string; value: Value }[] = [];
    const done = new Set<Value>();
    for (const v of inLayout) {
      if (members.has(v) && !done.has(v)) {
        done.add(v);
        entries.push({ name: nameOf(v), value: v });
      }
    }
    for (const e of sorted) if (!done.has(e.value)) entries.push(e);
    return { type, entries };
  });
}

/** A value's name, or '' when it has none (constants never do). */
export function nameOf(v: Value): string {
  switch (v.kind) {
    case 'block':
    case 'argument':
    case 'instruction':
    case 'global':
    case 'function':
      return v.name ?? '';
    default:
      return '';
  }
}
