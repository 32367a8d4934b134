/**
 * `TypeBuilder`: the one place a built module's types come from, so that structurally equal types
 * are the same object. The writer and the printer key their tables by type identity (as LLVM's
 * own type uniquing guaranteed for the files they read), so two equal `int*` objects would become
 * two type slots. Primitive types are the shared `primitiveTypes`; pointer, array, packed,
 * function and struct types are interned by structure (a key built from their parts' ids).
 *
 * Two kinds of type are not structural:
 * - `opaque()`: every call is a new, distinct opaque type (`%FILE = type opaque`);
 * - `structShell()` + `setBody()`: a struct made before its body is known, so that the body can
 *   refer to it (`%list = type { int, %list* }`). LLVM built these from an opaque type that was
 *   later refined; the graph cannot turn one object into another, so the shell *is* the struct
 *   and `setBody` fills it in. A shell must get its body before the module is built.
 */
import { describeType } from '../graph/describe.js';
import {
  heldByValue,
  primitiveTypes,
  typesEqual,
  type ArrayType,
  type FunctionType,
  type OpaqueType,
  type PackedType,
  type PointerType,
  type PrimitiveType,
  type StructType,
  type Type,
} from '../graph/type.js';
import { BuildError } from './error.js';
import { isFirstClass } from './rules.js';

/**
 * The types of one module (`mb.types`): primitives as properties (`int`, `sbyte`, …) and
 * constructors that return one object per structure, so equal types are the same object. Types of
 * another builder are refused where they are used.
 *
 * @category Build
 */
export class TypeBuilder {
  readonly void: PrimitiveType = primitiveTypes.void;
  readonly bool: PrimitiveType = primitiveTypes.bool;
  readonly ubyte: PrimitiveType = primitiveTypes.ubyte;
  readonly sbyte: PrimitiveType = primitiveTypes.sbyte;
  readonly ushort: PrimitiveType = primitiveTypes.ushort;
  readonly short: PrimitiveType = primitiveTypes.short;
  readonly uint: PrimitiveType = primitiveTypes.uint;
  readonly int: PrimitiveType = primitiveTypes.int;
  readonly ulong: PrimitiveType = primitiveTypes.ulong;
  readonly long: PrimitiveType = primitiveTypes.long;
  readonly float: PrimitiveType = primitiveTypes.float;
  readonly double: PrimitiveType = primitiveTypes.double;
  readonly label: PrimitiveType = primitiveTypes.label;

  /** Every derived type made here, in creation order (becomes `Module.types`). */
  readonly created: Type[] = [];
  private readonly ids = new Map<Type, number>();
  private readonly interned = new Map<string, Type>();
  /** Shells still waiting for `setBody`. */
  private readonly pending = new Set<StructType>();
  /** Shells whose body refers back to them (compared structurally in `checkComplete`). */
  private readonly recursive: StructType[] = [];

  /** @internal Made by `ModuleBuilder` as `mb.types`. */
  constructor() {
    for (const t of Object.values(primitiveTypes)) this.ids.set(t, this.ids.size);
  }

  /** Whether `t` was made by this builder (or is a primitive). */
  owns(t: Type): boolean {
    return this.ids.has(t);
  }

  /** `element*`; no pointer to `void` or `label` (use `sbyte*` for an untyped pointer). */
  pointer(element: Type): PointerType {
    this.check('pointer type', element, 'element');
    if (element.kind === 'void' || element.kind === 'label')
      throw new BuildError('pointer type', `no pointer to ${element.kind} (use sbyte* for an untyped pointer)`);
    return this.intern(`p${this.id(element)}`, () => ({ kind: 'pointer', element }));
  }

  /** `[length x element]`. */
  array(element: Type, length: number): ArrayType {
    this.check('array type', element, 'element');
    this.checkLength('array type', length, 0);
    if (!isStorable(element)) throw new BuildError('array type', `an array cannot hold ${describeType(element)}`);
    return this.intern(`a${length}:${this.id(element)}`, () => ({ kind: 'array', element, length }));
  }

  /** `< length x element >`: element is an integer, bool or floating-point type. */
  packed(element: Type, length: number): PackedType {
    this.check('packed type', element, 'element');
    this.checkLength('packed type', length, 1);
    const k = element.kind;
    if (k === 'void' || k === 'label' || !isPrimitiveKind(k))
      throw new BuildError('packed type', `elements must be integer or floating-point, not ${describeType(element)}`);
    return this.intern(`v${length}:${this.id(element)}`, () => ({ kind: 'packed', element, length }));
  }

  /**
   * `R (P…)`: as LLVM 1.9 required, the result is void or a first-class type (no aggregates:
   * return a pointer) and every parameter is first-class (bool, integer, floating-point,
   * pointer or packed).
   */
  function(returnType: Type, params: readonly Type[], isVarArg = false): FunctionType {
    this.check('function type', returnType, 'return type');
    if (returnType.kind !== 'void' && !isFirstClass(returnType)) {
      throw new BuildError('function type', `cannot return ${describeType(returnType)} (only void or a first-class type; return a pointer to an aggregate)`);
    }
    params.forEach((p, i) => {
      this.check('function type', p, `parameter ${i}`);
      if (!isFirstClass(p))
        throw new BuildError('function type', `parameter ${i} cannot have type ${describeType(p)} (only first-class types; pass a pointer to an aggregate)`);
    });
    const key = `f${this.id(returnType)}(${params.map((p) => this.id(p)).join(',')}${isVarArg ? ',...' : ''})`;
    return this.intern(key, () => ({ kind: 'function', returnType, params: [...params], isVarArg }));
  }

  /** `{ elements… }`, one object per list of element types. */
  struct(elements: readonly Type[]): StructType {
    elements.forEach((e, i) => this.checkField(e, i));
    return this.intern(this.structKey(elements), () => ({ kind: 'struct', elements: [...elements] }));
  }

  /** A new opaque type, distinct from every other. */
  opaque(): OpaqueType {
    const t: OpaqueType = { kind: 'opaque' };
    this.register(t);
    return t;
  }

  /** A struct whose body comes later (`setBody`), so that the body can point back to it. */
  structShell(): StructType {
    const t: StructType = { kind: 'struct', elements: [] };
    this.register(t);
    this.pending.add(t);
    return t;
  }

  /**
   * Gives a shell from `structShell` its fields. A field may point to the struct (`%list*`) but
   * not hold it by value (that type would be infinitely large).
   */
  setBody(shell: StructType, elements: readonly Type[]): StructType {
    if (!this.pending.has(shell)) {
      throw new BuildError(
        'setBody',
        this.ids.has(shell) ? 'this struct already has its body (only a structShell() gets one, once)' : 'not a struct shell made by this builder',
      );
    }
    elements.forEach((e, i) => this.checkField(e, i));
    if (reachesByValue(elements, shell)) throw new BuildError('setBody', `the struct would contain itself by value (infinite size); point to it instead`);
    shell.elements = [...elements];
    this.pending.delete(shell);
    if (reaches(elements, shell)) {
      this.recursive.push(shell);
      return shell;
    }
    // Not recursive: it must be the only struct of its shape, as LLVM would have uniqued them.
    const key = this.structKey(elements);
    const existing = this.interned.get(key);
    if (existing !== undefined) {
      throw new BuildError('setBody', `a struct ${describeType(shell)} already exists; name that one (nameType) instead of building a second`);
    }
    this.interned.set(key, shell);
    return shell;
  }

  /** Refuses a module whose shells lack bodies or whose recursive structs are structurally equal. */
  checkComplete(nameOf: (t: Type) => string | undefined): void {
    for (const s of this.pending) {
      const n = nameOf(s);
      throw new BuildError('build', `the struct ${n !== undefined ? `%${n}` : 'shell'} never got a body (call setBody)`);
    }
    const rec = this.recursive;
    for (let i = 0; i < rec.length; i++) {
      for (let j = i + 1; j < rec.length; j++) {
        if (typesEqual(rec[i]!, rec[j]!)) {
          throw new BuildError(
            'build',
            `the recursive structs ${nameOf(rec[i]!) ?? '#' + i} and ${nameOf(rec[j]!) ?? '#' + j} have the same structure; LLVM would merge them: use one`,
          );
        }
      }
    }
  }

  // ---- internals ---------------------------------------------------------------------------

  private structKey(elements: readonly Type[]): string {
    return `s{${elements.map((e) => this.id(e)).join(',')}}`;
  }

  private checkField(e: Type, i: number): void {
    this.check('struct type', e, `field ${i}`);
    if (!isStorable(e)) throw new BuildError('struct type', `field ${i} cannot have type ${describeType(e)}`);
  }

  private checkLength(what: string, length: number, min: number): void {
    if (!Number.isSafeInteger(length) || length < min || length > 0xffffffff) {
      throw new BuildError(what, `length ${length} is not an integer from ${min} to 4294967295`);
    }
  }

  /** Refuses types that did not come from this builder: they would break identity interning. */
  private check(what: string, t: Type, role: string): void {
    if (!this.ids.has(t)) {
      throw new BuildError(
        what,
        `the ${role} ${describeType(t)} was not made by this module's type builder (build types with module.types so equal types are one object)`,
      );
    }
  }

  private id(t: Type): number {
    return this.ids.get(t)!;
  }

  private register(t: Type): void {
    this.ids.set(t, this.ids.size);
    this.created.push(t);
  }

  private intern<T extends Type>(key: string, make: () => T): T {
    const found = this.interned.get(key);
    if (found !== undefined) return found as T;
    const t = make();
    this.interned.set(key, t);
    this.register(t);
    return t;
  }
}

function isPrimitiveKind(k: Type['kind']): boolean {
  return k !== 'function' && k !== 'struct' && k !== 'array' && k !== 'packed' && k !== 'pointer' && k !== 'opaque';
}

/** A type a struct field or array element may have (LLVM 1.x allowed opaque ones too). */
function isStorable(t: Type): boolean {
  return t.kind !== 'void' && t.kind !== 'label' && t.kind !== 'function';
}

/** Whether `target` is reachable from `roots` through any type edges (pointers included). */
function reaches(roots: readonly Type[], target: Type): boolean {
  return search(roots, target, (t) => {
    switch (t.kind) {
      case 'pointer':
        return [t.element];
      case 'function':
        return [t.returnType, ...t.params];
      default:
        return heldByValue(t);
    }
  });
}

/** Whether `target` is held by value (not through a pointer) by one of `roots`. */
function reachesByValue(roots: readonly Type[], target: Type): boolean {
  return search(roots, target, heldByValue);
}

function search(roots: readonly Type[], target: Type, next: (t: Type) => readonly Type[]): boolean {
  const seen = new Set<Type>();
  const stack = [...roots];
  while (stack.length !== 0) {
    const t = stack.pop()!;
    if (t === target) return true;
    if (seen.has(t)) continue;
    seen.add(t);
    stack.push(...next(t));
  }
  return false;
}
