/**
 * Version 7's type lists (the global type plane block, and the type list that opens a function's
 * constant pool), as r36867 read them: a count, then one definition per type, each a type id
 * (format/version7.ts `V7_TYPE_IDS`) and its members as type slots.
 *
 * A definition may refer to types later in the same list (recursive types): r36867 gave each entry
 * an opaque placeholder first and refined it once read. Here each entry is read first and the
 * graph objects are built afterwards, members pointing at the entries' own objects, which gives
 * the same types (cycles included).
 *
 * The records are read by the one type-definition reader (`decode/type-records.ts`, with the
 * row's version-7 codes). Why this part is its own: what a version-7 list means differs from
 * 1.x's (`decode/types.ts` `TypeTable`): its slots are numbered past version 7's four primitives
 * and the module's pool (`V7Scope`), integers have widths, and r36867 refused what LLVM 1.x took
 * (label parameters and elements, vectors of anything but integers and floating point) and read
 * parameter attributes; its messages say so in its own words.
 */
import type { BinaryReader } from '../../binary/reader.js';
import { formatFor } from '../../format/format-table.js';
import { V7_TYPE_IDS } from '../../format/version7.js';
import { UnsupportedVersionError } from '../../format/version-word.js';
import { describeType } from '../../graph/describe.js';
import { integerType, MAX_INTEGER_BITS, primitiveTypes as P, type FunctionType, type Type } from '../../graph/type.js';
import { readTypeDefinition, type TypeDefinition, type TypeDefinitionReading } from '../type-records.js';
import type { V7Scope } from './scope.js';

const V7_ROW = formatFor(7)!;

const V7_WORD = { version: 7, layout: 'bare', flags: 0 } as const;
const EARLIER_PARAM_ATTRS = (index: number, params: number): string =>
  `a function type's parameter attributes name parameter ${index} of ${params}: the dense attribute layout LLVM trunk wrote between 2006-12-31 and 2007-04-08, an earlier version-7 stage than the one read here (r36867's sparse list); it is not supported`;

/** Version 7's primitives by type code (void 0, float 1, double 2, label 3). */
const PRIMITIVE_BY_CODE: readonly Type[] = [P.void, P.float, P.double, P.label];

/**
 * Reads `count` type definitions whose first takes slot `base`; returns their types, in order.
 * `known(slot)` gives the types of slots below `base` (the primitives, and for a function's list
 * the module's pool); slots from `base` on are the list's own entries.
 */
export function readTypeList(scope: V7Scope, count: number, base: number, known: (slot: number, at: number) => Type): Type[] {
  const r: BinaryReader = scope.r;
  const limits = scope.limits;
  r.checkCount(count, 1, limits.maxTypes - scope.moduleTypes.length - scope.functionTypes.length, 'types', r.pos);
  const reading = definitionReading(scope);
  const raws: { at: number; def: TypeDefinition<number> }[] = [];
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    raws.push({ at, def: readTypeDefinition(r, V7_ROW, reading) });
  }

  // The objects first (shells for the derived types), then their members.
  const types: Type[] = raws.map(({ def }): Type => {
    switch (def.kind) {
      case 'primitive':
        return PRIMITIVE_BY_CODE[def.code]!;
      case 'integer':
        return integerType(def.bits);
      case 'function':
        return { kind: 'function', returnType: P.void, params: [], isVarArg: false };
      case 'struct':
        return def.packed ? { kind: 'struct', elements: [], isPacked: true } : { kind: 'struct', elements: [] };
      case 'array':
        return { kind: 'array', element: P.void, length: def.length };
      case 'packed':
        return { kind: 'packed', element: P.void, length: def.length };
      case 'pointer':
        return { kind: 'pointer', element: P.void };
      case 'opaque':
        return { kind: 'opaque' };
    }
  });
  const slot = (s: number, at: number): Type => {
    if (s >= base) {
      const own = types[s - base];
      if (own === undefined) r.fail(`type slot ${s} is not defined (the list ends at slot ${base + types.length - 1})`, at);
      return own;
    }
    return known(s, at);
  };
  raws.forEach(({ at, def }, i) => {
    const t = types[i]!;
    switch (def.kind) {
      case 'function': {
        const f = t as FunctionType;
        f.returnType = slot(def.returnType, at);
        const params = def.params.map((p) => slot(p, at));
        // A trailing void parameter marks a varargs function (r36867's ParseType).
        if (params.length > 0 && params[params.length - 1] === P.void) {
          params.pop();
          f.isVarArg = true;
        }
        if (params.some((p) => p === P.void || p === P.label)) r.fail(`a function type has a parameter of type void or label`, at);
        f.params = params;
        if (def.attributes !== undefined) {
          // Before 2007-04-09 attributes followed the return type and each parameter (one each);
          // read as r36867's sparse list, such a type names parameters it does not have.
          const beyond = def.attributes.find((a) => a.index > params.length);
          if (beyond !== undefined) throw new UnsupportedVersionError(V7_WORD, at, r.blockPath, EARLIER_PARAM_ATTRS(beyond.index, params.length));
          f.paramAttributes = def.attributes;
        }
        break;
      }
      case 'struct':
        (t as { elements: Type[] }).elements = def.fields.map((e) => element(slot(e, at), at, 'struct'));
        break;
      case 'array':
      case 'packed':
      case 'pointer':
        (t as { element: Type }).element = element(slot(def.element, at), at, def.kind === 'packed' ? 'vector' : def.kind);
        break;
      default:
        break;
    }
  });
  for (const [i, { at, def }] of raws.entries()) {
    if (def.kind === 'packed') {
      const e = (types[i] as { element: Type }).element;
      if (e.kind !== 'integer' && e.kind !== 'float' && e.kind !== 'double')
        r.fail(`a vector of ${describeType(e)} (vector elements are integers or floating point)`, at);
      if (def.length === 0) r.fail('a vector type of 0 elements', at);
    }
  }
  return types;

  function element(t: Type, at: number, of: string): Type {
    if (t === P.void || t === P.label) r.fail(`a ${of} type of ${t.kind}`, at);
    return t;
  }
}

/** r36867's checks of a definition's fields as the builder words them (member slots are resolved once the list is read). */
function definitionReading(scope: V7Scope): TypeDefinitionReading<number> {
  const r: BinaryReader = scope.r;
  const limits = scope.limits;
  return {
    member: (slot, role, index, at) => {
      if (role === 'field' && index >= limits.maxTypeMembers) r.fail(`a struct type of more than ${limits.maxTypeMembers} elements (the limit)`, at);
      return slot;
    },
    paramCount: (n) => r.checkCount(n, 1, limits.maxTypeMembers, 'function type parameters'),
    attributeCount: (n) => r.checkCount(n, 2, limits.maxTypeMembers + 1, 'parameter attributes'),
    integerWidth: (bits, at) => {
      const max = Math.min(MAX_INTEGER_BITS, limits.maxIntegerBits);
      if (bits < 1 || bits > max)
        r.fail(
          `an integer type of ${bits} bits (widths run from 1 to ${max}${max < MAX_INTEGER_BITS ? ', the limit' : ", LLVM's IntegerType::MAX_INT_BITS"})`,
          at,
        );
    },
    unknown: (code, at) => r.fail(`unknown type id ${code} (version 7 knows 0 to ${V7_TYPE_IDS.vector})`, at),
  };
}
