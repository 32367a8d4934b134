/**
 * LLVM 1.x types in modern spelling. Signless integers by width (`int`/`uint` → `i32`), every
 * pointer is the opaque `ptr`, `packed` is a vector. Because pointers no longer carry their
 * element type, no type is recursive any more; named struct and opaque types stay named
 * (identified structs, `%name = type { … }`) so the output stays short and recognisable, and
 * every other named type (`%T = type int*`) is written out where it is used.
 */
import type { Module } from '../graph/module.js';
import { describeType } from '../graph/describe.js';
import { SelfContainingTypes } from '../graph/self-containing.js';
import { integerBits, isInteger, type FunctionType, type Type } from '../graph/type.js';
import { formatName } from './names.js';
import { UpgradeError } from './ops.js';

const PRIMITIVE_SPELLING: Readonly<Record<string, string>> = {
  void: 'void',
  bool: 'i1',
  ubyte: 'i8',
  sbyte: 'i8',
  ushort: 'i16',
  short: 'i16',
  uint: 'i32',
  int: 'i32',
  ulong: 'i64',
  long: 'i64',
  float: 'float',
  double: 'double',
  label: 'label',
};

/** Spells types; one instance per module (it owns the names of struct and opaque types). */
export class TypePrinter {
  /** Identified types: struct/opaque type → `%name`. */
  private readonly names = new Map<Type, string>();
  /** Definitions in the order they were named. */
  private readonly order: Type[] = [];
  private readonly memo = new Map<Type, string>();
  private usedNames = new Set<string>();
  private opaqueCount = 0;

  constructor(module: Module) {
    for (const [name, type] of module.typeNames) {
      if ((type.kind === 'struct' || type.kind === 'opaque') && !this.names.has(type)) this.define(type, name);
    }
    for (const type of module.types) if (type.kind === 'opaque' && !this.names.has(type)) this.nameOpaque(type);
    for (const type of module.types) {
      const inside = type.kind === 'struct' ? type.elements : type.kind === 'array' || type.kind === 'packed' ? [type.element] : [];
      for (const e of inside) if (e.kind === 'opaque') this.emptyBody.add(e);
    }
  }

  /**
   * Opaque types held BY VALUE inside a struct or array: LLVM 1.x let such an aggregate be
   * indexed; LLVM 16 needs it sized, so these get an empty body (`{}`), said in a comment.
   */
  private readonly emptyBody = new Set<Type>();

  private define(type: Type, name: string): void {
    let unique = name;
    for (let n = 1; this.usedNames.has(unique); n++) unique = `${name}.${n}`;
    this.usedNames.add(unique);
    this.names.set(type, formatName('%', unique));
    this.order.push(type);
  }

  private nameOpaque(type: Type): void {
    let name: string;
    do name = `opaque.${this.opaqueCount++}`;
    while (this.usedNames.has(name));
    this.define(type, name);
  }

  /**
   * Types that hold themselves by value (`%t = type { { \2*, %t } }`). LLVM 1.x had values of
   * them; LLVM 16 needs a size for every value, `alloca` and getelementptr source type, so
   * spelling one outside a type definition (pointers are all `ptr`, so every other spelling is
   * such a use) is refused, naming the type.
   */
  private readonly selfContaining = new SelfContainingTypes();
  /** True while type definitions are printed: there a named type ends the spelling. */
  private inDefinitions = false;
  /** Unnamed types being spelled, to refuse a cycle no name breaks instead of recursing. */
  private readonly spelling = new Set<Type>();

  /** The modern spelling of `t`. */
  str(t: Type): string {
    if ((t.kind === 'struct' || t.kind === 'array' || t.kind === 'packed') && !this.inDefinitions && this.selfContaining.has(t)) {
      throw new UpgradeError(`type ${this.names.get(t) ?? describeType(t)} contains itself by value and so has no size; LLVM 16 has no values of such a type`);
    }
    const named = this.names.get(t);
    if (named) return named;
    const memo = this.memo.get(t);
    if (memo !== undefined) return memo;
    if (this.spelling.has(t)) throw new UpgradeError(`type ${describeType(t)} contains itself with no name between: LLVM 16 cannot spell it`);
    this.spelling.add(t);
    try {
      return this.spell(t);
    } finally {
      this.spelling.delete(t);
    }
  }

  private spell(t: Type): string {
    let s: string;
    switch (t.kind) {
      case 'pointer':
        s = 'ptr';
        break;
      case 'array':
        s = `[${t.length} x ${this.str(t.element)}]`;
        break;
      case 'packed':
        s = `<${t.length} x ${this.str(t.element)}>`;
        break;
      case 'struct':
        s = t.elements.length === 0 ? '{}' : `{ ${t.elements.map((e) => this.str(e)).join(', ')} }`;
        break;
      case 'function':
        s = this.functionStr(t);
        break;
      case 'opaque':
        // An opaque type the type pool did not list: name it now (definitions print at the end).
        this.nameOpaque(t);
        return this.names.get(t)!;
      default:
        s = PRIMITIVE_SPELLING[t.kind]!;
    }
    this.memo.set(t, s);
    return s;
  }

  functionStr(t: FunctionType): string {
    const params = t.params.map((p) => this.str(p));
    if (t.isVarArg) params.push('...');
    return `${this.str(t.returnType)} (${params.join(', ')})`;
  }

  /** `%name = type …` lines for every identified type named so far. */
  definitions(): string[] {
    this.inDefinitions = true;
    try {
      return this.definitionLines();
    } finally {
      this.inDefinitions = false;
    }
  }

  private definitionLines(): string[] {
    return this.order.map((t) => {
      if (t.kind === 'struct') return `${this.names.get(t)} = type ${this.body(t)}`;
      if (this.emptyBody.has(t)) return `${this.names.get(t)} = type {} ; LLVM 1.x: opaque, used by value in an aggregate`;
      return `${this.names.get(t)} = type opaque`;
    });
  }

  private body(t: Type): string {
    if (t.kind !== 'struct') return 'opaque';
    return t.elements.length === 0 ? '{}' : `{ ${t.elements.map((e) => this.str(e)).join(', ')} }`;
  }
}

/** Bits of an integer-like type (bool 1 … long 64), or 0 for anything else. */
export function intBits(t: Type): number {
  return t.kind === 'bool' || isInteger(t) ? integerBits(t) : 0;
}

/** The element type for vector (packed) types, the type itself otherwise. */
export function scalarOf(t: Type): Type {
  return t.kind === 'packed' ? t.element : t;
}

export function isFP(t: Type): boolean {
  const s = scalarOf(t);
  return s.kind === 'float' || s.kind === 'double';
}

export function isSignedInt(t: Type): boolean {
  const s = scalarOf(t).kind;
  return s === 'sbyte' || s === 'short' || s === 'int' || s === 'long';
}
