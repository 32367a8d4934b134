/**
 * Comparing our bytes with LLVM's where LLVM's symbol tables came out in heap-address order.
 *
 * LLVM 1.x wrote a symbol table's type planes in the order of their types' heap addresses
 * (encode/symbol-order.ts), which no text records: `llvm-as` and `llvm-link` give the same module
 * bytes that differ from ours only there. The test of "only there" is to write our module in
 * LLVM's order, read from LLVM's file, and compare the bytes: equal bytes prove that nothing but
 * the order differed; anything else is a real difference. (Comparing lengths, byte counts or
 * listings instead would pass a swapped operand or a wrong constant of the same size.)
 *
 * Used by the link scoreboard (`llvm-link`) and the assembler's checks (`llvm-as`: the corpus
 * conformance and test/asm/property.test.ts).
 */
import { writeModule, type WriteOptions } from '../src/encode/write.js';
import type { Module } from '../src/graph/module.js';
import { subtypes, type Type } from '../src/graph/type.js';
import type { SymbolTableLayout, Value } from '../src/graph/value.js';
import { readModule } from '../src/read.js';
import { sameBytes } from './same-bytes.js';

/** Structural equality across two modules, where any opaque type matches any other. */
function alike(a: Type, b: Type, assumed = new Map<Type, Type>()): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'opaque') return true;
  if (assumed.get(a) === b) return true;
  assumed.set(a, b);
  const sa = subtypes(a);
  const sb = subtypes(b);
  if (sa.length !== sb.length) return false;
  if ((a.kind === 'array' || a.kind === 'packed') && a.length !== (b as typeof a).length) return false;
  if (a.kind === 'function' && a.isVarArg !== (b as typeof a).isVarArg) return false;
  return sa.every((t, i) => alike(t, sb[i]!, assumed));
}

const nameOf = (v: Value): string | undefined => (v as { name?: string }).name;

/**
 * Gives `ours` the symbol-table order of `theirs` (planes and entries, matched by type and name;
 * `ours` is changed and returned): written so, it must be the bytes of `theirs` if the plane order
 * is the only difference. Functions are matched by position, as both modules list them in the same
 * order when they hold the same content.
 */
export function withSymbolOrderOf(ours: Module, theirs: Module): Module {
  const mapLayout = (layout: SymbolTableLayout | undefined, named: readonly Value[]): SymbolTableLayout | undefined => {
    if (layout === undefined) return undefined;
    const valuePlanes: SymbolTableLayout['valuePlanes'] = [];
    for (const plane of layout.valuePlanes) {
      // The plane's type in our module: that of a value of one of its names (types that differ
      // only in opaque parts look alike, names tell them apart).
      const names = new Set(plane.values.map(nameOf));
      const witness = named.find((v) => names.has(nameOf(v)) && alike(v.type, plane.type));
      if (witness === undefined) continue;
      const members = named.filter((v) => v.type === witness.type);
      const byName = new Map(members.map((v) => [nameOf(v), v]));
      valuePlanes.push({ type: members[0]!.type, values: plane.values.map((v) => byName.get(nameOf(v))).filter((v): v is Value => v !== undefined) });
    }
    const out: SymbolTableLayout = { valuePlanes };
    // Versions 0-1: where the type names' plane sat among the value planes (a heap address too).
    if (layout.typeNamesPlaneIndex !== undefined) out.typeNamesPlaneIndex = layout.typeNamesPlaneIndex;
    if (layout.typeNames !== undefined) out.typeNames = [...layout.typeNames];
    return out;
  };
  const named = <T extends { name?: string }>(xs: readonly T[]): T[] => xs.filter((x) => x.name);
  ours.functions.forEach((f, i) => {
    const t = theirs.functions[i];
    if (t === undefined || f.blocks.length === 0) return;
    const locals: Value[] = [...named(f.args), ...named(f.blocks), ...f.blocks.flatMap((b) => named(b.instructions))];
    const layout = mapLayout(t.layout, locals);
    if (layout === undefined) delete f.layout;
    else f.layout = layout;
  });
  const layout = mapLayout(theirs.layout, [...named(ours.globals), ...named(ours.functions), ...named(ours.aliases ?? [])]);
  if (layout === undefined) delete ours.layout;
  else ours.layout = layout;
  return ours;
}

/**
 * Whether `ours`, written with `options` in the symbol-table order of the file `theirs`, is
 * `theirs` byte for byte: true when the two differ at most in the order LLVM took from heap
 * addresses. `ours` is changed (it takes that order). False when `theirs` does not read.
 */
export function sameBytesInOrderOf(ours: Module, theirs: Uint8Array, options: WriteOptions): boolean {
  let theirModule: Module;
  try {
    theirModule = readModule(theirs);
  } catch {
    return false;
  }
  return sameBytes(writeModule(withSymbolOrderOf(ours, theirModule), options), theirs);
}
