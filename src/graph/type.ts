/**
 * LLVM 1.x types (and version 7's additions) as plain objects.
 *
 * Primitive types are singletons (`primitiveTypes.int` …), so `===` compares them. Derived types
 * are objects that refer to other types; recursive types are cycles of such objects (a struct
 * whose element is a pointer back to itself). Within one module, each distinct type the file
 * defines is one object: the decoder keeps the file's type pool, which LLVM had already uniqued,
 * and `typesEqual` compares structurally (cycles included) when two modules meet.
 */

/** The kinds of the primitive types. @category Graph */
export type PrimitiveTypeKind = 'void' | 'bool' | 'ubyte' | 'sbyte' | 'ushort' | 'short' | 'uint' | 'int' | 'ulong' | 'long' | 'float' | 'double' | 'label';

/** @category Graph */
export interface PrimitiveType {
  readonly kind: PrimitiveTypeKind;
}

/** @category Graph */
export interface FunctionType {
  readonly kind: 'function';
  returnType: Type;
  params: Type[];
  isVarArg: boolean;
  /**
   * Version 7 only: the parameter attributes LLVM 2.0's trunk attached to the function type, as
   * the file listed them (sparse, ascending index; index 0 is the return value, 1 … the
   * parameters). Absent (never an empty array) when the type has none, and always on v0–v6
   * types. Two function types that differ only here are different types, as in LLVM.
   */
  paramAttributes?: readonly ParamAttribute[];
}

/**
 * One entry of a function type's parameter-attribute list (version 7): which value (0 = the
 * return value, n = parameter n) and its attribute bits (`PARAM_ATTRIBUTE_BITS`). Unknown bits are
 * kept as read, so that a file round-trips.
 *
 * @category Graph
 */
export interface ParamAttribute {
  readonly index: number;
  readonly attributes: number;
}

/** Version 7's parameter attribute bits (LLVM trunk r36867, ParameterAttributes.h), by the name LLVM printed. */
export const PARAM_ATTRIBUTE_BITS = Object.freeze({
  zext: 1 << 0,
  sext: 1 << 1,
  noreturn: 1 << 2,
  inreg: 1 << 3,
  sret: 1 << 4,
  nounwind: 1 << 5,
} as const);

/** @category Graph */
export interface StructType {
  readonly kind: 'struct';
  elements: Type[];
  /**
   * Version 7: a packed struct (`<{ … }>`, no padding between elements; added 2006-12-08).
   * Absent or false for an ordinary struct, and on every v0–v6 type.
   */
  isPacked?: boolean;
}

/**
 * Version 7's signless integer type of any width from 1 to `MAX_INTEGER_BITS` (`i1`, `i8`, `i32`,
 * `i17`, …). Uniqued like a primitive: `integerType(bits)` returns one shared object per width, so
 * `===` compares them. Not a primitive in the graph's sense (`isPrimitive` is false): in
 * version 7 every integer type is an entry of the module's type pool, as LLVM wrote it. `i1` is
 * version 7's boolean (its constants are `ConstantBool`s of this type). Versions 0–6 never hold
 * one: their integers are the signed/unsigned primitives (`int`, `ubyte`, …).
 *
 * @category Graph
 */
export interface IntegerType {
  readonly kind: 'integer';
  readonly bits: number;
}

/** The widest integer type LLVM 2.0's trunk allowed (IntegerType::MAX_INT_BITS, 2^23 - 1). */
export const MAX_INTEGER_BITS = (1 << 23) - 1;

const integerTypes = new Map<number, IntegerType>();

/**
 * The one `IntegerType` of `bits` bits (1 … MAX_INTEGER_BITS; callers check the range first).
 *
 * @category Graph
 */
export function integerType(bits: number): IntegerType {
  if (!Number.isInteger(bits) || bits < 1 || bits > MAX_INTEGER_BITS) throw new RangeError(`integer width ${bits} is outside 1…${MAX_INTEGER_BITS}`);
  let t = integerTypes.get(bits);
  if (t === undefined) {
    t = Object.freeze({ kind: 'integer', bits });
    integerTypes.set(bits, t);
  }
  return t;
}

/** @category Graph */
export interface ArrayType {
  readonly kind: 'array';
  element: Type;
  length: number;
}

/**
 * LLVM 1.x's SIMD vector type, written `< N x T >` (version 7's VectorType, same syntax).
 *
 * @category Graph
 */
export interface PackedType {
  readonly kind: 'packed';
  element: Type;
  length: number;
}

/** @category Graph */
export interface PointerType {
  readonly kind: 'pointer';
  element: Type;
}

/**
 * A type whose body is unknown (`opaque`). Each opaque type is distinct from every other.
 *
 * @category Graph
 */
export interface OpaqueType {
  readonly kind: 'opaque';
}

/** @category Graph */
export type DerivedType = FunctionType | StructType | ArrayType | PackedType | PointerType | OpaqueType | IntegerType;
/** @category Graph */
export type Type = PrimitiveType | DerivedType;

const prim = (kind: PrimitiveTypeKind): PrimitiveType => Object.freeze({ kind });

/**
 * The primitive type singletons, in LLVM 1.9's type-id order (void = 0 … label = 12).
 *
 * @category Graph
 */
export const primitiveTypes = Object.freeze({
  void: prim('void'),
  bool: prim('bool'),
  ubyte: prim('ubyte'),
  sbyte: prim('sbyte'),
  ushort: prim('ushort'),
  short: prim('short'),
  uint: prim('uint'),
  int: prim('int'),
  ulong: prim('ulong'),
  long: prim('long'),
  float: prim('float'),
  double: prim('double'),
  label: prim('label'),
} satisfies Record<PrimitiveTypeKind, PrimitiveType>);

/** Primitive types indexed by LLVM 1.9's type id (0 … 12). */
export const primitiveTypesById: readonly PrimitiveType[] = [
  primitiveTypes.void,
  primitiveTypes.bool,
  primitiveTypes.ubyte,
  primitiveTypes.sbyte,
  primitiveTypes.ushort,
  primitiveTypes.short,
  primitiveTypes.uint,
  primitiveTypes.int,
  primitiveTypes.ulong,
  primitiveTypes.long,
  primitiveTypes.float,
  primitiveTypes.double,
  primitiveTypes.label,
];

/**
 * LLVM 1.9's type id of a primitive kind (its index in `primitiveTypesById`), else -1. A switch
 * on the kind: asked for every value the writer numbers, where a Map keyed by the type was the
 * hottest line. `test/graph` checks it against `primitiveTypesById`.
 */
export function primitiveKindId(kind: Type['kind']): number {
  switch (kind) {
    case 'void':
      return 0;
    case 'bool':
      return 1;
    case 'ubyte':
      return 2;
    case 'sbyte':
      return 3;
    case 'ushort':
      return 4;
    case 'short':
      return 5;
    case 'uint':
      return 6;
    case 'int':
      return 7;
    case 'ulong':
      return 8;
    case 'long':
      return 9;
    case 'float':
      return 10;
    case 'double':
      return 11;
    case 'label':
      return 12;
    default:
      return -1;
  }
}

/** LLVM 1.9's type id of `t` when it is one of the shared primitive singletons, else -1. */
export function primitiveTypeId(t: Type): number {
  const id = primitiveKindId(t.kind);
  return id >= 0 && primitiveTypesById[id] === t ? id : -1;
}

/** Whether `t` is a primitive type (one of the shared singletons in `primitiveTypes`). */
export function isPrimitive(t: Type): t is PrimitiveType {
  switch (t.kind) {
    case 'function':
    case 'struct':
    case 'array':
    case 'packed':
    case 'pointer':
    case 'opaque':
    case 'integer':
      return false;
    default:
      return true;
  }
}

/** Whether `t` is one of the integer types (`sbyte` … `ulong`; not `bool`; version 7's are `isSignlessInteger`). */
export function isInteger(t: Type): boolean {
  switch (t.kind) {
    case 'ubyte':
    case 'sbyte':
    case 'ushort':
    case 'short':
    case 'uint':
    case 'int':
    case 'ulong':
    case 'long':
      return true;
    default:
      return false;
  }
}

/** Whether `t` is version 7's signless integer type (any width, `i1` included). */
export function isSignlessInteger(t: Type): t is IntegerType {
  return t.kind === 'integer';
}

/** Whether `t` is a signed integer type (`sbyte`, `short`, `int`, `long`). */
export function isSigned(t: Type): boolean {
  return t.kind === 'sbyte' || t.kind === 'short' || t.kind === 'int' || t.kind === 'long';
}

/** Whether `t` is `float` or `double`. */
export function isFloatingPoint(t: Type): boolean {
  return t.kind === 'float' || t.kind === 'double';
}

/** Bit width of an integer or bool type (bool is 1), version 7's signless integers included. */
export function integerBits(t: Type): number {
  switch (t.kind) {
    case 'integer':
      return t.bits;
    case 'bool':
      return 1;
    case 'ubyte':
    case 'sbyte':
      return 8;
    case 'ushort':
    case 'short':
      return 16;
    case 'uint':
    case 'int':
      return 32;
    case 'ulong':
    case 'long':
      return 64;
    default:
      throw new Error(`internal error: integerBits of a non-integer type (${t.kind}); callers check the kind first`);
  }
}

/** The types a type refers to directly, in LLVM's `subtype` order. */
export function subtypes(t: Type): readonly Type[] {
  switch (t.kind) {
    case 'function':
      return [t.returnType, ...t.params];
    case 'struct':
      return t.elements;
    case 'array':
    case 'packed':
    case 'pointer':
      return [t.element];
    default:
      return [];
  }
}

/** The types a value of `t` holds by value (a pointer or a function type holds none). */
export function heldByValue(t: Type): readonly Type[] {
  if (t.kind === 'struct') return t.elements;
  if (t.kind === 'array' || t.kind === 'packed') return [t.element];
  return [];
}

/**
 * The values an integer type holds: signed types hold signed values, as the graph does; version
 * 7's signless integers hold the signed reading of their bits (as LLVM 2.0 printed them).
 */
export function integerRange(t: Type): readonly [bigint, bigint] {
  const bits = BigInt(integerBits(t));
  return isSigned(t) || t.kind === 'integer' ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
}

/** LLVM `isFirstClassType`: primitives but void (label included), pointers and packed types. */
export function isFirstClassType(t: Type): boolean {
  switch (t.kind) {
    case 'void':
    case 'function':
    case 'struct':
    case 'array':
    case 'opaque':
      return false;
    default:
      return true;
  }
}

/** `typesEqual`, without its bookkeeping when the two are one object (the usual case). */
export function sameType(a: Type, b: Type): boolean {
  return a === b || typesEqual(a, b);
}

/** Structural equality, cycles included (two types are equal unless a difference is found). */
export function typesEqual(a: Type, b: Type, assumed: Map<Type, Type> = new Map()): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  if (isPrimitive(a)) return false; // primitives are singletons
  if (assumed.get(a) === b) return true;
  assumed.set(a, b);
  switch (a.kind) {
    case 'opaque':
      return false;
    case 'pointer':
      return typesEqual(a.element, (b as PointerType).element, assumed);
    case 'array':
    case 'packed': {
      const bb = b as ArrayType | PackedType;
      return a.length === bb.length && typesEqual(a.element, bb.element, assumed);
    }
    case 'integer':
      return a.bits === (b as IntegerType).bits;
    case 'struct': {
      const bb = b as StructType;
      return (
        (a.isPacked ?? false) === (bb.isPacked ?? false) &&
        a.elements.length === bb.elements.length &&
        a.elements.every((e, i) => typesEqual(e, bb.elements[i]!, assumed))
      );
    }
    case 'function': {
      const bb = b as FunctionType;
      return (
        a.isVarArg === bb.isVarArg &&
        sameParamAttributes(a.paramAttributes, bb.paramAttributes) &&
        a.params.length === bb.params.length &&
        typesEqual(a.returnType, bb.returnType, assumed) &&
        a.params.every((p, i) => typesEqual(p, bb.params[i]!, assumed))
      );
    }
  }
  return false;
}

/** Whether two parameter-attribute lists are the same (absent = none). */
export function sameParamAttributes(a: readonly ParamAttribute[] | undefined, b: readonly ParamAttribute[] | undefined): boolean {
  if (a === b) return true;
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((p, i) => p.index === y[i]!.index && p.attributes === y[i]!.attributes);
}
