/**
 * The modern module as the bitcode writer takes it: the lowered module that `printModern`
 * decided (what is folded, materialised or declared for the chosen LLVM), read back from its
 * text by `parse-ir.ts`, so that the text and the bitcode cannot disagree. Types are interned:
 * one object per distinct type, so `===` is type equality.
 */

import type { DirectBody } from './direct-body.js';

export type IrType =
  | { readonly kind: 'void' | 'float' | 'double' | 'ptr' | 'label' | 'metadata' | 'x86_fp80' | 'fp128' | 'half' }
  | { readonly kind: 'int'; readonly bits: number }
  | { readonly kind: 'array' | 'vector'; readonly length: number; readonly element: IrType }
  | { readonly kind: 'struct'; readonly elements: readonly IrType[]; readonly packed: boolean }
  | { readonly kind: 'function'; readonly ret: IrType; readonly params: readonly IrType[]; readonly varArg: boolean }
  /** A typed pointer (`i32*`: LLVM 13 and 14's output); `ptr` is the opaque one. */
  | { readonly kind: 'pointer'; readonly element: IrType }
  | IrNamedStruct;

/** An identified struct (`%T = type …`); `body` undefined while opaque. */
export interface IrNamedStruct {
  readonly kind: 'named';
  readonly name: string;
  body: { readonly elements: readonly IrType[]; readonly packed: boolean } | undefined;
}

/** A parameter, return or function attribute. */
export type IrAttribute =
  | { readonly kind: 'enum'; readonly name: string }
  | { readonly kind: 'int'; readonly name: string; readonly value: number }
  | { readonly kind: 'type'; readonly name: string; readonly type: IrType }
  | { readonly kind: 'string'; readonly key: string; readonly value: string };

/** Attributes by position: `fn`, `ret`, then one list per parameter. */
export interface IrAttributeSet {
  readonly fn: readonly IrAttribute[];
  readonly ret: readonly IrAttribute[];
  readonly params: readonly (readonly IrAttribute[])[];
}

export type IrConstant =
  | { readonly kind: 'int'; readonly type: IrType; readonly value: bigint }
  /** Floating point: the bits of the value in the type's own format. */
  | { readonly kind: 'fp'; readonly type: IrType; readonly bits: bigint }
  | { readonly kind: 'null' | 'undef' | 'poison' | 'zero'; readonly type: IrType }
  | { readonly kind: 'aggregate'; readonly type: IrType; readonly elements: readonly IrConstant[] }
  /** `c"…"`: an array of i8. */
  | { readonly kind: 'bytes'; readonly type: IrType; readonly bytes: Uint8Array }
  | { readonly kind: 'global'; readonly type: IrType; readonly name: string }
  | IrConstantExpr
  | { readonly kind: 'asm'; readonly type: IrType; readonly fnType: IrType; readonly asm: string; readonly constraints: string; readonly sideEffect: boolean };

export interface IrConstantExpr {
  readonly kind: 'expr';
  readonly type: IrType;
  /** The modern opcode: `getelementptr`, `bitcast`, `add`, `icmp`, `select`, … */
  readonly opcode: string;
  readonly operands: readonly IrConstant[];
  /** `icmp`/`fcmp`: the predicate. */
  readonly predicate?: string;
  /** `getelementptr`: the source element type, and `inbounds`. */
  readonly sourceType?: IrType;
  readonly inbounds?: boolean;
  /** Binary operators: `nuw`/`nsw`/`exact` flags as LLVM encodes them (bit 0 nuw / exact, bit 1 nsw). */
  readonly flags?: number;
}

/** A value an instruction uses: a local by name, or a constant (globals included). */
export type IrValue = { readonly kind: 'local'; readonly name: string } | { readonly kind: 'const'; readonly constant: IrConstant };

export interface IrOperand {
  readonly type: IrType;
  readonly value: IrValue;
}

export interface IrInstruction {
  /** The result's name key (`%x` → "n:x", `%3` → "#3"), when it has one. */
  readonly result: string | undefined;
  /** The result's type (`void` when none). */
  readonly type: IrType;
  readonly opcode: string;
  readonly operands: readonly IrOperand[];
  /** Block operands (`label %x`), by name. */
  readonly labels: readonly string[];
  /** Opcode-specific details. */
  readonly predicate?: string;
  readonly flags?: number;
  /** getelementptr: source element type; alloca: allocated type; load: loaded type; va_arg: result type; call/invoke: function type. */
  readonly auxType?: IrType;
  readonly inbounds?: boolean;
  readonly volatile?: boolean;
  readonly align?: number;
  readonly indices?: readonly number[];
  readonly tail?: boolean;
  readonly callingConv?: number;
  readonly attributes?: IrAttributeSet;
  /** landingpad: cleanup, and clauses (0 catch, 1 filter) with their values. */
  readonly cleanup?: boolean;
  readonly clauses?: readonly { readonly kind: 0 | 1; readonly value: IrOperand }[];
  /** phi: incoming values with their blocks. */
  readonly incoming?: readonly { readonly value: IrValue; readonly block: string }[];
  /** switch: case values with their blocks (the default is labels[0]). */
  readonly cases?: readonly { readonly value: IrConstant; readonly block: string }[];
}

export interface IrBlock {
  /** The label's name key. */
  readonly name: string;
  readonly instructions: IrInstruction[];
}

export interface IrGlobalVariable {
  readonly name: string;
  readonly valueType: IrType;
  readonly isConstant: boolean;
  readonly initializer: IrConstant | undefined;
  readonly linkage: string;
  readonly visibility: string;
  readonly dllStorage: string;
  readonly threadLocal: boolean;
  readonly section: string | undefined;
  readonly align: number;
}

export interface IrFunction {
  readonly name: string;
  readonly type: IrType & { kind: 'function' };
  readonly linkage: string;
  readonly visibility: string;
  readonly dllStorage: string;
  readonly callingConv: number;
  readonly attributes: IrAttributeSet;
  readonly section: string | undefined;
  readonly align: number;
  readonly gc: string | undefined;
  readonly personality: IrConstant | undefined;
  /** Parameter names (undefined for a declaration, or an unnamed parameter's number). */
  readonly params: readonly string[];
  readonly blocks: IrBlock[] | undefined;
  /** A body lowered straight to records (direct-body.ts), written `{ ~ }` in the text; `blocks` is then empty. */
  readonly direct?: DirectBody;
}

export interface IrAlias {
  readonly name: string;
  readonly valueType: IrType;
  readonly aliasee: IrConstant;
  readonly linkage: string;
  readonly visibility: string;
}

export type IrMetadata = { readonly kind: 'string'; readonly value: string } | { readonly kind: 'node'; readonly elements: readonly number[] };

export interface IrModule {
  readonly triple: string | undefined;
  readonly dataLayout: string | undefined;
  readonly asm: string[];
  /** Identified structs in the order the text defines them. */
  readonly structs: IrNamedStruct[];
  readonly globals: IrGlobalVariable[];
  readonly functions: IrFunction[];
  readonly aliases: IrAlias[];
  /** `!N = …` by N. */
  readonly metadata: Map<number, IrMetadata>;
  /** `!name = !{!0, …}`. */
  readonly namedMetadata: { readonly name: string; readonly nodes: readonly number[] }[];
}

/**
 * Names of locals and globals are keys: `n:` and the name for a named value, `#` and the number
 * for a value the text numbered (`%3`, `@0`: unnamed in LLVM).
 */
export function isNumberedName(key: string): boolean {
  return key.startsWith('#');
}

/** The name a key stands for, as the value symbol table holds it. */
export function nameOfKey(key: string): string {
  return key.slice(key.startsWith('#') ? 1 : 2);
}
