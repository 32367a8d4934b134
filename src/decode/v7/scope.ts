/**
 * The state of a version-7 read: the type slots (module pool, then the current function's), the
 * value planes by type slot (module values, then the current function's), and the slot rules of
 * r36867's reader (docs/format.md §14):
 *
 * - type slots 0–3 are void, float, double, label; 4 and up index the module's type pool, then
 *   the function's own types;
 * - every value plane but void's (0) and label's (3) begins with an implicit null value at slot 0,
 *   except planes of an opaque type;
 * - a function's planes continue its module's: slot n of plane t is the module's n-th value of t
 *   when there are that many, else the function's.
 *
 * Why its own: version 7's slot numbering (four primitive slots, integer slots 4–8, opaque planes
 * without a null) is not 1.x's (`decode/planes.ts`, thirteen primitives, compaction tables).
 */
import type { BinaryReader } from '../../binary/reader.js';
import { V7_FIRST_DERIVED_TYPE_SLOT, V7_LAST_PRIMITIVE_TYPE_ID } from '../../format/version7.js';
import { describeType } from '../../graph/describe.js';
import type { Module } from '../../graph/module.js';
import { primitiveTypes as P, typesEqual, type Type } from '../../graph/type.js';
import type { Constant, Value } from '../../graph/value.js';
import type { Limits } from '../../limits.js';

/** Types by slot below `V7_FIRST_DERIVED_TYPE_SLOT`. */
const PRIMITIVES_BY_SLOT: readonly Type[] = [P.void, P.float, P.double, P.label];

export const VOID_SLOT = 0;
export const LABEL_SLOT = 3;

/**
 * A value referred to before the instruction that defines it (r36867 made a placeholder too);
 * replaced once the function is read. Never left in a finished graph.
 */
export interface ForwardRef {
  readonly kind: 'argument';
  readonly type: Type;
  readonly index: -1;
  readonly forward: { readonly typeSlot: number; readonly slot: number; readonly offset: number };
}

/** A constant referred to before its pool defines it; resolved at the end of the pool. */
export interface ConstantRef {
  readonly kind: 'undef';
  readonly type: Type;
  readonly pending: { readonly typeSlot: number; readonly slot: number; readonly offset: number };
}

export class V7Scope {
  readonly moduleTypes: Type[] = [];
  functionTypes: Type[] = [];
  private readonly moduleTypeSlots = new Map<Type, number>();
  private functionTypeSlots = new Map<Type, number>();
  /** The slot of the first pointer type to each element type (getelementptr results are looked up by it). */
  private readonly modulePointerSlots = new Map<Type, number>();
  private functionPointerSlots = new Map<Type, number>();
  readonly moduleValues: (Value[] | undefined)[] = [];
  functionValues: (Value[] | undefined)[] = [];
  private readonly nulls = new Map<Type, Constant>();
  /** Forward references of the current function, by `typeSlot:slot`. */
  forwardRefs = new Map<string, ForwardRef>();
  /** Constants referred to before their definition in the current pool, by `typeSlot:slot`. */
  constantRefs = new Map<string, ConstantRef>();
  /** What the pending constant references became, as the pool defines them. */
  readonly resolvedConstants = new Map<ConstantRef, Constant>();

  constructor(
    readonly r: BinaryReader,
    readonly limits: Limits,
    readonly module: Module,
  ) {}

  /** A long instruction record's operand count (decode/instruction-record.ts): 1 up to the limit. */
  readonly operandCountCheck = (n: number, at: number): void => {
    this.r.checkCount(n, 1, this.limits.maxOperandsPerInstruction, 'instruction operands');
    if (n === 0) this.r.fail('an instruction in the long form with zero operands', at);
  };

  /** The type of slot `slot` (r36867's getType: "Illegal type reference!" otherwise). */
  typeAt(slot: number, offset: number = this.r.pos): Type {
    if (slot <= V7_LAST_PRIMITIVE_TYPE_ID) return PRIMITIVES_BY_SLOT[slot]!;
    let i = slot - V7_FIRST_DERIVED_TYPE_SLOT;
    if (i < this.moduleTypes.length) return this.moduleTypes[i]!;
    i -= this.moduleTypes.length;
    if (i < this.functionTypes.length) return this.functionTypes[i]!;
    return this.r.fail(
      `type slot ${slot} is not defined (the module defines ${this.moduleTypes.length} types${this.functionTypes.length ? ` and the function ${this.functionTypes.length}` : ''})`,
      offset,
    );
  }

  /** Reads a type slot and returns its type. */
  readType(): Type {
    const at = this.r.pos;
    return this.typeAt(this.r.vbr32(), at);
  }

  /** Adds the module's type pool (once its definitions are complete). */
  setModuleTypes(types: readonly Type[]): void {
    for (const t of types) {
      const slot = V7_FIRST_DERIVED_TYPE_SLOT + this.moduleTypes.length;
      if (!this.moduleTypeSlots.has(t)) this.moduleTypeSlots.set(t, slot);
      if (t.kind === 'pointer' && !this.modulePointerSlots.has(t.element)) this.modulePointerSlots.set(t.element, slot);
      this.moduleTypes.push(t);
    }
  }

  /** Sets the current function's own types (its constant pool's type list). */
  setFunctionTypes(types: readonly Type[]): void {
    const base = V7_FIRST_DERIVED_TYPE_SLOT + this.moduleTypes.length;
    this.functionTypes = types.slice();
    this.functionTypeSlots = new Map();
    this.functionPointerSlots = new Map();
    types.forEach((t, i) => {
      if (!this.functionTypeSlots.has(t)) this.functionTypeSlots.set(t, base + i);
      if (t.kind === 'pointer' && !this.functionPointerSlots.has(t.element)) this.functionPointerSlots.set(t.element, base + i);
    });
  }

  /**
   * The slot of type `t` (r36867's getTypeSlot): the function's types first, then the module's.
   * A type the reader made itself (the pointer a getelementptr yields, a shuffle mask's vector)
   * is found by structure; one the file never defined is an error, as it was for LLVM.
   */
  slotOf(t: Type, offset: number = this.r.pos): number {
    if (t === P.void) return 0;
    if (t === P.float) return 1;
    if (t === P.double) return 2;
    if (t === P.label) return 3;
    const own = this.functionTypeSlots.get(t) ?? this.moduleTypeSlots.get(t);
    if (own !== undefined) return own;
    if (t.kind === 'pointer') {
      const pointer = this.functionPointerSlots.get(t.element) ?? this.modulePointerSlots.get(t.element);
      if (pointer !== undefined) return pointer;
    }
    const all = [...this.moduleTypes, ...this.functionTypes];
    const i = all.findIndex((x) => x.kind === t.kind && typesEqual(x, t));
    if (i >= 0) return V7_FIRST_DERIVED_TYPE_SLOT + i;
    return this.r.fail(`the type ${describeType(t)} is not in the module's type table`, offset);
  }

  /** The table's own object for a type equal to `t` (so that the graph shares type objects). */
  canonical(t: Type, offset: number = this.r.pos): Type {
    return this.typeAt(this.slotOf(t, offset), offset);
  }

  /** Whether plane `typeSlot` (of type `t`) begins with an implicit null value. */
  hasImplicitNull(typeSlot: number, t: Type): boolean {
    return typeSlot !== VOID_SLOT && typeSlot !== LABEL_SLOT && t.kind !== 'opaque';
  }

  /** The null value of `t` (one object per type), or an error for a type that has none. */
  nullOf(t: Type, offset: number): Constant {
    let c = this.nulls.get(t);
    if (c !== undefined) return c;
    switch (t.kind) {
      case 'integer':
        c = t.bits === 1 ? { kind: 'bool', type: t, value: false } : { kind: 'int', type: t, value: 0n };
        break;
      case 'float':
      case 'double':
        c = { kind: 'fp', type: t, value: 0, bits: 0n };
        break;
      case 'pointer':
        c = { kind: 'null', type: t };
        break;
      case 'struct':
      case 'array':
      case 'packed':
        c = { kind: 'zeroinitializer', type: t };
        break;
      default:
        return this.r.fail(`slot 0 of the plane of type ${describeType(t)} names its null value, but that type has none`, offset);
    }
    this.nulls.set(t, c);
    return c;
  }

  /**
   * The value at `slot` of plane `typeSlot` (r36867's getValue without creating a placeholder),
   * or undefined when neither the module nor the current function has defined it yet.
   */
  find(typeSlot: number, slot: number, offset: number): Value | undefined {
    const t = this.typeAt(typeSlot, offset);
    let n = slot;
    if (this.hasImplicitNull(typeSlot, t)) {
      if (n === 0) return this.nullOf(t, offset);
      n--;
    }
    const globals = this.moduleValues[typeSlot];
    if (globals !== undefined) {
      if (n < globals.length) return globals[n];
      n -= globals.length;
    }
    const locals = this.functionValues[typeSlot];
    return locals !== undefined && n < locals.length ? locals[n] : undefined;
  }

  /** As `find`, but a value not defined yet becomes a forward reference (function bodies only). */
  value(typeSlot: number, slot: number, offset: number): Value {
    const found = this.find(typeSlot, slot, offset);
    if (found !== undefined) return found;
    const key = `${typeSlot}:${slot}`;
    let ref = this.forwardRefs.get(key);
    if (ref === undefined) {
      if (this.forwardRefs.size >= this.limits.maxValuesPerPlane)
        this.r.fail(`more than ${this.limits.maxValuesPerPlane} forward references in one function`, offset);
      ref = { kind: 'argument', type: this.typeAt(typeSlot, offset), index: -1, forward: { typeSlot, slot, offset } };
      this.forwardRefs.set(key, ref);
    }
    return ref;
  }

  /**
   * A constant operand (r36867's getConstantValue): the value if defined (it must be a
   * constant), else a pending reference the current pool must define.
   */
  constant(typeSlot: number, slot: number, offset: number): Constant {
    const found = this.find(typeSlot, slot, offset);
    if (found !== undefined) {
      if (!isConstant(found)) this.r.fail(`value slot ${slot} of type ${describeType(found.type)} is used as a constant but is not one`, offset);
      return found;
    }
    const key = `${typeSlot}:${slot}`;
    let ref = this.constantRefs.get(key);
    if (ref === undefined) {
      if (this.constantRefs.size >= this.limits.maxValuesPerPlane)
        this.r.fail(`more than ${this.limits.maxValuesPerPlane} forward constant references in one pool`, offset);
      ref = { kind: 'undef', type: this.typeAt(typeSlot, offset), pending: { typeSlot, slot, offset } };
      this.constantRefs.set(key, ref);
    }
    return ref as Constant;
  }

  /**
   * Appends `v` to plane `typeSlot` of the module or the current function; returns the slot it
   * takes (counting the implicit null, and the module's values for a function plane).
   */
  define(v: Value, typeSlot: number, atModule: boolean, offset: number): number {
    const table = atModule ? this.moduleValues : this.functionValues;
    let plane = table[typeSlot];
    if (plane === undefined) {
      plane = [];
      table[typeSlot] = plane;
    }
    if (plane.length >= this.limits.maxValuesPerPlane)
      this.r.fail(`the plane of type ${describeType(v.type)} holds more than the limit of ${this.limits.maxValuesPerPlane} values`, offset);
    plane.push(v);
    const t = this.typeAt(typeSlot, offset);
    let slot = plane.length - 1 + (this.hasImplicitNull(typeSlot, t) && v.type.kind !== 'opaque' ? 1 : 0);
    if (!atModule) slot += this.moduleValues[typeSlot]?.length ?? 0;
    return slot;
  }

  /** Forgets the current function's types, values and references. */
  leaveFunction(): void {
    this.functionTypes = [];
    this.functionTypeSlots = new Map();
    this.functionPointerSlots = new Map();
    this.functionValues = [];
    this.forwardRefs = new Map();
  }
}

/** Whether a value is a constant (not an argument, block, instruction or forward reference). */
export function isConstant(v: Value): v is Constant {
  return v.kind !== 'argument' && v.kind !== 'block' && v.kind !== 'instruction';
}
