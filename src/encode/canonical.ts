/**
 * Constant uniquing, as LLVM's own constant tables did it.
 *
 * LLVM's writer keys everything by object identity, and in LLVM every constant is unique: there is
 * one `int 5`, one `null` per pointer type, and an array or struct whose elements are all null
 * *is* the type's `zeroinitializer` (LLVM 1.9 `ConstantArray::get` / `ConstantStruct::get` /
 * `ConstantPacked::get`). The graph makes no such promise (a module built in code may hold two
 * `int 5` objects), so the writer first maps every constant to a canonical representative: the
 * first object seen with its structural key. Null values get a synthetic representative, because
 * the slot calculator inserts a plane's null value even when no instruction names it.
 *
 * Types are compared by identity: the decoder keeps one object per type of the file's pool, as
 * LLVM's type table had already uniqued them.
 */
import { DenseIds } from '../graph/dense-ids.js';
import { nullValue } from '../graph/describe.js';
import { integerType, type Type } from '../graph/type.js';
import type { Constant, Value } from '../graph/value.js';

/** A type's null value exists for every type but void, label and opaque (LLVM `hasNullValue`). */
export function hasNullValue(t: Type): boolean {
  return t.kind !== 'void' && t.kind !== 'label' && t.kind !== 'opaque';
}

/** Constants that are not global values or inline asm (LLVM: `isa<Constant> && !isa<GlobalValue>`). */
export function isPlainConstant(v: Value): boolean {
  switch (v.kind) {
    case 'argument':
    case 'block':
    case 'instruction':
    case 'global':
    case 'function':
    case 'inlineasm':
      return false;
    default:
      return true;
  }
}

export class Canonicalizer {
  private readonly typeIds = new DenseIds<Type>();
  private readonly keys = new Map<Value, string>();
  private readonly reps = new Map<string, Value>();
  private readonly repOf = new Map<Value, Value>();
  private readonly nulls = new Set<Value>();
  /** The canonical null value of each type (the rep of every key `z<type>`). */
  private readonly nullByType = new Map<Type, Value>();
  private readonly globalIds = new DenseIds<Value>();

  /** The structural key of a constant; identity for everything that is not a constant. */
  private keyOf(v: Value): string {
    const cached = this.keys.get(v);
    if (cached !== undefined) return cached;
    let key: string;
    switch (v.kind) {
      case 'bool':
        key = v.value ? `b${this.typeIds.of(v.type)}` : `z${this.typeIds.of(v.type)}`;
        break;
      case 'int':
        key = v.value === 0n ? `z${this.typeIds.of(v.type)}` : `i${this.typeIds.of(v.type)}:${v.value}`;
        break;
      case 'fp':
        // LLVM keys FP constants by their bits; only +0.0 is the null value.
        key = v.bits === 0n ? `z${this.typeIds.of(v.type)}` : `f${this.typeIds.of(v.type)}:${v.bits}`;
        break;
      case 'null':
      case 'zeroinitializer':
        key = `z${this.typeIds.of(v.type)}`;
        break;
      case 'undef':
        key = `u${this.typeIds.of(v.type)}`;
        break;
      case 'array':
      case 'struct':
      case 'packed':
        key = this.aggregateKey(v.type, v.elements);
        break;
      case 'expr':
        key = `e${this.typeIds.of(v.type)}:${v.opcode}(${v.operands.map((o) => this.keyOf(o)).join(',')})`;
        break;
      case 'inlineasm':
        key = `s${this.typeIds.of(v.type)}:${v.hasSideEffects ? 1 : 0}:${v.asm.length}:${v.asm}${v.constraints}`;
        break;
      default: {
        key = `g${this.globalIds.of(v)}`;
      }
    }
    this.keys.set(v, key);
    return key;
  }

  /**
   * An aggregate's key (all-null: the null value's). Integer elements are keyed here, as keyOf
   * keys them but without a cache entry each: a string constant of a million bytes made a million
   * entries, most of the time `as` spent on it.
   */
  private aggregateKey(type: Type, elements: readonly Value[]): string {
    const parts = new Array<string>(elements.length);
    let allNull = true;
    let intType: Type | undefined;
    let intTypeId = 0;
    for (let i = 0; i < elements.length; i++) {
      const e = elements[i]!;
      let part: string;
      if (e.kind === 'int') {
        if (e.type !== intType) intTypeId = this.typeIds.of((intType = e.type));
        part = e.value === 0n ? `z${intTypeId}` : `i${intTypeId}:${e.value}`;
      } else part = this.keyOf(e);
      if (allNull && part.charCodeAt(0) !== 0x7a /* z */) allNull = false;
      parts[i] = part;
    }
    return allNull ? `z${this.typeIds.of(type)}` : `a${this.typeIds.of(type)}(${parts.join(',')})`;
  }

  /** The canonical representative of `v` (itself for non-constants and the first of its kind). */
  canon(v: Value): Value {
    switch (v.kind) {
      // Hot path: most operands are not constants and stand for themselves.
      case 'instruction':
      case 'argument':
      case 'block':
      case 'global':
      case 'function':
        return v;
    }
    const known = this.repOf.get(v);
    if (known !== undefined) return known;
    const key = this.keyOf(v);
    let rep: Value;
    if (key.charCodeAt(0) === 0x7a /* z */) {
      rep = this.nullOf(v.type);
    } else {
      const known = this.reps.get(key);
      if (known === undefined) this.reps.set(key, (rep = v));
      else rep = known;
    }
    this.repOf.set(v, rep);
    return rep;
  }

  /** The canonical null value of `t` (callers check `hasNullValue` first). */
  nullOf(t: Type): Value {
    let rep = this.nullByType.get(t);
    if (rep === undefined) {
      rep = this.makeNull(t);
      this.nulls.add(rep);
      this.nullByType.set(t, rep);
    }
    return rep;
  }

  isNull(rep: Value): boolean {
    return this.nulls.has(rep);
  }

  private makeNull(t: Type): Constant {
    return nullValue(t);
  }
}

/**
 * LLVM `ConstantArray::isString`: an array of sbyte or ubyte whose elements are all integer
 * constants (not expressions or undef). Call on canonical representatives only (a null array is
 * a `zeroinitializer`, never a string).
 */
export function isString(v: Value): boolean {
  if (v.kind !== 'array' || v.type.kind !== 'array') return false;
  const el = v.type.element.kind;
  if (el !== 'sbyte' && el !== 'ubyte') return false;
  for (const e of v.elements) if (e.kind !== 'int') return false;
  return true;
}

/** LLVM's `isa<GlobalValue>` (aliases are version 7's). */
export function isGlobalValue(v: { readonly kind: string }): boolean {
  return v.kind === 'global' || v.kind === 'function' || v.kind === 'alias';
}

/** LLVM's `ConstantArray::isString` in version 7: an array of `i8` whose elements are all integer constants. */
export function isI8String(v: Value): boolean {
  if (v.kind !== 'array' || v.type.kind !== 'array') return false;
  if (v.type.element !== integerType(8)) return false;
  for (const e of v.elements) if (e.kind !== 'int') return false;
  return true;
}
