/**
 * What the LLVM 2.0 parser makes of the text before anything is resolved. Types are nodes of the
 * shared type table (`../ast.ts`, resolved by `../resolve-types.ts`), values the shared
 * `ValueRef`/`TypedValue`; what LLVM 2.0 added on top (visibility, `thread_local`, aliases,
 * parameter attributes, predicates, alignment on loads and stores) lives in the items here.
 */
import type { Linkage, Visibility } from '../../graph/value.js';
import type { TypedValue, TypeNode } from '../ast.js';

export interface Global2 {
  readonly k: 'global';
  readonly name?: string;
  readonly linkage: Linkage;
  readonly visibility: Visibility;
  readonly threadLocal: boolean;
  readonly isConstant: boolean;
  /** The value type (an initializer's own type). */
  readonly type: number;
  readonly initializer?: TypedValue;
  readonly section?: string;
  readonly alignment: number;
  readonly at: number;
}

export interface Alias2 {
  readonly k: 'alias';
  readonly name?: string;
  readonly linkage: 'external' | 'internal' | 'weak';
  readonly visibility: Visibility;
  /** A global by name or number, or a `bitcast` constant expression of one. */
  readonly aliasee: TypedValue;
  readonly at: number;
}

export interface Arg2 {
  readonly type: number;
  readonly attrs: number;
  readonly name?: string;
  readonly at: number;
}

/**
 * One instruction. `ops` are its operands in the graph's order (`graph/value.ts`), each with the
 * type node the text gave or implied (a label operand has the `label` node).
 */
export interface Inst2 {
  readonly op: string;
  readonly name?: string;
  readonly at: number;
  /** The type the instruction names: a binary operator's, a cast's target, `alloca`'s, a call's written type, … */
  readonly ty?: number;
  readonly ops: TypedValue[];
  readonly predicate?: string;
  readonly callingConv?: number;
  readonly tail?: boolean;
  /** `call`/`invoke`: each argument's attributes, and the function's (result) attributes. */
  readonly argAttrs?: readonly number[];
  readonly fnAttrs?: number;
  /** `call`/`invoke` written with a return type only: the node of the function type the arguments imply. */
  readonly impliedType?: number;
  readonly alignment?: number;
  readonly volatile?: boolean;
}

export interface Block2 {
  readonly name?: string;
  readonly at: number;
  readonly insts: Inst2[];
}

export interface Function2 {
  readonly k: 'function';
  readonly isDeclare: boolean;
  readonly name?: string;
  readonly linkage: Linkage;
  readonly visibility: Visibility;
  readonly callingConv: number;
  /** The node of the function's type (parameter attributes included). */
  readonly fnType: number;
  readonly args: readonly Arg2[];
  readonly section?: string;
  readonly alignment: number;
  readonly body?: Block2[];
  readonly at: number;
}

export interface TypeDef2 {
  readonly k: 'typedef';
  readonly name?: string;
  readonly type: number;
  readonly at: number;
}

export type Item2 = Global2 | Alias2 | Function2 | TypeDef2;

export interface Module2Ast {
  readonly types: TypeNode[];
  readonly items: Item2[];
  readonly triple: string;
  readonly dataLayout: string;
  readonly inlineAsm: string[];
  readonly libraries: string[];
}
