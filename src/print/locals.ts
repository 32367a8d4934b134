/**
 * LLVM's writer first renamed any local value whose name and (pointer) type equal a global's, so
 * that the text reads back unambiguously: `name` became `name_N`, N taken from one counter that
 * runs through the whole module (it was a static variable). Planes are taken in first-use order,
 * names within a plane in byte order, as LLVM's maps gave them.
 */
import type { Type } from '../graph/type.js';
import type { Function, Value } from '../graph/value.js';
import { byteOrder } from './type-names.js';
import { instructionsIn, nameIn, type ModuleView } from './view.js';

export interface RenameState {
  /** Global names by (pointer) type. */
  readonly globals: Map<Type, Set<string>>;
  /** LLVM's static counter. */
  counter: number;
}

export function renameState(view: ModuleView): RenameState {
  const globals = new Map<Type, Set<string>>();
  for (const g of [...view.globals, ...view.functions]) {
    const name = nameIn(view, g);
    if (name === undefined) continue;
    let set = globals.get(g.type);
    if (set === undefined) globals.set(g.type, (set = new Set()));
    set.add(name);
  }
  return { globals, counter: 0 };
}

/** New names of `f`'s locals that clash with globals (usually none). */
export function renameLocals(view: ModuleView, f: Function, state: RenameState): Map<Value, string> {
  const renamed = new Map<Value, string>();
  if (state.globals.size === 0) return renamed;
  const planes = new Map<Type, Map<string, Value>>();
  const add = (v: Value): void => {
    if (v.type.kind !== 'pointer' || !state.globals.has(v.type)) return;
    const name = nameIn(view, v);
    if (name === undefined) return;
    let plane = planes.get(v.type);
    if (plane === undefined) planes.set(v.type, (plane = new Map()));
    plane.set(name, v);
  };
  for (const a of f.args) add(a);
  for (const b of f.blocks) for (const i of instructionsIn(view, b)) add(i);
  for (const [type, plane] of planes) {
    const globalNames = state.globals.get(type)!;
    for (const name of [...plane.keys()].sort(byteOrder)) {
      if (!globalNames.has(name)) continue;
      let candidate: string;
      do candidate = name + '_' + ++state.counter;
      while (globalNames.has(candidate) || plane.has(candidate));
      const v = plane.get(name)!;
      plane.delete(name);
      plane.set(candidate, v);
      renamed.set(v, candidate);
    }
  }
  return renamed;
}
