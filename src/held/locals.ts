/**
 * LLVM's writer first renamed any local value whose name and (pointer) type equal a global's, so
 * that the text reads back unambiguously: `name` became `name_N`, N taken from one counter that
 * runs through the whole module (it was a static variable). Planes are taken in first-use order,
 * names within a plane in byte order, as LLVM's maps gave them.
 */
import type { Type } from '../graph/type.js';
import type { Function, Value } from '../graph/value.js';
import { byteOrder } from './byte-order.js';
import { nameIn, type ModuleView } from './view.js';

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

/** A function's values by position, as far as renaming reads them (the printer's BodyInfo is one). */
export interface LocalValues {
  /** The number of positions; the arrays may be longer. */
  readonly count: number;
  readonly types: readonly Type[];
  /** Names as the view gives them, before renaming. */
  readonly rawNames: readonly (string | undefined)[];
}

/**
 * New names of the locals of `body` that clash with globals (usually none), by position.
 * Arguments and instructions are taken in order (blocks are labels, never pointers).
 */
export function renameLocals(body: LocalValues, state: RenameState): Map<number, string> | undefined {
  if (state.globals.size === 0) return undefined;
  let planes: Map<Type, Map<string, number>> | undefined;
  const { count, types, rawNames } = body;
  for (let k = 0; k < count; k++) {
    const name = rawNames[k];
    if (name === undefined) continue;
    const t = types[k]!;
    if (t.kind !== 'pointer' || !state.globals.has(t)) continue;
    planes ??= new Map();
    let plane = planes.get(t);
    if (plane === undefined) planes.set(t, (plane = new Map()));
    plane.set(name, k);
  }
  if (planes === undefined) return undefined;
  const renamed = new Map<number, string>();
  for (const [type, plane] of planes) {
    const globalNames = state.globals.get(type)!;
    for (const name of [...plane.keys()].sort(byteOrder)) {
      if (!globalNames.has(name)) continue;
      let candidate: string;
      do candidate = name + '_' + ++state.counter;
      while (globalNames.has(candidate) || plane.has(candidate));
      const k = plane.get(name)!;
      plane.delete(name);
      plane.set(candidate, k);
      renamed.set(k, candidate);
    }
  }
  return renamed;
}

/** `renameLocals` for a body held as objects, by value (for callers outside the printer). */
export function renameLocalValues(view: ModuleView, f: Function, state: RenameState): Map<Value, string> {
  const values: Value[] = [...f.args];
  for (const b of f.blocks) values.push(b, ...b.instructions);
  const renamed = renameLocals({ count: values.length, types: values.map((v) => v.type), rawNames: values.map((v) => nameIn(view, v)) }, state);
  const out = new Map<Value, string>();
  if (renamed !== undefined) for (const [k, name] of renamed) out.set(values[k]!, name);
  return out;
}
