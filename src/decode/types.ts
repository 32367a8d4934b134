/**
 * The builder's type table for versions 0–6: the types of the global type plane block, the
 * function-local type lists of v3+ constant pools and compaction tables, and the type-type
 * planes of v0–v1, whose definitions it reads through `type-records.ts`.
 *
 * Type ids are normalized on reading (`normalizeTypeId`): whatever the version, the decoder works
 * with the v2–v6 numbering (0–11 primitives, 12 label, 13+ derived), and the type-type plane of
 * v0–v1 comes back as `TYPE_TYPE`.
 */
import type { BinaryReader } from '../binary/reader.js';
import { NORMALIZED_FIRST_DERIVED_TYPE_ID, type FormatRow } from '../format/format-table.js';
import type { Limits } from '../limits.js';
import { primitiveTypes as P, primitiveTypeId, type Type } from '../graph/type.js';
import { readTypeDefinition, readTypeId, TYPE_TYPE, type TypeDefinition, type TypeDefinitionReading } from './type-records.js';

export { readTypeId, TYPE_TYPE };

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
    const pending: { at: number; def: TypeDefinition<number> }[] = new Array(count);
    const reading = definitionReading(r, limits);
    for (let i = 0; i < count; i++) {
      const at = r.pos;
      const def = readTypeDefinition(r, row, reading);
      let shell: Type;
      switch (def.kind) {
        case 'primitive': {
          const known = this.types[def.code];
          if (known === undefined) reading.unknown(def.code, at);
          shell = known; // a primitive named by its id (legal, never written)
          break;
        }
        case 'function':
          shell = { kind: 'function', returnType: P.void, params: [], isVarArg: false };
          break;
        case 'struct':
          shell = { kind: 'struct', elements: [] };
          break;
        case 'array':
        case 'packed':
          shell = { kind: def.kind, element: P.void, length: def.length };
          break;
        case 'pointer':
          shell = { kind: 'pointer', element: P.void };
          break;
        case 'opaque':
          shell = { kind: 'opaque' };
          break;
        default:
          // (Integer types are version 7's alone: no code of versions 0–6 reads as one.)
          throw new Error('internal error: a version-7 type definition in a version 0–6 type list');
      }
      pending[i] = { at, def };
      this.types.push(shell);
    }
    for (let i = 0; i < count; i++) this.complete(r, pending[i]!, this.types[first + i]!);
    const added = this.types.slice(first);
    // A type may contain itself by value (`%t = type { %t }`): LLVM 1.x accepted such types and
    // values of them, so the reader does too (see src/graph/self-containing.ts).
    return added;
  }

  private complete(r: BinaryReader, p: { at: number; def: TypeDefinition<number> }, t: Type): void {
    const ref = (id: number): Type => this.at(r, id, p.at);
    const def = p.def;
    switch (t.kind) {
      case 'function': {
        if (def.kind !== 'function') return;
        const ids = def.params;
        // A trailing `void` parameter marks a varargs function.
        const isVarArg = ids.length > 0 && ids[ids.length - 1] === 0;
        t.returnType = ref(def.returnType);
        const n = isVarArg ? ids.length - 1 : ids.length;
        const params = new Array<Type>(n);
        for (let j = 0; j < n; j++) {
          const pt = ref(ids[j]!);
          // (`int (label)` is LLVM 1.x's: its assembler and reader took it.)
          if (pt.kind === 'void') r.fail(`function type has a parameter of type ${pt.kind}`, p.at);
          params[j] = pt;
        }
        t.params = params;
        t.isVarArg = isVarArg;
        return;
      }
      case 'struct': {
        if (def.kind !== 'struct') return;
        const els = new Array<Type>(def.fields.length);
        for (let j = 0; j < def.fields.length; j++) {
          const et = ref(def.fields[j]!);
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
        if (def.kind !== 'array' && def.kind !== 'packed' && def.kind !== 'pointer') return;
        const el = ref(def.element);
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

/**
 * The builder's checks of a definition's fields (versions 0–6): its limits, and its message for a
 * code no type has. Member ids are kept as read and resolved once the whole list is read.
 */
function definitionReading(r: BinaryReader, limits: Limits): TypeDefinitionReading<number> {
  return {
    member: (id, role, index, at) => {
      if (role === 'field' && index >= limits.maxTypeMembers) r.fail(`structure type has more fields than the limit of ${limits.maxTypeMembers}`, at);
      return id;
    },
    paramCount: (n) => r.checkCount(n, 1, limits.maxTypeMembers, 'function type parameters'),
    unknown: (code, at) => r.fail(`unknown type kind ${code} in a type definition`, at),
  };
}
