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
 * Why its own: r36867's type ids (integer with a width, packed struct, vector, parameter
 * attributes) are a different numbering from 1.x's (`decode/types.ts`).
 */
import type { BinaryReader } from '../../binary/reader.js';
import { V7_TYPE_IDS as ID } from '../../format/version7.js';
import { UnsupportedVersionError } from '../../format/version-word.js';
import { describeType } from '../../graph/describe.js';
import { integerType, MAX_INTEGER_BITS, primitiveTypes as P, type FunctionType, type ParamAttribute, type Type } from '../../graph/type.js';
import type { V7Scope } from './scope.js';

/** One definition as read, members still as slots (`base` = the slot of the list's first entry). */
type RawType =
  | { readonly kind: 'primitive'; readonly type: Type }
  | { readonly kind: 'integer'; readonly bits: number }
  | { readonly kind: 'function'; readonly ret: number; readonly params: number[]; readonly attrs: ParamAttribute[] | undefined; readonly at: number }
  | { readonly kind: 'struct'; readonly elements: number[]; readonly packed: boolean; readonly at: number }
  | { readonly kind: 'array' | 'vector'; readonly element: number; readonly length: number; readonly at: number }
  | { readonly kind: 'pointer'; readonly element: number; readonly at: number }
  | { readonly kind: 'opaque' };

const PRIMITIVE_BY_ID: readonly Type[] = [P.void, P.float, P.double, P.label];

const V7_WORD = { version: 7, layout: 'bare', flags: 0 } as const;
const EARLIER_PARAM_ATTRS = (index: number, params: number): string =>
  `a function type's parameter attributes name parameter ${index} of ${params}: the dense attribute layout LLVM trunk wrote between 2006-12-31 and 2007-04-08, an earlier version-7 stage than the one read here (r36867's sparse list); it is not supported`;

/**
 * Reads `count` type definitions whose first takes slot `base`; returns their types, in order.
 * `known(slot)` gives the types of slots below `base` (the primitives, and for a function's list
 * the module's pool); slots from `base` on are the list's own entries.
 */
export function readTypeList(scope: V7Scope, count: number, base: number, known: (slot: number, at: number) => Type): Type[] {
  const r: BinaryReader = scope.r;
  const limits = scope.limits;
  r.checkCount(count, 1, limits.maxTypes - scope.moduleTypes.length - scope.functionTypes.length, 'types', r.pos);
  const raws: RawType[] = [];
  for (let i = 0; i < count; i++) raws.push(readDefinition(scope));

  // The objects first (shells for the derived types), then their members.
  const types: Type[] = raws.map((raw): Type => {
    switch (raw.kind) {
      case 'primitive':
        return raw.type;
      case 'integer':
        return integerType(raw.bits);
      case 'function':
        return { kind: 'function', returnType: P.void, params: [], isVarArg: false };
      case 'struct':
        return raw.packed ? { kind: 'struct', elements: [], isPacked: true } : { kind: 'struct', elements: [] };
      case 'array':
        return { kind: 'array', element: P.void, length: raw.length };
      case 'vector':
        return { kind: 'packed', element: P.void, length: raw.length };
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
  raws.forEach((raw, i) => {
    const t = types[i]!;
    switch (raw.kind) {
      case 'function': {
        const f = t as FunctionType;
        f.returnType = slot(raw.ret, raw.at);
        const params = raw.params.map((p) => slot(p, raw.at));
        // A trailing void parameter marks a varargs function (r36867's ParseType).
        if (params.length > 0 && params[params.length - 1] === P.void) {
          params.pop();
          f.isVarArg = true;
        }
        if (params.some((p) => p === P.void || p === P.label)) r.fail(`a function type has a parameter of type void or label`, raw.at);
        f.params = params;
        if (raw.attrs !== undefined) {
          // Before 2007-04-09 attributes followed the return type and each parameter (one each);
          // read as r36867's sparse list, such a type names parameters it does not have.
          const beyond = raw.attrs.find((a) => a.index > params.length);
          if (beyond !== undefined) throw new UnsupportedVersionError(V7_WORD, raw.at, r.blockPath, EARLIER_PARAM_ATTRS(beyond.index, params.length));
          f.paramAttributes = raw.attrs;
        }
        break;
      }
      case 'struct':
        (t as { elements: Type[] }).elements = raw.elements.map((e) => element(slot(e, raw.at), raw.at, 'struct'));
        break;
      case 'array':
      case 'vector':
      case 'pointer':
        (t as { element: Type }).element = element(slot(raw.element, raw.at), raw.at, raw.kind);
        break;
      default:
        break;
    }
  });
  for (const [i, raw] of raws.entries()) {
    if (raw.kind === 'vector') {
      const e = (types[i] as { element: Type }).element;
      if (e.kind !== 'integer' && e.kind !== 'float' && e.kind !== 'double')
        r.fail(`a vector of ${describeType(e)} (vector elements are integers or floating point)`, raw.at);
      if (raw.length === 0) r.fail('a vector type of 0 elements', raw.at);
    }
  }
  return types;

  function element(t: Type, at: number, of: string): Type {
    if (t === P.void || t === P.label) r.fail(`a ${of} type of ${t.kind}`, at);
    return t;
  }
}

function readDefinition(scope: V7Scope): RawType {
  const r: BinaryReader = scope.r;
  const limits = scope.limits;
  const at = r.pos;
  const id = r.vbr32();
  if (id < ID.integer) return { kind: 'primitive', type: PRIMITIVE_BY_ID[id]! };
  switch (id) {
    case ID.integer: {
      const bits = r.vbr32();
      const max = Math.min(MAX_INTEGER_BITS, limits.maxIntegerBits);
      if (bits < 1 || bits > max)
        r.fail(
          `an integer type of ${bits} bits (widths run from 1 to ${max}${max < MAX_INTEGER_BITS ? ', the limit' : ", LLVM's IntegerType::MAX_INT_BITS"})`,
          at,
        );
      return { kind: 'integer', bits };
    }
    case ID.function: {
      const ret = r.vbr32();
      const n = r.checkCount(r.vbr32(), 1, limits.maxTypeMembers, 'function type parameters');
      const params: number[] = [];
      for (let i = 0; i < n; i++) params.push(r.vbr32());
      const attrCount = r.checkCount(r.vbr32(), 2, limits.maxTypeMembers + 1, 'parameter attributes');
      let attrs: ParamAttribute[] | undefined;
      if (attrCount > 0) {
        attrs = [];
        for (let i = 0; i < attrCount; i++) {
          // r36867 kept both as 16-bit numbers (ParamAttrsWithIndex).
          const index = r.vbr32() & 0xffff;
          attrs.push({ index, attributes: r.vbr32() & 0xffff });
        }
      }
      return { kind: 'function', ret, params, attrs, at };
    }
    case ID.struct:
    case ID.packedStruct: {
      const elements: number[] = [];
      for (let e = r.vbr32(); e !== 0; e = r.vbr32()) {
        if (elements.length >= limits.maxTypeMembers) r.fail(`a struct type of more than ${limits.maxTypeMembers} elements (the limit)`, at);
        elements.push(e);
      }
      return { kind: 'struct', elements, packed: id === ID.packedStruct, at };
    }
    case ID.array:
    case ID.vector: {
      const element = r.vbr32();
      const length = r.vbr32();
      return { kind: id === ID.array ? 'array' : 'vector', element, length, at };
    }
    case ID.pointer:
      return { kind: 'pointer', element: r.vbr32(), at };
    case ID.opaque:
      return { kind: 'opaque' };
    default:
      return r.fail(`unknown type id ${id} (version 7 knows 0 to ${ID.vector})`, at);
  }
}
