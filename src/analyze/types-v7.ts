/**
 * The analyzer's light model of version-7 types (r36867's `Type::TypeID` numbering): enough of
 * the type table to answer what that revision's reader asked while it counted (is this a pointer
 * to a function, is it vararg, is this array one of `i8`?) and to describe a type in the `--dump`
 * listing in LLVM 2.0's syntax.
 *
 * Type ids as written in a version-7 file: void 0, float 1, double 2, label 3 (the primitives),
 * then derived kinds: integer 4 (followed by its width), function 5, struct 6, packed struct 7,
 * array 8, pointer 9, opaque 10, vector 11. Slot numbers below 4 are the primitives; slot 4 and
 * up index the module's type table, then the function's.
 *
 * Why its own: r36867's type ids, as in `decode/v7/types.ts`; the analyzer keeps only shapes, not
 * graph types.
 */
import { typeText } from './type-text.js';
import { V7_FIRST_DERIVED_TYPE_SLOT, V7_LAST_PRIMITIVE_TYPE_ID, V7_TYPE_IDS } from '../format/version7.js';

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

/** Follows placeholder resolutions to the type a table entry finally became. */
export function derefV7(t: TypeNodeV7): TypeNodeV7 {
  let cur = t;
  while (cur.kind === 'opaque' && cur.resolved !== undefined) cur = cur.resolved;
  return cur;
}

/** Whether `t` is the integer type of `bits` bits (LLVM uniqued them: one `i8` per context). */
export function isIntegerOf(t: TypeNodeV7, bits: number): boolean {
  const d = derefV7(t);
  return d.kind === 'integer' && d.bits === bits;
}

/** The function type a value of type `t` calls, when `t` is a pointer to a function. */
export function calledFunctionType(t: TypeNodeV7): Extract<TypeNodeV7, { kind: 'function' }> | undefined {
  const p = derefV7(t);
  if (p.kind !== 'pointer') return undefined;
  const f = derefV7(p.elem);
  return f.kind === 'function' ? f : undefined;
}

/**
 * `t` in LLVM 2.0's syntax, for the `--dump` listing (`i32 (i8*, ...)*`, `<{ i8 }>`, `<4 x float>`);
 * recursion prints as `\N` up-references, the work capped (`type-text.ts`).
 */
export function describeTypeV7(t: TypeNodeV7): string {
  return typeText(t, {
    deref: derefV7,
    leaf: (x) => (x.kind === 'prim' ? PRIM_NAMES_V7[x.id] : x.kind === 'integer' ? `i${x.bits}` : x.kind === 'opaque' ? 'opaque' : undefined),
  });
}
