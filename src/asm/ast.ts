/**
 * What the parser makes of the text before anything is resolved: types as nodes of one table
 * (named and numbered references, up-references and forward references are resolved together,
 * once the whole module is known), values as references by name, number or literal. Every node
 * keeps the offset it came from, so the resolver's errors point at the text. Function bodies are
 * not objects but a tape of numbers (body-tape.ts): they are nearly all of a large text.
 */
import type { ParamAttribute, PrimitiveType } from '../graph/type.js';
import type { Linkage } from '../graph/value.js';
import type { BodyTape } from './body-tape.js';

// ---------------------------------------------------------------------------------------------
// Types: indices into one table of nodes

export type TypeNode =
  | { readonly k: 'prim'; readonly t: PrimitiveType }
  /** LLVM 2.0's `iN` (version 7's signless integer of N bits). */
  | { readonly k: 'int'; readonly bits: number }
  | { readonly k: 'opaque' }
  /** `%name` in a type: the named type, defined before or after. */
  | { readonly k: 'named'; readonly name: string; readonly at: number }
  /** `%N` in a type: the N-th unnamed module-level type definition. */
  | { readonly k: 'numbered'; readonly n: number; readonly at: number }
  /** `\N`: the N-th enclosing type; `target` is that type's node once the parser closed it. */
  | { readonly k: 'up'; target: number; readonly at: number }
  | { readonly k: 'pointer'; readonly el: number }
  | { readonly k: 'array' | 'packed'; readonly el: number; readonly length: number }
  /** `packed`: LLVM 2.0's `<{ … }>`. */
  | { readonly k: 'struct'; readonly els: readonly number[]; readonly packed?: boolean }
  /** `attrs`: LLVM 2.0's parameter attributes (index 0 the result), absent when none. */
  | { readonly k: 'function'; readonly ret: number; readonly params: readonly number[]; readonly varArg: boolean; readonly attrs?: readonly ParamAttribute[] };

// ---------------------------------------------------------------------------------------------
// Values

/** A reference to a value, as written where its type is known from the context. */
export type ValueRef =
  | { readonly k: 'name'; readonly name: string; readonly at: number }
  | { readonly k: 'num'; readonly n: number; readonly at: number }
  /** Integer literal text (`-5`, `42`, `s0x…`, `u0x…`). */
  | { readonly k: 'int'; readonly text: string; readonly at: number }
  | { readonly k: 'fp'; readonly text: string; readonly at: number }
  | { readonly k: 'bool'; readonly value: boolean; readonly at: number }
  | { readonly k: 'null' | 'undef' | 'zero'; readonly at: number }
  /** `[ … ]`, `< … >`, `{ … }`: elements each with its own type. */
  | { readonly k: 'array' | 'packed' | 'struct'; readonly elements: readonly TypedValue[]; readonly at: number }
  /** `c"…"`: the raw string contents (escapes unresolved). */
  | { readonly k: 'string'; readonly raw: string; readonly at: number }
  | { readonly k: 'expr'; readonly expr: ConstExprAst; readonly at: number }
  | { readonly k: 'asm'; readonly sideEffect: boolean; readonly asm: string; readonly constraints: string; readonly at: number };

/** A value with its type written before it (`int 5`, `int* %p`). */
export interface TypedValue {
  readonly type: number;
  readonly ref: ValueRef;
}

export interface ConstExprAst {
  /** `cast`, `getelementptr`, `select`, a binary, setcc or shift opcode, or a vector opcode. */
  readonly op: string;
  readonly operands: readonly TypedValue[];
  /** `cast`: the target type. */
  readonly to?: number;
  /** LLVM 2.0's `icmp`/`fcmp`: the predicate as written. */
  readonly predicate?: string;
}

// ---------------------------------------------------------------------------------------------
// Module items

export interface TargetItem {
  readonly k: 'target';
  readonly what: 'endian' | 'pointersize' | 'triple' | 'datalayout';
  readonly value: string;
  readonly at: number;
}

export interface TypeDefItem {
  readonly k: 'typedef';
  /** Absent for an unnamed (numbered) definition. */
  readonly name?: string;
  readonly type: number;
  readonly at: number;
}

export interface GlobalItem {
  readonly k: 'global';
  /** How many type nodes the parser had made at the end of the definition. */
  readonly mark: number;
  readonly name?: string;
  readonly linkage: Linkage;
  readonly isConstant: boolean;
  /** The value type; with `initializer`, the initializer's own type. */
  readonly type: number;
  readonly initializer?: TypedValue;
  readonly section?: string;
  readonly alignment: number;
  readonly at: number;
}

export interface ArgAst {
  readonly type: number;
  readonly name?: string;
  readonly at: number;
}

export interface FunctionItem {
  readonly k: 'function';
  /** How many type nodes the parser had made at the end of the header. */
  readonly mark: number;
  readonly isDeclare: boolean;
  readonly name: string;
  readonly linkage: Linkage;
  readonly callingConv: number;
  readonly returnType: number;
  readonly args: readonly ArgAst[];
  readonly varArg: boolean;
  readonly section?: string;
  readonly alignment: number;
  /** The body, for a definition (body-tape.ts). */
  readonly body: BodyTape | undefined;
  readonly at: number;
}

export interface AsmItem {
  readonly k: 'asm';
  readonly text: string;
}

export interface DeplibsItem {
  readonly k: 'deplibs';
  readonly libraries: readonly string[];
}

/** `%X = const int 0`: LLVM 1.1 and 1.2's named constant (a name for a constant, no global). */
export interface ConstItem {
  readonly k: 'const';
  readonly name?: string;
  readonly value: TypedValue;
  readonly at: number;
}

export type ModuleItem = TargetItem | TypeDefItem | GlobalItem | FunctionItem | AsmItem | DeplibsItem | ConstItem;

export interface ModuleAst {
  readonly types: TypeNode[];
  readonly items: ModuleItem[];
  /**
   * How many type nodes the module's first part made: LLVM's grammar called it the constant pool
   * (type definitions, globals and declarations before `implementation` or the first function),
   * and only there was a type name that no definition gave refused.
   */
  readonly constPoolTypes: number;
  /** The type nodes each function body made, `[first, end)`, in the order of the text. */
  readonly bodyTypeRanges: readonly (readonly [number, number])[];
}
