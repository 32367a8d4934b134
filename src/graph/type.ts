/**
 * LLVM 1.x types as plain objects.
 *
 * Primitive types are singletons (`primitiveTypes.int` …), so `===` compares them. Derived types
 * are objects that refer to other types; recursive types are cycles of such objects (a struct
 * whose element is a pointer back to itself). Within one module, each distinct type the file
 * defines is one object: the decoder keeps the file's type pool, which LLVM had already uniqued,
 * and `typesEqual` compares structurally (cycles included) when two modules meet.
 */

export type PrimitiveTypeKind =
  | 'void'
  | 'bool'
  | 'ubyte'
  | 'sbyte'
  | 'ushort'
  | 'short'
  | 'uint'
  | 'int'
  | 'ulong'
  | 'long'
  | 'float'
  | 'double'
  | 'label';

export interface PrimitiveType {
  readonly kind: PrimitiveTypeKind;
}

export interface FunctionType {
  readonly kind: 'function';
  returnType: Type;
  params: Type[];
  isVarArg: boolean;
}

export interface StructType {
  readonly kind: 'struct';
  elements: Type[];
}

export interface ArrayType {
  readonly kind: 'array';
  element: Type;
  length: number;
}

/** LLVM 1.x's SIMD vector type, written `< N x T >`. */
export interface PackedType {
  readonly kind: 'packed';
  element: Type;
  length: number;
}

export interface PointerType {
  readonly kind: 'pointer';
  element: Type;
}

/** A type whose body is unknown (`opaque`). Each opaque type is distinct from every other. */
export interface OpaqueType {
  readonly kind: 'opaque';
}

export type DerivedType = FunctionType | StructType | ArrayType | PackedType | PointerType | OpaqueType;
export type Type = PrimitiveType | DerivedType;

const prim = (kind: PrimitiveTypeKind): PrimitiveType => Object.freeze({ kind });

/** The primitive type singletons, in LLVM 1.9's type-id order (void = 0 … label = 12). */
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

/** Whether `t` is a primitive type (one of the shared singletons in `primitiveTypes`). */
export function isPrimitive(t: Type): t is PrimitiveType {
  switch (t.kind) {
    case 'function':
    case 'struct':
    case 'array':
    case 'packed':
    case 'pointer':
    case 'opaque':
      return false;
    default:
      return true;
  }
}

/** Whether `t` is one of the integer types (`sbyte` … `ulong`; not `bool`). */
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

/** Whether `t` is a signed integer type (`sbyte`, `short`, `int`, `long`). */
export function isSigned(t: Type): boolean {
  return t.kind === 'sbyte' || t.kind === 'short' || t.kind === 'int' || t.kind === 'long';
}

/** Whether `t` is `float` or `double`. */
export function isFloatingPoint(t: Type): boolean {
  return t.kind === 'float' || t.kind === 'double';
}

/** Bit width of an integer or bool type (bool is 1). */
export function integerBits(t: Type): number {
  switch (t.kind) {
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
      throw new Error(`not an integer type: ${t.kind}`);
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

/** The values an integer type holds: signed types hold signed values, as the graph does. */
export function integerRange(t: Type): readonly [bigint, bigint] {
  const bits = BigInt(integerBits(t));
  return isSigned(t) ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
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
    case 'struct': {
      const bb = b as StructType;
      return a.elements.length === bb.elements.length && a.elements.every((e, i) => typesEqual(e, bb.elements[i]!, assumed));
    }
    case 'function': {
      const bb = b as FunctionType;
      return (
        a.isVarArg === bb.isVarArg &&
        a.params.length === bb.params.length &&
        typesEqual(a.returnType, bb.returnType, assumed) &&
        a.params.every((p, i) => typesEqual(p, bb.params[i]!, assumed))
      );
    }
  }
  return false;
}
