/**
 * The analyzer's own light models of types, one per reader it follows: just enough of LLVM 1.9's
 * type table (versions 0–6) and of r36867's (version 7) to answer the questions each reader asked
 * while counting (is this a pointer to a function? is it vararg? is this array one of `i8`?) and
 * to print a type the way each analyzer printed it. The definitions are read by
 * `decode/type-records.ts`; a walk turns each into a node here.
 *
 * A type-table entry starts as a forward placeholder (LLVM filled the table with opaque types
 * first, then refined each one) and is resolved once its definition has been read.
 *
 * Versions 0–6: primitive types are nodes 0–12 (LLVM 1.9 numbering). Version 7: void 0, float 1,
 * double 2, label 3 are the primitives, integers carry their width, and structs may be packed;
 * slot numbers below 4 are the primitives, slot 4 and up index the module's type table, then the
 * function's (`format/version7.ts`).
 */

import { typeText } from './type-text.js';
import { V7_FIRST_DERIVED_TYPE_SLOT, V7_LAST_PRIMITIVE_TYPE_ID, V7_TYPE_IDS } from '../format/version7.js';

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

/** Follows placeholder resolutions to the type a table entry finally became (either model). */
export function deref<T extends { readonly kind: string; resolved?: T }>(t: T): T {
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

// ---- version 7 (r36867's reader) ------------------------------------------------------------------

export type TypeNodeV7 =
  | { kind: 'prim'; id: 0 | 1 | 2 | 3 }
  | { kind: 'integer'; bits: number }
  | { kind: 'function'; ret: TypeNodeV7; params: TypeNodeV7[]; vararg: boolean }
  | { kind: 'struct'; elems: TypeNodeV7[]; packed: boolean }
  | { kind: 'array'; elem: TypeNodeV7; n: number }
  | { kind: 'vector'; elem: TypeNodeV7; n: number }
  | { kind: 'pointer'; elem: TypeNodeV7 }
  | { kind: 'opaque'; resolved?: TypeNodeV7 };

/** r36867's type ids and slots, from the format table's version-7 tables. */
export const TYPE_ID_V7 = V7_TYPE_IDS;
export const LAST_PRIMITIVE_V7 = V7_LAST_PRIMITIVE_TYPE_ID;
export const FIRST_DERIVED_V7 = V7_FIRST_DERIVED_TYPE_SLOT;

const PRIM_NAMES_V7 = ['void', 'float', 'double', 'label'] as const;

export const PRIMITIVES_V7: readonly TypeNodeV7[] = PRIM_NAMES_V7.map((_, id) => ({ kind: 'prim', id: id as 0 | 1 | 2 | 3 }) as const);

/** Whether `t` is the integer type of `bits` bits (LLVM uniqued them: one `i8` per context). */
export function isIntegerOf(t: TypeNodeV7, bits: number): boolean {
  const d = deref(t);
  return d.kind === 'integer' && d.bits === bits;
}

/** The function type a value of type `t` calls, when `t` is a pointer to a function. */
export function calledFunctionType(t: TypeNodeV7): Extract<TypeNodeV7, { kind: 'function' }> | undefined {
  const p = deref(t);
  if (p.kind !== 'pointer') return undefined;
  const f = deref(p.elem);
  return f.kind === 'function' ? f : undefined;
}

/**
 * `t` in LLVM 2.0's syntax, for the `--dump` listing (`i32 (i8*, ...)*`, `<{ i8 }>`, `<4 x float>`);
 * recursion prints as `\N` up-references, the work capped (`type-text.ts`).
 */
export function describeTypeV7(t: TypeNodeV7): string {
  return typeText(t, {
    deref,
    leaf: (x) => (x.kind === 'prim' ? PRIM_NAMES_V7[x.id] : x.kind === 'integer' ? `i${x.bits}` : x.kind === 'opaque' ? 'opaque' : undefined),
  });
}
