/**
 * Version 7's instruction encoding (r36867 `outputInstruction`): the packed formats 1–3 (one, two
 * or three small fields in a 32-bit word) or format 0 (vbr fields). New against LLVM 1.9: casts
 * carry their target type as a cast did, `icmp`/`fcmp` their predicate as a last field, an
 * attributed load/store (opcodes 62/63) its alignment and volatility, an invoke always its
 * calling convention, and a getelementptr's sequential index one bit for i32 (0) or i64 (1).
 *
 * Why its own: the mirror of `decode/v7/instructions.ts` (typed operands, predicates, alignment
 * fields, one-bit index types), where 1.9's writer encodes signless opcodes and two-bit index
 * types.
 */
import type { FunctionType, PointerType, Type } from '../../graph/type.js';
import { isCastOpcode, unheldCallingConvention, type Instruction, type Value } from '../../graph/value.js';
import { EncodeError } from '../encode-error.js';
import { predicateNumber } from '../constant-pool.js';
import { encodedAlignment, slotOf, typeSlotOf, writeTypeId, type ModuleEncodeContext } from '../context.js';
import { llvmOperands, type V7SlotCalculator } from './slot-calculator.js';

/** The writers' shared context, with r36867's numbering. */
export interface V7EncodeContext extends ModuleEncodeContext {
  readonly sc: V7SlotCalculator;
}

const FAST_CC = 8;

function calleeType(inst: Instruction): FunctionType {
  return (inst.operands[0]!.type as PointerType).element as FunctionType;
}

/** The types a getelementptr's indices step through (LLVM `gep_type_iterator`), one per index. */
function gepIndexedTypes(inst: Instruction): Type[] {
  const out: Type[] = [];
  let t: Type | undefined = inst.operands[0]!.type;
  for (let i = 1; i < inst.operands.length; i++) {
    if (t === undefined) throw new EncodeError('a getelementptr indexing into a non-aggregate', 7);
    out.push(t);
    if (t.kind === 'struct') {
      const idx = inst.operands[i]!;
      const n = idx.kind === 'int' ? Number(idx.value) : -1;
      t = t.elements[n];
    } else if (t.kind === 'pointer' || t.kind === 'array' || t.kind === 'packed') {
      t = t.element;
    } else {
      t = undefined;
    }
  }
  return out;
}

/** A sequential index's slot with its width bit (0: i32, 1: i64). */
function gepSequentialField(ctx: V7EncodeContext, idx: Value): number {
  const t = idx.type;
  if (t.kind !== 'integer' || (t.bits !== 32 && t.bits !== 64)) {
    throw new EncodeError(`a getelementptr index of type ${t.kind === 'integer' ? `i${t.bits}` : t.kind}`, ctx.row.version, 'indices are i32 or i64');
  }
  return slotOf(ctx, idx) * 2 + (t.bits === 64 ? 1 : 0);
}

/** The pseudo-opcode LLVM chose for a call, or the plain opcode. */
function callOpcode(ctx: V7EncodeContext, inst: Instruction, plain: number): number {
  const cc = inst.callingConv ?? 0;
  if (cc === 0) return inst.isTailCall ? ctx.opcodes.pseudoOf('tailCallC', 'a tail call') : plain;
  if (cc === FAST_CC) {
    return inst.isTailCall ? ctx.opcodes.pseudoOf('tailCallFastCC', 'a fastcc tail call') : ctx.opcodes.pseudoOf('callFastCC', 'a fastcc call');
  }
  return ctx.opcodes.pseudoOf('callWithCC', `a call with calling convention ${cc}`);
}

/** The attribute field of an attributed load/store: (log2(alignment) + 1) << 1 | volatile. */
function memoryAttributes(inst: Instruction): number {
  return encodedAlignment(inst.alignment ?? 0) * 2 + (inst.isVolatile === true ? 1 : 0);
}

export function writeV7Instruction(ctx: V7EncodeContext, inst: Instruction): void {
  const unheld = unheldCallingConvention(inst.opcode, inst.callingConv ?? 0);
  if (unheld !== undefined) throw new EncodeError(unheld.construct, ctx.row.version, unheld.detail);
  const out = ctx.out;
  const ops = llvmOperands(inst);
  const op = inst.opcode;
  let opcode = ctx.opcodes.of(op);
  const callEscape = op === 'call' && (inst.callingConv ?? 0) !== 0 && (inst.callingConv ?? 0) !== FAST_CC;
  if (op === 'call') opcode = callOpcode(ctx, inst, opcode);

  let ty: Type;
  switch (op) {
    case 'select':
    case 'malloc':
    case 'alloca':
      ty = inst.type;
      break;
    case 'store':
      ty = ops[1]!.type;
      break;
    default:
      ty = ops.length !== 0 ? ops[0]!.type : inst.type;
  }
  const type = typeSlotOf(ctx, ty);

  if ((op === 'call' || op === 'invoke') && calleeType(inst).isVarArg) {
    writeVarArgsCall(ctx, inst, ops, opcode, type, callEscape);
    return;
  }

  const isCastLike = isCastOpcode(op) || op === 'vaarg';
  const isCmp = op === 'icmp' || op === 'fcmp';
  const attributed = (op === 'load' || op === 'store') && ((inst.alignment ?? 0) !== 0 || inst.isVolatile === true);
  const allocAlign = op === 'malloc' || op === 'alloca' ? (inst.alignment ?? 0) : 0;
  const gepTypes = op === 'getelementptr' ? gepIndexedTypes(inst) : undefined;

  if (ops.length <= 3) {
    let n = ops.length;
    let maxOpSlot = type;
    const s = [4095, 0, 0];
    for (let i = 0; i < n; i++) {
      s[i] = slotOf(ctx, ops[i]!);
      if (s[i]! > maxOpSlot) maxOpSlot = s[i]!;
    }
    let packable = true;
    if (isCastLike) {
      s[1] = typeSlotOf(ctx, inst.type);
      n++;
    } else if (op === 'malloc' || op === 'alloca') {
      if (allocAlign !== 0) {
        s[1] = encodedAlignment(allocAlign);
        n = 2;
      }
    } else if (isCmp) {
      s[2] = predicateNumber(ctx, op, inst.predicate);
      n = 3;
    } else if (gepTypes !== undefined) {
      for (let i = 1; i < n; i++) if (gepTypes[i - 1]!.kind !== 'struct') s[i] = gepSequentialField(ctx, ops[i]!);
    } else if (callEscape) {
      n++;
      if (n <= 3) s[n - 1] = (inst.callingConv ?? 0) * 2 + (inst.isTailCall ? 1 : 0);
    } else if (op === 'invoke') {
      n++;
      packable = false;
    } else if (attributed && op === 'load') {
      n = 2;
      s[1] = memoryAttributes(inst);
      opcode = ctx.opcodes.pseudoOf('volatileLoad', 'an attributed load');
    } else if (attributed && op === 'store') {
      n = 3;
      s[2] = memoryAttributes(inst);
      opcode = ctx.opcodes.pseudoOf('volatileStore', 'an attributed store');
    }
    for (let i = 0; i < n && i < 3; i++) if (s[i]! > maxOpSlot) maxOpSlot = s[i]!;
    if (packable) {
      if (n <= 1 && maxOpSlot < 4095) {
        out.uint32((1 | (opcode << 2) | (type << 8) | (s[0]! << 20)) >>> 0);
        return;
      }
      if (n === 2 && maxOpSlot < 256) {
        out.uint32((2 | (opcode << 2) | (type << 8) | (s[0]! << 16) | (s[1]! << 24)) >>> 0);
        return;
      }
      if (n === 3 && maxOpSlot < 64) {
        out.uint32((3 | (opcode << 2) | (type << 8) | (s[0]! << 14) | (s[1]! << 20) | (s[2]! << 26)) >>> 0);
        return;
      }
    }
  }
  // The attributed load/store opcode is chosen only on the packed path's way (see above); format
  // 0 comes after it in LLVM, so recompute it for long operands too.
  if (attributed) opcode = ctx.opcodes.pseudoOf(op === 'load' ? 'volatileLoad' : 'volatileStore', `an attributed ${op}`);

  // Format 0: opcode, type, operand count, then each operand as a vbr.
  out.vbr32(opcode << 2);
  writeTypeId(ctx, type);
  const hasExtra = op === 'malloc' || op === 'alloca' ? allocAlign !== 0 : isCastLike || op === 'invoke' || isCmp || callEscape || attributed;
  out.vbr32(ops.length + (hasExtra ? 1 : 0));
  if (gepTypes === undefined) {
    for (const o of ops) out.vbr32(slotOf(ctx, o));
    if (isCastLike) writeTypeId(ctx, typeSlotOf(ctx, inst.type));
    else if (isCmp) out.vbr32(predicateNumber(ctx, op as 'icmp' | 'fcmp', inst.predicate));
    else if (op === 'invoke') out.vbr32(inst.callingConv ?? 0);
    else if (callEscape) out.vbr32((inst.callingConv ?? 0) * 2 + (inst.isTailCall ? 1 : 0));
    else if (allocAlign !== 0) out.vbr32(encodedAlignment(allocAlign));
    else if (attributed) out.vbr32(memoryAttributes(inst));
  } else {
    out.vbr32(slotOf(ctx, ops[0]!));
    for (let i = 1; i < ops.length; i++) out.vbr32(gepTypes[i - 1]!.kind === 'struct' ? slotOf(ctx, ops[i]!) : gepSequentialField(ctx, ops[i]!));
  }
}

function writeVarArgsCall(ctx: V7EncodeContext, inst: Instruction, ops: readonly Value[], opcode: number, type: number, callEscape: boolean): void {
  const out = ctx.out;
  out.vbr32(opcode << 2);
  writeTypeId(ctx, type);
  const numParams = calleeType(inst).params.length;
  const isInvoke = inst.opcode === 'invoke';
  const numFixed = isInvoke ? 3 + numParams : 1 + numParams;
  out.vbr32(2 * ops.length - numFixed + (callEscape || isInvoke ? 1 : 0));
  for (let i = 0; i < numFixed; i++) out.vbr32(slotOf(ctx, ops[i]!));
  for (let i = numFixed; i < ops.length; i++) {
    writeTypeId(ctx, typeSlotOf(ctx, ops[i]!.type));
    out.vbr32(slotOf(ctx, ops[i]!));
  }
  if (isInvoke) out.vbr32(inst.callingConv ?? 0);
  else if (callEscape) out.vbr32((inst.callingConv ?? 0) * 2 + (inst.isTailCall ? 1 : 0));
}
