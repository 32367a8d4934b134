/**
 * LLVM 1.7–1.9's AutoUpgrade (lib/VMCore/AutoUpgrade.cpp): which old, type-generic intrinsic
 * became which typed one. `llvm.bswap`/`ctpop`/`ctlz`/`cttz`/`sqrt` by their return type
 * (`.i8` … `.f64`, on the unsigned type), `llvm.isunordered` by its argument type, `llvm.memcpy`
 * / `memmove` / `memset` by the type of the length (`.i32`, `.i64`). Both of LLVM 1.9's readers
 * applied it — the bytecode reader (held/upgrade19.ts) and the assembly parser
 * (asm/intrinsic-upgrade.ts) — each rewriting the calls its own way.
 *
 * `llvm.dbg.*` upgrades, which permuted arguments, are not modelled: LLVM 1.9 itself failed on
 * the files that needed them (an assertion in its reader and parser).
 */
import { primitiveTypes as P, type FunctionType, type PointerType, type Type } from './type.js';

const UNARY_SUFFIX: Partial<Record<Type['kind'], [string, Type]>> = {
  ubyte: ['.i8', P.ubyte],
  sbyte: ['.i8', P.ubyte],
  ushort: ['.i16', P.ushort],
  short: ['.i16', P.ushort],
  uint: ['.i32', P.uint],
  int: ['.i32', P.uint],
  ulong: ['.i64', P.ulong],
  long: ['.i64', P.ulong],
  float: ['.f32', P.float],
  double: ['.f64', P.double],
};

const UNARY_INTRINSICS = new Set(['llvm.bswap', 'llvm.ctpop', 'llvm.ctlz', 'llvm.cttz', 'llvm.sqrt']);

/** How the caller makes (its own, uniqued) types. */
export interface IntrinsicTypes {
  pointerTo(t: Type): PointerType;
  functionType(returnType: Type, params: Type[]): FunctionType;
}

/** The typed intrinsic an old one named `name` of type `type` became, or undefined. */
export function upgradedIntrinsic(name: string, type: FunctionType, types: IntrinsicTypes): { name: string; type: FunctionType } | undefined {
  if (name.length <= 8 || !name.startsWith('llvm.')) return undefined;
  if (UNARY_INTRINSICS.has(name)) {
    const u = UNARY_SUFFIX[type.returnType.kind];
    return u === undefined ? undefined : { name: name + u[0], type: types.functionType(u[1], [u[1]]) };
  }
  if (name === 'llvm.isunordered' && type.params.length > 0) {
    const t = type.params[0]!.kind;
    if (t === 'float') return { name: name + '.f32', type };
    if (t === 'double') return { name: name + '.f64', type };
    return undefined;
  }
  if ((name === 'llvm.memcpy' || name === 'llvm.memset' || name === 'llvm.memmove') && type.params.length >= 3) {
    const len = type.params[2]!.kind;
    const bytePointer = types.pointerTo(P.sbyte);
    if (len === 'uint' || len === 'int') return { name: name + '.i32', type: types.functionType(P.void, [bytePointer, type.params[1]!, P.uint, P.uint]) };
    if (len === 'ulong' || len === 'long') return { name: name + '.i64', type: types.functionType(P.void, [bytePointer, type.params[1]!, P.ulong, P.uint]) };
  }
  return undefined;
}
