/**
 * Type ids and type definitions (the global type plane block, the function-local type lists of
 * v3+ constant pools and compaction tables, and the type-type planes of v0–v1).
 *
 * Type ids are normalized on reading (`normalizeTypeId`): whatever the version, the decoder works
 * with the v2–v6 numbering (0–11 primitives, 12 label, 13+ derived), and the type-type plane of
 * v0–v1 comes back as `TYPE_TYPE`.
 */
import type { BinaryReader } from '../binary/reader.js';
import { NORMALIZED_FIRST_DERIVED_TYPE_ID, normalizeTypeId, type FormatRow } from '../format/format-table.js';
import type { Limits } from '../limits.js';
import { primitiveTypes as P, primitiveTypeId, type Type } from '../graph/type.js';

/** The v0–v1 "type type" plane id, after normalization. */
export const TYPE_TYPE = -1;

/** The escape value of a v3+ type id: the real id follows as another vbr (24-bit type ids). */
const TYPE_ID_ESCAPE = 0x00ff_ffff;

/** Type ids as they appear in type definitions (v2+ numbering). */
const FUNCTION_TYPE_ID = 13;
const STRUCT_TYPE_ID = 14;
const ARRAY_TYPE_ID = 15;
const POINTER_TYPE_ID = 16;
const OPAQUE_TYPE_ID = 17;
const PACKED_TYPE_ID = 18;

/** Reads a type id and normalizes it to the v2–v6 numbering (`TYPE_TYPE` for v0–v1's type plane). */
export function readTypeId(r: BinaryReader, row: FormatRow): number {
  let id = r.vbr32();
  if (!row.has32BitTypes && id === TYPE_ID_ESCAPE) id = r.vbr32();
  const n = normalizeTypeId(row, id);
  return n === 'typeType' ? TYPE_TYPE : n;
}

/**
 * A growing table of types indexed by normalized id: the 13 primitives, then derived types.
 * Definitions may refer forward within one table, so each entry is first a shell whose body is
 * filled in once the whole list has been read.
 */
export class TypeTable {
  readonly types: Type[];

  constructor(base: readonly Type[]) {
    this.types = base.slice();
  }

  /**
   * The id that decides whether `t`'s plane starts with a null (`hasImplicitNull`): a primitive's
   * own id, `NORMALIZED_FIRST_DERIVED_TYPE_ID` for every derived type. (No table of every type's
   * id: building one cost each small module more than its use.)
   */
  planeTypeId(t: Type): number {
    const id = primitiveTypeId(t);
    return id >= 0 ? id : NORMALIZED_FIRST_DERIVED_TYPE_ID;
  }

  get length(): number {
    return this.types.length;
  }

  /** The type with id `id`, or a `BytecodeError` naming the bad id. */
  at(r: BinaryReader, id: number, offset: number = r.pos): Type {
    const t = id >= 0 ? this.types[id] : undefined;
    if (t === undefined) {
      r.fail(id === TYPE_TYPE ? 'the type plane id is not a value type here' : `type id ${id} is not defined (${this.types.length} types known)`, offset);
    }
    return t;
  }

  /** Puts each replacement in place of the type it replaces (see type-identity.ts). */
  replace(replaced: ReadonlyMap<Type, Type>): void {
    for (let i = 0; i < this.types.length; i++) {
      const to = replaced.get(this.types[i]!);
      if (to !== undefined) this.types[i] = to;
    }
  }

  /** Reads a type id and returns its type. */
  read(r: BinaryReader, row: FormatRow): Type {
    const at = r.pos;
    return this.at(r, readTypeId(r, row), at);
  }

  /**
   * Reads `count` type definitions (§5.3 of docs/format.md) and appends them. Forward references
   * inside the list are allowed; references beyond it are errors.
   */
  readDefinitions(r: BinaryReader, row: FormatRow, limits: Limits, count: number): Type[] {
    r.checkCount(count, 1, limits.maxTypes - this.types.length, 'type definitions');
    const first = this.types.length;
    type Pending = { at: number; kind: number; ids: number[]; length: number };
    const pending: Pending[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const at = r.pos;
      const kind = readTypeId(r, row);
      const ids: number[] = [];
      let length = 0;
      let shell: Type;
      switch (kind) {
        case FUNCTION_TYPE_ID: {
          ids.push(readTypeId(r, row));
          const n = r.checkCount(r.vbr32(), 1, limits.maxTypeMembers, 'function type parameters');
          for (let j = 0; j < n; j++) ids.push(readTypeId(r, row));
          shell = { kind: 'function', returnType: P.void, params: [], isVarArg: false };
          break;
        }
        case STRUCT_TYPE_ID:
          for (let id = readTypeId(r, row); id !== 0; id = readTypeId(r, row)) {
            if (ids.length >= limits.maxTypeMembers) r.fail(`structure type has more fields than the limit of ${limits.maxTypeMembers}`, at);
            ids.push(id);
          }
          shell = { kind: 'struct', elements: [] };
          break;
        case ARRAY_TYPE_ID:
        case PACKED_TYPE_ID:
          ids.push(readTypeId(r, row));
          length = r.vbr32();
          shell = kind === ARRAY_TYPE_ID ? { kind: 'array', element: P.void, length } : { kind: 'packed', element: P.void, length };
          break;
        case POINTER_TYPE_ID:
          ids.push(readTypeId(r, row));
          shell = { kind: 'pointer', element: P.void };
          break;
        case OPAQUE_TYPE_ID:
          shell = { kind: 'opaque' };
          break;
        default:
          if (kind >= 0 && kind < FUNCTION_TYPE_ID && this.types[kind] !== undefined) {
            shell = this.types[kind]!; // a primitive named by its id (legal, never written)
            break;
          }
          r.fail(`unknown type kind ${kind} in a type definition`, at);
      }
      pending[i] = { at, kind, ids, length };
      this.types.push(shell);
    }
    for (let i = 0; i < count; i++) this.complete(r, pending[i]!, this.types[first + i]!);
    const added = this.types.slice(first);
    // A type may contain itself by value (`%t = type { %t }`): LLVM 1.x accepted such types and
    // values of them, so the reader does too (see src/graph/self-containing.ts).
    return added;
  }

  private complete(r: BinaryReader, p: { at: number; kind: number; ids: number[] }, t: Type): void {
    const ref = (id: number): Type => this.at(r, id, p.at);
    switch (t.kind) {
      case 'function': {
        const ids = p.ids;
        // A trailing `void` parameter marks a varargs function.
        const isVarArg = ids.length > 1 && ids[ids.length - 1] === 0;
        t.returnType = ref(ids[0]!);
        const n = isVarArg ? ids.length - 1 : ids.length;
        const params = new Array<Type>(n - 1);
        for (let j = 1; j < n; j++) {
          const pt = ref(ids[j]!);
          // (`int (label)` is LLVM 1.x's: its assembler and reader took it.)
          if (pt.kind === 'void') r.fail(`function type has a parameter of type ${pt.kind}`, p.at);
          params[j - 1] = pt;
        }
        t.params = params;
        t.isVarArg = isVarArg;
        return;
      }
      case 'struct': {
        const els = new Array<Type>(p.ids.length);
        for (let j = 0; j < p.ids.length; j++) {
          const et = ref(p.ids[j]!);
          // Fields of function or label type (`{ void () }`, `{ label }`) are LLVM 1.x's: its
          // assembler wrote them and its reader took them back. A void field no text can say.
          if (et.kind === 'void') r.fail(`structure type has a field of type ${et.kind}`, p.at);
          els[j] = et;
        }
        t.elements = els;
        return;
      }
      case 'array':
      case 'packed':
      case 'pointer': {
        const el = ref(p.ids[0]!);
        // Arrays of functions or labels (`[2 x void ()]`, `[2 x label]`) are LLVM 1.x's, as are
        // structure fields of those types; a pointer to a label and a packed type of anything but
        // integers and floating point its assembler refused.
        if (el.kind === 'void' || (el.kind === 'label' && t.kind !== 'array')) r.fail(`${t.kind} type of ${el.kind}`, p.at);
        if (t.kind === 'packed' && el.kind === 'function') r.fail(`${t.kind} type of functions`, p.at);
        t.element = el;
        return;
      }
      default:
        return;
    }
  }
}
