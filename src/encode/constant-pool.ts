/**
 * Constant pools: the module's strings plane and value planes, and each constant's encoding.
 * Version 7 (r36867 `outputConstants`) writes the same layout (it has no function pools); its
 * constants differ only in what the row says: integers of any width, comparison predicates.
 */
import { isPrimitive, isSigned, type Type } from '../graph/type.js';
import { FLOAT_PREDICATES, INT_PREDICATES, type InlineAsm, type Value } from '../graph/value.js';
import { hasNullValue, isI8String, isString } from './canonical.js';
import type { ModuleEncodeContext, SlotWritingContext } from './context.js';
import { beginBlock, checkSignless, constantOperandSlot, endBlock, slotOf, typeSlotOf, writeTypeId } from './context.js';
import type { PlaneEntry } from './slot-numbering.js';
import { writtenOperands } from './gep-indices.js';
import { EncodeError } from './encode-error.js';

/** Writes a constant pool block; `isFunction` selects a function's pool (types first, no strings). */
export function writeConstantPool(ctx: ModuleEncodeContext, isFunction: boolean, writeTypes: (start: number) => void): void {
  const { sc } = ctx;
  beginBlock(ctx, 'constantPool');
  if (isFunction) writeTypes(sc.moduleTypeLevel);
  else writeStrings(ctx);
  const n = sc.numPlanes;
  for (let pno = 0; pno < n; pno++) {
    const plane = sc.getPlane(pno);
    if (plane.length === 0) continue;
    let valNo = isFunction ? sc.getModuleLevel(pno) : 0;
    // (A plane that begins with a function's own instruction or block is of the type numbered `pno`.)
    const first = plane[0]!;
    const type = typeof first === 'number' ? sc.visibleTypes[pno]! : first.type;
    if (valNo === 0 && hasImplicitNull(ctx, type)) valNo = 1;
    writePlane(ctx, plane, type, valNo);
  }
  endBlock(ctx, ctx.row.elidesEmptyBlocks);
}

/**
 * Whether a plane's slot 0 is its implicit (unwritten) null value: every plane with a null value
 * from LLVM 1.2 on; only derived-type planes in LLVM 1.0/1.1, which wrote primitive zeros.
 */
function hasImplicitNull(ctx: ModuleEncodeContext, t: Type): boolean {
  if (ctx.row.explicitPrimitiveZeros) return !isPrimitive(t) && hasNullValue(t);
  return hasNullValue(t);
}

function writeStrings(ctx: ModuleEncodeContext): void {
  const { out, sc } = ctx;
  if (sc.strings.length === 0) return;
  out.vbr32(sc.strings.length);
  writeTypeId(ctx, 0);
  for (const s of sc.strings) {
    if (s.kind !== 'array') continue;
    writeTypeId(ctx, typeSlotOf(ctx, s.type));
    for (const e of s.elements) out.uint8(e.kind === 'int' ? Number(BigInt.asUintN(8, e.value)) : 0);
  }
}

function writePlane(ctx: ModuleEncodeContext, plane: readonly PlaneEntry[], type: Type, from: number): void {
  // Arguments and globals (aliases too, in version 7) lead a plane; strings too where they have
  // their own plane (LLVM 1.2+; arrays of i8 in version 7).
  // The function's own instructions and blocks (local entries, numbers) end the constants.
  const stringsApart = ctx.row.hasStringsPlane;
  let valNo = from;
  while (valNo < plane.length) {
    const v = plane[valNo]!;
    if (
      typeof v !== 'number' &&
      (v.kind === 'argument' ||
        v.kind === 'global' ||
        v.kind === 'function' ||
        v.kind === 'alias' ||
        (stringsApart && (isString(v as Value) || isI8String(v as Value))))
    )
      valNo++;
    else break;
  }
  let end = valNo;
  while (end < plane.length) {
    const v = plane[end]!;
    if (typeof v === 'number') break;
    const k = v.kind;
    if (k === 'argument' || k === 'block' || k === 'instruction') break;
    end++;
  }
  if (end === valNo) return;
  ctx.out.vbr32(end - valNo);
  writeTypeId(ctx, typeSlotOf(ctx, type));
  for (let i = valNo; i < end; i++) {
    const v = plane[i] as Exclude<PlaneEntry, number>;
    if (v.kind === 'inlineasm') writeInlineAsm(ctx, v);
    else if (v.kind === 'pointerref') ctx.out.vbr32(0).vbr32(slotOf(ctx, v.target));
    else writeConstant(ctx, v);
  }
}

/** Inline asm in a constant pool (v5+, and version 7 alike): the 0xFFFFFFFF mark, the text, the constraints, side effects. */
export function writeInlineAsm(ctx: Pick<SlotWritingContext, 'out' | 'row'>, v: InlineAsm): void {
  if (!ctx.row.hasPackedAndAttributes) throw new EncodeError('inline asm', ctx.row.version);
  ctx.out.vbr32(0xffffffff);
  ctx.out.string(v.asm);
  ctx.out.string(v.constraints);
  ctx.out.vbr32(v.hasSideEffects ? 1 : 0);
}

/** One constant of a plane (never a null value: those are implicit). */
export function writeConstant(ctx: ModuleEncodeContext, v: Value): void {
  const out = ctx.out;
  if (v.kind === 'expr') {
    const ops = writtenOperands(ctx.row, v.opcode, v.operands);
    out.vbr32(ops.length + (ctx.row.constantExprCountPlusOne ? 1 : 0));
    out.vbr32(ctx.opcodes.of(v.opcode));
    if (ops.length === 2) checkSignless(ctx, v.opcode, ops[0]!.type);
    for (const op of ops) {
      out.vbr32(constantOperandSlot(ctx, op));
      writeTypeId(ctx, typeSlotOf(ctx, op.type));
    }
    // Version 7's comparisons carry their predicate (no 1.x opcode numbers them).
    if (v.opcode === 'icmp' || v.opcode === 'fcmp') out.vbr32(predicateNumber(ctx, v.opcode, v.predicate));
    return;
  }
  if (v.kind === 'undef') {
    if (ctx.row.noUndefValue) throw new EncodeError('undef', ctx.row.version);
    out.vbr32(1);
    return;
  }
  out.vbr32(0);
  switch (v.kind) {
    case 'bool':
      out.vbr32(v.value ? 1 : 0);
      return;
    case 'int':
      if (v.type.kind === 'integer') writeIntegerBits(ctx, v.type.bits, v.value);
      else if (ctx.row.signlessIntegers) throw new EncodeError(`a constant of type ${v.type.kind}`, ctx.row.version, 'version 7 has signless integers only');
      else if (isSigned(v.type)) out.svbr64(v.value);
      else out.vbr64(BigInt.asUintN(64, v.value));
      return;
    case 'fp':
      if (v.type.kind === 'float') out.uint32(Number(BigInt.asUintN(32, v.bits)));
      else {
        const bits = BigInt.asUintN(64, v.bits);
        out.uint32(Number(bits & 0xffffffffn));
        out.uint32(Number(bits >> 32n));
      }
      return;
    case 'packed':
      if (!ctx.row.hasPackedAndAttributes) throw new EncodeError('a packed constant', ctx.row.version);
      for (const e of v.elements) out.vbr32(constantOperandSlot(ctx, e));
      return;
    case 'array':
    case 'struct':
      for (const e of v.elements) out.vbr32(constantOperandSlot(ctx, e));
      return;
    default:
      throw new EncodeError(`a ${v.kind} constant in a constant pool`, ctx.row.version);
  }
}

/**
 * Version 7's integer constant: its bits, zero-extended, as a vbr up to 64 bits; wider, the count
 * of 64-bit words up to the highest set bit (`APInt::getActiveWords`) and each word as a vbr.
 */
function writeIntegerBits(ctx: ModuleEncodeContext, width: number, value: bigint): void {
  const out = ctx.out;
  const bits = BigInt.asUintN(width, value);
  if (width <= 64) {
    out.vbr64(bits);
    return;
  }
  let words = 0;
  for (let rest = bits; rest !== 0n; rest >>= 64n) words++;
  if (words === 0) words = 1;
  out.vbr32(words);
  for (let i = 0; i < words; i++) out.vbr64(BigInt.asUintN(64, bits >> BigInt(64 * i)));
}

/** The number LLVM gave a comparison predicate (version 7). */
export function predicateNumber(ctx: Pick<ModuleEncodeContext, 'row'>, opcode: 'icmp' | 'fcmp', p: string | undefined): number {
  const table: Readonly<Record<string, number>> = opcode === 'icmp' ? INT_PREDICATES : FLOAT_PREDICATES;
  const n = p === undefined ? undefined : table[p];
  if (n === undefined) throw new EncodeError(`an ${opcode} without a valid predicate (${String(p)})`, ctx.row.version);
  return n;
}
