/**
 * Version 7's module constant pool (r36867 `outputConstants`): the strings first (a count, the
 * void type id, then each string's type id and raw bytes), then every plane's constants after
 * its null value, globals and strings. There are no function constant pools in version 7.
 *
 * Why its own: the mirror of `decode/v7/constants.ts` (integers of any width, predicates, twelve
 * casts, no function pools); its operands are numbered by the shared `writtenConstantOperands`.
 */
import { FLOAT_PREDICATES, INT_PREDICATES, type Value } from '../../graph/value.js';
import { writeInlineAsm } from '../constant-pool.js';
import { hasNullValue } from '../canonical.js';
import { EncodeError } from '../encode-error.js';
import type { V7EncodeContext } from './context.js';
import { slotOf, typeSlotOf, writeTypeId } from '../context.js';
import { isGlobalValue, isV7String } from './slot-calculator.js';

/** The version-7 block id of the constant pool is the row's. */
export function writeV7ConstantPool(ctx: V7EncodeContext): void {
  const { out, sc, row } = ctx;
  out.beginBlock(row.blockIds.constantPool!, false);
  writeStrings(ctx);
  for (let p = 0; p < sc.numPlanes; p++) {
    const plane = sc.getPlane(p);
    if (plane.length === 0) continue;
    writePlane(ctx, plane, hasNullValue(plane[0]!.type) ? 1 : 0);
  }
  out.endBlock({ elideIfEmpty: true });
}

function writeStrings(ctx: V7EncodeContext): void {
  const strings = ctx.sc.strings;
  if (strings.length === 0) return;
  const out = ctx.out;
  out.vbr32(strings.length);
  writeTypeId(ctx, 0);
  for (const s of strings) {
    writeTypeId(ctx, typeSlotOf(ctx, s.type));
    if (s.kind !== 'array') continue; // isV7String said so
    const bytes = new Uint8Array(s.elements.length);
    s.elements.forEach((e, i) => {
      bytes[i] = e.kind === 'int' ? Number(BigInt.asUintN(8, e.value)) : 0;
    });
    out.bytes(bytes);
  }
}

function writePlane(ctx: V7EncodeContext, plane: readonly Value[], start: number): void {
  let valNo = start;
  while (valNo < plane.length && (plane[valNo]!.kind === 'argument' || isGlobalValue(plane[valNo]!) || isV7String(plane[valNo]!))) valNo++;
  let end = valNo;
  while (end < plane.length && isConstantOrAsm(plane[end]!)) end++;
  if (end === valNo) return;
  ctx.out.vbr32(end - valNo);
  writeTypeId(ctx, typeSlotOf(ctx, plane[0]!.type));
  for (let i = valNo; i < end; i++) {
    const v = plane[i]!;
    if (v.kind === 'inlineasm') writeInlineAsm(ctx, v);
    else writeV7Constant(ctx, v);
  }
}

function isConstantOrAsm(v: Value): boolean {
  return v.kind !== 'argument' && v.kind !== 'block' && v.kind !== 'instruction';
}

/** r36867 `outputConstant`: one constant of a plane (never a null value: those are implicit). */
export function writeV7Constant(ctx: V7EncodeContext, v: Value): void {
  const out = ctx.out;
  if (v.kind === 'expr') {
    out.vbr32(v.operands.length + 1);
    out.vbr32(ctx.opcodes.of(v.opcode));
    for (const op of v.operands) {
      out.vbr32(slotOf(ctx, op));
      writeTypeId(ctx, typeSlotOf(ctx, op.type));
    }
    if (v.opcode === 'icmp' || v.opcode === 'fcmp') out.vbr32(predicateNumber(ctx, v.opcode, v.predicate));
    return;
  }
  if (v.kind === 'undef') {
    out.vbr32(1);
    return;
  }
  out.vbr32(0);
  switch (v.kind) {
    case 'bool':
      out.vbr32(v.value ? 1 : 0);
      return;
    case 'int': {
      if (v.type.kind !== 'integer') throw new EncodeError(`a constant of type ${v.type.kind}`, ctx.row.version, 'version 7 has signless integers only');
      writeIntegerBits(ctx, v.type.bits, v.value);
      return;
    }
    case 'fp': {
      const bits = BigInt.asUintN(64, v.bits);
      if (v.type.kind === 'float') out.uint32(Number(bits & 0xffffffffn));
      else out.uint32(Number(bits & 0xffffffffn)).uint32(Number(bits >> 32n));
      return;
    }
    case 'array':
    case 'struct':
    case 'packed':
      for (const e of v.elements) out.vbr32(slotOf(ctx, e));
      return;
    default:
      throw new EncodeError(`a ${v.kind} constant in a constant pool`, ctx.row.version);
  }
}

/**
 * An integer constant's bits, zero-extended: a vbr up to 64 bits; wider, the count of 64-bit
 * words up to the highest set bit (`APInt::getActiveWords`) and each word as a vbr.
 */
function writeIntegerBits(ctx: V7EncodeContext, width: number, value: bigint): void {
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

/** The number LLVM gave a comparison predicate. */
export function predicateNumber(ctx: V7EncodeContext, opcode: 'icmp' | 'fcmp', p: string | undefined): number {
  const table: Readonly<Record<string, number>> = opcode === 'icmp' ? INT_PREDICATES : FLOAT_PREDICATES;
  const n = p === undefined ? undefined : table[p];
  if (n === undefined) throw new EncodeError(`an ${opcode} without a valid predicate (${String(p)})`, ctx.row.version);
  return n;
}
