/**
 * LLVM 1.x types in modern spelling. Signless integers by width (`int`/`uint` → `i32`), `packed`
 * is a vector, and a pointer is the opaque `ptr` (LLVM 15 on) or, for LLVM 13 and 14, the typed
 * pointer `T*` that 1.x wrote. Named struct and opaque types stay named (identified structs,
 * `%name = type { … }`) so the output stays short and recognisable, and every other named type
 * (`%T = type int*`) is written out where it is used. With opaque pointers no type is recursive;
 * with typed ones a recursion must pass through an identified struct, so an unnamed struct on a
 * cycle gets a name (`%struct.N`), and a cycle with no struct on it (`\1*`, a pointer to itself)
 * has no typed spelling and is refused.
 */
import type { Module } from '../graph/module.js';
import { SelfContainingTypes } from '../graph/self-containing.js';
import { integerBits, isInteger, subtypes, type FunctionType, type Type } from '../graph/type.js';
import { formatName } from './names.js';
import { UpgradeError } from './upgrade-error.js';

/**
 * The longest spelling of one type: far beyond any real module (whose largest literal structs
 * spell in a few kilobytes), yet it stops a damaged type table whose structs each hold the
 * previous one twice, whose spelling doubles with every level.
 */
export const MAX_TYPE_SPELLING = 1 << 20;

/**
 * A type in LLVM 1.x's spelling for a message, with a cycle as LLVM's up-reference (`\1 (uint)`
 * is a function returning itself, as `llvm-dis` shows it) and nesting and long lists cut short.
 */
function sketch(t: Type, outer: readonly Type[]): string {
  const at = outer.lastIndexOf(t);
  if (at >= 0) return `\\${outer.length - at}`;
  if (outer.length >= 4) return '…';
  const inner = [...outer, t];
  const list = (ts: readonly Type[], extra: string[] = []): string => {
    const parts = ts.slice(0, 6).map((x) => sketch(x, inner));
    if (ts.length > 6) parts.push('…');
    return [...parts, ...extra].join(', ');
  };
  switch (t.kind) {
    case 'pointer':
      return `${sketch(t.element, inner)}*`;
    case 'array':
      return `[${t.length} x ${sketch(t.element, inner)}]`;
    case 'packed':
      return `<${t.length} x ${sketch(t.element, inner)}>`;
    case 'struct':
      return `{ ${list(t.elements)} }`;
    case 'function':
      return `${sketch(t.returnType, inner)} (${list(t.params, t.isVarArg ? ['...'] : [])})`;
    default:
      return t.kind;
  }
}

/**
 * The types `t`'s modern spelling spells out: its subtypes but a pointer's element (`ptr` names
 * none), a function type's return and parameter types included.
 */
function byValueParts(t: Type, typed: boolean): readonly Type[] {
  if (t.kind === 'pointer') return typed ? [t.element] : [];
  return subtypes(t);
}

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

  constructor(
    private readonly module: Module,
    /**
     * LLVM 20 and later (measured: 19 accepts both, 22 refuses both) refuse an identified struct
     * that holds itself by value (`identified structure type 't' is recursive`) and an `undef`
     * of an opaque type (a 1.x global `%x = global %t undef`): the first is then written opaque
     * (it has no size, so no value ever had it), the second's type gets an empty body.
     */
    private readonly sizedOnly = false,
    /** LLVM 13 and 14: typed pointers (`i32*`, `%T*`, `void (i32)*`) instead of `ptr`. */
    readonly typed = false,
  ) {
    for (const [name, type] of module.typeNames) {
      if ((type.kind === 'struct' || type.kind === 'opaque') && !this.names.has(type)) this.define(type, name);
    }
    for (const type of module.types) if (type.kind === 'opaque' && !this.names.has(type)) this.nameOpaque(type);
    for (const type of module.types) {
      const inside = type.kind === 'struct' ? type.elements : type.kind === 'array' || type.kind === 'packed' ? [type.element] : [];
      for (const e of inside) if (e.kind === 'opaque') this.emptyBody.add(e);
    }
    if (sizedOnly) for (const g of module.globals) if (g.valueType.kind === 'opaque' && g.initializer !== undefined) this.emptyBody.add(g.valueType);
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

  /**
   * The modern spelling of `t`. Throws `UpgradeError` when `t` contains itself other than
   * through a pointer (see `spell`).
   */
  str(t: Type): string {
    // A named struct holding itself by value has a spelling (its name), and LLVM 16 takes its
    // definition, but no value of it: refused where a value needs it. (A literal type holding
    // itself has no spelling at all: `spell` refuses it.)
    if (t.kind === 'struct' && !this.inDefinitions && this.selfContaining.has(t)) {
      throw new UpgradeError(`${this.describe(t)} contains itself by value and so has no size; LLVM 16 has no values of such a type`);
    }
    return this.names.get(t) ?? this.memo.get(t) ?? this.spell(t);
  }

  /** A function type as LLVM 16 writes it where syntax needs one (`i32 (ptr, ...)`). */
  functionStr(t: FunctionType): string {
    return this.str(t);
  }

  /**
   * Spells `root` and every type it holds by value, children first, with an explicit stack: a
   * damaged file can nest types as deeply as it has bytes, and the walk must not exhaust the call
   * stack. The walk stops at identified (named) structs, spelled by name, and at pointers (`ptr`
   * needs no element type). Meeting a type that is still being spelled means a literal type
   * contains itself by value (`[4 x \1]`, a function returning itself): LLVM 1.x's type system
   * could hold such a type, LLVM 16 has no spelling for it, so that is an `UpgradeError`.
   * (A named struct holding itself by value, `%t = type { %t }`, has a spelling, and LLVM 16
   * accepts its definition; LLVM 1.x refused values of such a type, and so does our reader.)
   */
  private spell(root: Type): string {
    // Each pass either spells `root` or names one more struct (typed pointers: see `cycle`).
    for (;;) {
      const text = this.spellPass(root);
      if (text !== undefined) return text;
    }
  }

  /** One attempt at `spell`: undefined when it had to name a struct on a cycle first. */
  private spellPass(root: Type): string | undefined {
    const open = new Set<Type>([root]);
    const stack: { type: Type; parts: readonly Type[]; next: number }[] = [{ type: root, parts: byValueParts(root, this.typed), next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.parts.length) {
        const part = top.parts[top.next++]!;
        if (this.memo.has(part) || this.names.has(part)) continue;
        if (open.has(part)) {
          this.cycle(
            part,
            stack.map((e) => e.type),
          );
          return undefined;
        }
        open.add(part);
        stack.push({ type: part, parts: byValueParts(part, this.typed), next: 0 });
        continue;
      }
      stack.pop();
      open.delete(top.type);
      const text = this.spellOne(top.type);
      if (text.length > MAX_TYPE_SPELLING) throw new UpgradeError(`the spelling of ${this.describe(top.type)} exceeds ${MAX_TYPE_SPELLING} characters`);
      this.memo.set(top.type, text);
    }
    return this.memo.get(root)!;
  }

  /**
   * `part` is met again while its own spelling is open (`path`: the types being spelled, outermost
   * first). Through a typed pointer that is a recursive type: the first struct on the cycle becomes
   * an identified struct, whose name ends the spelling. Any other cycle is refused.
   */
  private cycle(part: Type, path: readonly Type[]): void {
    const onCycle = path.slice(path.lastIndexOf(part));
    const viaPointer = onCycle.some((t) => t.kind === 'pointer');
    if (!viaPointer) throw new UpgradeError(`${this.describe(part)} contains itself other than through a pointer, which LLVM 16 cannot express`);
    const struct = onCycle.find((t) => t.kind === 'struct');
    if (struct === undefined)
      throw new UpgradeError(
        `${this.describe(part)} refers to itself through pointers with no structure on the way, which typed pointers (LLVM ${this.typed ? '13 and 14' : '16'}) cannot spell; upgrade for LLVM 15 or later`,
      );
    this.nameStruct(struct);
  }

  private structCount = 0;

  /** Gives an unnamed struct on a recursive cycle a name (`%struct.N`). */
  private nameStruct(type: Type): void {
    let name: string;
    do name = `struct.${this.structCount++}`;
    while (this.usedNames.has(name));
    this.define(type, name);
  }

  /** The spelling of `t` once every part it holds by value is spelled (in `memo`). */
  private spellOne(t: Type): string {
    const named = this.names.get(t);
    if (named !== undefined) return named;
    const part = (p: Type): string => this.names.get(p) ?? this.memo.get(p)!;
    switch (t.kind) {
      case 'pointer':
        return this.typed ? `${part(t.element)}*` : 'ptr';
      case 'array':
        this.refuseNonFirstClass(t, [t.element], 'an array');
        return `[${t.length} x ${part(t.element)}]`;
      case 'packed':
        return `<${t.length} x ${part(t.element)}>`;
      case 'struct':
        this.refuseNonFirstClass(t, t.elements, 'a structure');
        return t.elements.length === 0 ? '{}' : `{ ${t.elements.map(part).join(', ')} }`;
      case 'function': {
        this.refuseOddParameters(t);
        const params = t.params.map(part);
        if (t.isVarArg) params.push('...');
        return `${part(t.returnType)} (${params.join(', ')})`;
      }
      case 'opaque':
        // An opaque type the type pool did not list: name it now (definitions print at the end).
        this.nameOpaque(t);
        return this.names.get(t)!;
      case 'integer':
        return `i${t.bits}`; // version 7
      default:
        return PRIMITIVE_SPELLING[t.kind]!;
    }
  }

  /**
   * A function type taking a function, a label or `void` by value (only a damaged file's: LLVM
   * 1.x could not call such a function) has no LLVM 16 form.
   */
  refuseOddParameters(t: FunctionType): void {
    // A function type taking itself is refused as containing itself (the spelling walk says so).
    const odd = t.params.find((p) => p !== t && (p.kind === 'function' || p.kind === 'label' || p.kind === 'void'));
    if (odd !== undefined)
      throw new UpgradeError(
        `${this.describe(t)} takes a parameter of type ${sketch(odd, [])}, which LLVM 16 has no form for: a parameter has a first-class type`,
      );
  }

  /**
   * LLVM 1.x let a structure field or an array element be a function or a label (`{ void () }`,
   * `[2 x label]`: its assembler took them); LLVM 16 holds only first-class types there.
   */
  private refuseNonFirstClass(t: Type, parts: readonly Type[], what: 'a structure' | 'an array'): void {
    const odd = parts.find((p) => p.kind === 'function' || p.kind === 'label');
    if (odd !== undefined)
      throw new UpgradeError(
        `${this.describe(t)} holds ${what === 'a structure' ? 'a field' : 'elements'} of type ${sketch(odd, [])}, which LLVM 16 has no form for: its structures and arrays hold first-class types only`,
      );
  }

  /** A type for a message: its 1.x name when the module gives it one, else a short rendering. */
  private describe(t: Type): string {
    for (const [name, type] of this.module.typeNames) if (type === t) return `type %${name}`;
    return `type ${sketch(t, [])}`;
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
    // A body may name another struct on a cycle (typed pointers), which joins `order`: by index.
    const lines: string[] = [];
    for (let i = 0; i < this.order.length; i++) lines.push(this.definitionLine(this.order[i]!));
    return lines;
  }

  private definitionLine(t: Type): string {
    if (t.kind === 'struct' && this.sizedOnly && this.selfContaining.has(t))
      return `${this.names.get(t)} = type opaque ; LLVM 1.x: a structure that contains itself by value (no size)`;
    if (t.kind === 'struct') return `${this.names.get(t)} = type ${this.body(t)}`;
    if (this.emptyBody.has(t)) return `${this.names.get(t)} = type {} ; LLVM 1.x: opaque, used by value in an aggregate or defined as a global`;
    return `${this.names.get(t)} = type opaque`;
  }

  private body(t: Type): string {
    if (t.kind !== 'struct') return 'opaque';
    this.refuseNonFirstClass(t, t.elements, 'a structure');
    return t.elements.length === 0 ? '{}' : `{ ${t.elements.map((e) => this.str(e)).join(', ')} }`;
  }
}

/** Bits of an integer-like type (bool 1 … long 64), or 0 for anything else. */
export function intBits(t: Type): number {
  if (t.kind === 'integer') return t.bits; // version 7's signless integers
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
