/**
 * The one reader of type definitions (docs/format.md §5.3, version 7's §14.3): the records of the
 * global type plane, of a function's type list (v2+ constant pools, version 7's too) and of
 * v0–v1's type-type planes. A definition is a type code (`FormatRow.typeCodes`), then its members
 * as type ids (`readTypeId`: the row's escape and type-type shift) and its counts.
 *
 * Every walk reads type definitions here: the module-graph builder (`types.ts` for versions 0–6,
 * `v7/types.ts`) and the analyzer (both walks). What a member id means, and which codes, counts
 * and members a reader refused, is the consumer's: it sees each field through the hooks below, in
 * the order its reader read them (a member as soon as its id is read, a count before the members
 * it counts), and checks it with its own limits and messages.
 */
import { normalizeTypeId, type FormatRow } from '../format/format-table.js';
import type { ParamAttribute } from '../graph/type.js';
import type { BytecodeReader } from './reader.js';

/** The v0–v1 "type type" plane id, after normalization. */
export const TYPE_TYPE = -1;

/**
 * Reads a type id as the row stores one (the 24-bit escape of versions 3–6) and normalizes it to
 * the v2–v6 numbering (`TYPE_TYPE` for v0–v1's type plane; version 7's ids are its own).
 */
export function readTypeId(r: BytecodeReader, row: FormatRow): number {
  let id = r.vbr32();
  if (id === row.typeIdEscape) id = r.vbr32();
  const n = normalizeTypeId(row, id);
  return n === 'typeType' ? TYPE_TYPE : n;
}

/** Where a member id stands in its definition. */
export type TypeMemberRole = 'return' | 'param' | 'field' | 'element' | 'pointee';

/** How a consumer keeps and checks the fields of a definition (`M`: what it keeps of a member id). */
export interface TypeDefinitionReading<M> {
  /** The definition's code, just read (`TYPE_TYPE` for v0–v1's type-type plane). */
  code?(code: number, at: number): void;
  /**
   * A member's type id, just read: what the consumer keeps of it. `index` counts the members of
   * its role (a struct's fields, a function's parameters); `at` is the definition's offset. A
   * struct's terminating 0 is not a member.
   */
  member(id: number, role: TypeMemberRole, index: number, at: number): M;
  /** A function type's parameter count, just read: the count to read (checked, or not, as the reader did). */
  paramCount(n: number, at: number): number;
  /** Version 7: a function type's parameter-attribute count, just read: the count to read. */
  attributeCount?(n: number, at: number): number;
  /** Version 7: an integer type's width, just read. */
  integerWidth?(bits: number, at: number): void;
  /** A code the version has no type for: the consumer's error. */
  unknown(code: number, at: number): never;
}

/** One definition as read, its members as the consumer kept them. */
export type TypeDefinition<M> =
  | { readonly kind: 'primitive'; readonly code: number }
  | { readonly kind: 'integer'; readonly bits: number }
  | { readonly kind: 'function'; readonly returnType: M; readonly params: M[]; readonly attributes: ParamAttribute[] | undefined }
  | { readonly kind: 'struct'; readonly fields: M[]; readonly packed: boolean }
  | { readonly kind: 'array' | 'packed'; readonly element: M; readonly length: number }
  | { readonly kind: 'pointer'; readonly element: M }
  | { readonly kind: 'opaque' };

/** Reads one type definition at the reader's position. */
export function readTypeDefinition<M>(r: BytecodeReader, row: FormatRow, reading: TypeDefinitionReading<M>): TypeDefinition<M> {
  const c = row.typeCodes;
  const at = r.pos;
  const code = readTypeId(r, row);
  reading.code?.(code, at);
  if (code >= 0 && code < c.primitivesBelow) return { kind: 'primitive', code };
  if (code === c.function) {
    const returnType = reading.member(readTypeId(r, row), 'return', 0, at);
    const n = reading.paramCount(r.vbr32(), at);
    const params: M[] = [];
    for (let i = 0; i < n; i++) params.push(reading.member(readTypeId(r, row), 'param', i, at));
    let attributes: ParamAttribute[] | undefined;
    if (c.functionHasParamAttributes) {
      const count = r.vbr32();
      const pairs = reading.attributeCount ? reading.attributeCount(count, at) : count;
      if (pairs > 0) {
        attributes = [];
        // r36867 kept both as 16-bit numbers (ParamAttrsWithIndex).
        for (let i = 0; i < pairs; i++) {
          const index = r.vbr32() & 0xffff;
          attributes.push({ index, attributes: r.vbr32() & 0xffff });
        }
      }
    }
    return { kind: 'function', returnType, params, attributes };
  }
  if (code === c.struct || code === c.packedStruct) {
    const fields: M[] = [];
    for (let id = readTypeId(r, row); id !== 0; id = readTypeId(r, row)) fields.push(reading.member(id, 'field', fields.length, at));
    return { kind: 'struct', fields, packed: code === c.packedStruct };
  }
  if (code === c.array || code === c.packed) {
    const element = reading.member(readTypeId(r, row), 'element', 0, at);
    return { kind: code === c.array ? 'array' : 'packed', element, length: r.vbr32() };
  }
  if (code === c.pointer) return { kind: 'pointer', element: reading.member(readTypeId(r, row), 'pointee', 0, at) };
  if (code === c.opaque) return { kind: 'opaque' };
  if (code === c.integer) {
    const bits = r.vbr32();
    reading.integerWidth?.(bits, at);
    return { kind: 'integer', bits };
  }
  return reading.unknown(code, at);
}
