/**
 * The analyzer's own light model of types: just enough of LLVM 1.9's type table to answer the
 * questions its reader asked while counting (is this a pointer to a function? what plane does an
 * argument go in?) and to print a function's type the way the analyzer printed it.
 *
 * Primitive types are nodes 0–12 (LLVM 1.9 numbering). A type-table entry starts as a forward
 * placeholder (LLVM filled the table with opaque types first, then refined each one) and is
 * resolved once its definition has been read.
 */

import { typeText } from './type-text.js';

export type TypeNode =
  | { kind: 'prim'; id: number }
  | { kind: 'function'; ret: TypeNode; params: TypeNode[]; vararg: boolean }
  | { kind: 'pointer'; elem: TypeNode }
  | { kind: 'array'; elem: TypeNode; n: number }
  | { kind: 'packed'; elem: TypeNode; n: number }
  | { kind: 'struct'; elems: TypeNode[] }
  | { kind: 'opaque'; serial: number; resolved?: TypeNode };

const PRIM_NAMES = ['void', 'bool', 'ubyte', 'sbyte', 'ushort', 'short', 'uint', 'int', 'ulong', 'long', 'float', 'double', 'label'] as const;

export const PRIMITIVES: readonly TypeNode[] = PRIM_NAMES.map((_, id) => ({ kind: 'prim', id }) as const);

/** Follows placeholder resolutions to the type a table entry finally became. */
export function deref(t: TypeNode): TypeNode {
  let cur = t;
  while (cur.kind === 'opaque' && cur.resolved !== undefined) cur = cur.resolved;
  return cur;
}

let opaqueSerial = 0;
export function newOpaque(): TypeNode {
  return { kind: 'opaque', serial: opaqueSerial++ };
}

/**
 * Prints `t` as LLVM 1.9's `WriteTypeSymbolic` did: primitives by name, types named in the module
 * symbol table by `%name`, recursion as `\N` up-references (`type-text.ts`). `names` maps a structural key
 * to the printed name by identity: a module's type table held each (uniqued) type once.
 */
export function describeType(t: TypeNode, names: ReadonlyMap<TypeNode, string>): string {
  return typeText(t, {
    deref,
    leaf: (x) => {
      if (x.kind === 'prim') return PRIM_NAMES[x.id] ?? `prim${x.id}`;
      if (names.size) {
        const n = names.get(x);
        if (n !== undefined) return n;
      }
      return x.kind === 'opaque' ? 'opaque' : undefined;
    },
  });
}

/** LLVM 1.9's `getLLVMName` for a type name: `%name`, quoted when it has unusual characters. */
export function llvmTypeName(name: string): string {
  if (/^[0-9]/.test(name)) return `"${name}"`;
  if (/[^a-zA-Z0-9._-]/.test(name)) return `"${name}"`;
  return `%${name}`;
}
