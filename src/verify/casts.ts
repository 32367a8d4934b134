/**
 * Which of version 7's twelve casts may take a value of one type to another: r36867's
 * `CastInst::castIsValid` (lib/VMCore/Instructions.cpp), which its `llvm-as` applied to every
 * cast instruction and constant expression before the Verifier's own `visitTruncInst` …
 * `visitBitCastInst` (the same rules, with bitcast's pointer test written wrongly there).
 */
import { describeType } from '../graph/describe.js';
import { isFirstClassType, isFloatingPoint, type Type } from '../graph/type.js';
import type { CastOpcode } from '../graph/value.js';

/** `Type::getPrimitiveSizeInBits` at r36867: float 32, double 64, iN N, a vector its total; else 0 (pointers too). */
export function primitiveSizeInBits(t: Type): number {
  switch (t.kind) {
    case 'float':
      return 32;
    case 'double':
      return 64;
    case 'integer':
      return t.bits;
    case 'packed':
      return t.length * primitiveSizeInBits(t.element);
    default:
      return 0;
  }
}

const isInt = (t: Type): boolean => t.kind === 'integer';

/**
 * Why a `op` cast from `from` to `to` is invalid (r36867's words, as its Verifier said them), or
 * undefined when it is valid.
 */
export function castProblem(op: CastOpcode, from: Type, to: Type): string | undefined {
  if (!isFirstClassType(from) || !isFirstClassType(to) || from.kind === 'label' || to.kind === 'label') {
    return `invalid cast opcode for cast from '${describeType(from)}' to '${describeType(to)}'`;
  }
  const src = primitiveSizeInBits(from);
  const dst = primitiveSizeInBits(to);
  const fp = isFloatingPoint;
  switch (op) {
    case 'trunc':
      return !isInt(from) ? 'Trunc only operates on integer' : !isInt(to) ? 'Trunc only produces integer' : src > dst ? undefined : 'DestTy too big for Trunc';
    case 'zext':
      return !isInt(from) ? 'ZExt only operates on integer' : !isInt(to) ? 'ZExt only produces an integer' : src < dst ? undefined : 'Type too small for ZExt';
    case 'sext':
      return !isInt(from) ? 'SExt only operates on integer' : !isInt(to) ? 'SExt only produces an integer' : src < dst ? undefined : 'Type too small for SExt';
    case 'fptrunc':
      return !fp(from) ? 'FPTrunc only operates on FP' : !fp(to) ? 'FPTrunc only produces an FP' : src > dst ? undefined : 'DestTy too big for FPTrunc';
    case 'fpext':
      return !fp(from) ? 'FPExt only operates on FP' : !fp(to) ? 'FPExt only produces an FP' : src < dst ? undefined : 'DestTy too small for FPExt';
    case 'uitofp':
      return !isInt(from) ? 'UInt2FP source must be integral' : !fp(to) ? 'UInt2FP result must be FP' : undefined;
    case 'sitofp':
      return !isInt(from) ? 'SInt2FP source must be integral' : !fp(to) ? 'SInt2FP result must be FP' : undefined;
    case 'fptoui':
      return !fp(from) ? 'FP2UInt source must be FP' : !isInt(to) ? 'FP2UInt result must be integral' : undefined;
    case 'fptosi':
      return !fp(from) ? 'FPToSI source must be FP' : !isInt(to) ? 'FP2ToI result must be integral' : undefined;
    case 'ptrtoint':
      return from.kind !== 'pointer' ? 'PtrToInt source must be pointer' : !isInt(to) ? 'PtrToInt result must be integral' : undefined;
    case 'inttoptr':
      return !isInt(from) ? 'IntToPtr source must be an integral' : to.kind !== 'pointer' ? 'IntToPtr result must be a pointer' : undefined;
    case 'bitcast':
      // castIsValid: pointers only to pointers; otherwise the same width (0 = 0 for two pointers).
      if ((from.kind === 'pointer') !== (to.kind === 'pointer')) return 'Bitcast requires both operands to be pointer or neither';
      return src === dst ? undefined : 'Bitcast requies types of same width';
  }
}
