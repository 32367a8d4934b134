/**
 * One constant of a constant pool as every version stores it (docs/format.md §9; version 7's
 * differences are the row's): a leading VBR `n` (0: a plain value of the plane's type; from
 * version 5 on 1: `undef`, 0xFFFFFFFF: inline asm; else an expression of `n` operands, `n - 1`
 * where the row counts them plus one), the expression's opcode and `[slot][type id]` operands
 * (then a predicate where the row's opcode is `icmp`/`fcmp`), or the plain value as the plane's
 * type lays it out. And the strings plane's records: `[type id]` and the array's bytes.
 *
 * The record is read here, once, for the graph builders (`constant-pool.ts`, `v7/constants.ts`)
 * and the analyzer's walks (`analyze/walker.ts`, `walker-v7.ts`). What a value means, and which
 * values a reader refused with which words, is the consumer's: it says how its plane's type lays
 * a value out (`ValueLayout`, with the bits whose range every reader checked), and hooks called
 * in the order its reader read see each field, so that LLVM's messages and stopping points (the
 * analyzer's) and the builder's own stay as they were. `ConstantTexts` names what a truncated
 * field was, in each reader's words.
 */
import type { FormatRow } from '../format/format-table.js';
import type { Type } from '../graph/type.js';
import type { BytecodeReader } from './reader.js';

/** The leading VBR that announces inline asm instead of an expression's operand count (v5+). */
export const INLINE_ASM_MARK = 0xffff_ffff;

/** How a plain value of a plane's type is stored. */
export const enum ValueLayout {
  /** A VBR of up to 32 bits: `bits` below 32 are range-checked (a bool is 1 bit). */
  Unsigned32,
  /** A 64-bit VBR: `bits` below 64 are range-checked. */
  Unsigned64,
  /** A 64-bit VBR holding the magnitude shifted left with the sign in bit 0; `bits` range-checked. */
  Signed64,
  /** Version 7's integers wider than 64 bits: a word count, then that many 64-bit VBRs, low word first. */
  WideInteger,
  /** 4 bytes, little-endian. */
  Float,
  /** 8 bytes, little-endian. */
  Double,
  /** `count` element slots (arrays, packed/vector types, structs). */
  Aggregate,
  /** The slot of a global value (the old "constant pointer reference"). */
  Pointer,
  /** No value of this type can be written in a pool: the consumer says so (`noValue`). */
  None,
}

/** What a truncated field was, in the consumer's words (its reader's messages). */
export interface ConstantTexts {
  readonly float: string;
  readonly asm: string;
  readonly constraints: string;
  readonly string: string;
}

/**
 * How a consumer reads the constants of one plane. The hooks return what the consumer makes of a
 * constant (`C`) or fail with its own message.
 */
export interface ConstantReading<C> {
  readonly texts: ConstantTexts;
  /**
   * How the current plane's plain values are stored, asked when one follows (LLVM's readers
   * looked the plane's type up only then); `bits` and `count` are read after it.
   */
  valueLayout(at: number): ValueLayout;
  /** Integers: the type's width, for the range check (`Unsigned32`, `Unsigned64`, `Signed64`). */
  readonly bits: number;
  /** Aggregates: how many element slots follow. */
  readonly count: number;
  undef(at: number): C;
  /** Inline asm announced, before its strings (LLVM 1.x's builder checked the type here). */
  inlineAsmBegins?(at: number): void;
  inlineAsm(asm: string, constraints: string, flags: number, at: number): C;
  /** An expression's operand count, before its opcode (version 7's readers bounded it here). */
  expressionCount?(count: number, at: number): void;
  /** The expression's opcode as stored, before its operands. */
  expressionOpcode?(raw: number, count: number, at: number): void;
  /** An operand's type id as the consumer's reader read it (a type id as the version stores one, or a plain VBR). */
  operandType(r: BytecodeReader): number;
  /** Operand `i`, read at `at`. */
  operand(i: number, slot: number, typeId: number, at: number): void;
  /** Every operand read, before a comparison's predicate is. */
  expressionOperands?(raw: number, count: number, at: number): void;
  /** The expression is read (`predicate`: an `icmp`/`fcmp`'s, read at `predicateAt`, else -1). */
  expression(raw: number, count: number, predicate: number, predicateAt: number, at: number): C;
  /** An integer out of the range of `bits`: the consumer's message. */
  outOfRange(value: number | bigint, at: number): never;
  /** `Unsigned32` values. */
  smallInteger(value: number, at: number): C;
  /** `Unsigned64` and `Signed64` values (signed: decoded), and `WideInteger`'s words (`wideInteger`). */
  integer(value: bigint, at: number): C;
  /** A wide integer's word count, checked against the consumer's limit: returns it. */
  wordCount?(n: number, at: number): number;
  wideInteger?(words: readonly bigint[], at: number): C;
  float(bits: number, at: number): C;
  double(bits: bigint, at: number): C;
  /** An aggregate's element count (the layout's), before its elements. */
  aggregate(count: number, at: number): void;
  /** Element `i` is about to be read, at `at` (version 7's builder found its type's slot first). */
  elementBegins?(i: number, at: number): void;
  element(i: number, slot: number, at: number): void;
  aggregateEnd(at: number): C;
  pointer(slot: number, at: number): C;
  noValue(at: number): never;
}

const INT64_MIN = -(1n << 63n);

/** Reads one constant of the current plane (the reader at its record), as `row`'s version stores it. */
export function readConstantRecord<C>(r: BytecodeReader, row: FormatRow, c: ConstantReading<C>): C {
  const at = r.pos;
  const n = r.vbr32();
  if (n !== 0) {
    if (!row.noUndefValue) {
      if (n === 1) return c.undef(at);
      if (n === INLINE_ASM_MARK) {
        c.inlineAsmBegins?.(at);
        const asm = r.string(c.texts.asm);
        const constraints = r.string(c.texts.constraints);
        return c.inlineAsm(asm, constraints, r.vbr32(), at);
      }
    }
    return readExpression(r, row, c, row.constantExprCountPlusOne ? n - 1 : n, at);
  }
  switch (c.valueLayout(at)) {
    case ValueLayout.Unsigned32: {
      const v = r.vbr32();
      if (c.bits < 32 && v >= 2 ** c.bits) c.outOfRange(v, at);
      return c.smallInteger(v, at);
    }
    case ValueLayout.Unsigned64: {
      const v = r.vbr64();
      if (c.bits < 64 && v >> BigInt(c.bits) !== 0n) c.outOfRange(v, at);
      return c.integer(v, at);
    }
    case ValueLayout.Signed64: {
      // Read as stored (the analyzer counts a 64-bit VBR), then the sign; "negative zero" is INT64_MIN.
      const raw = r.vbr64();
      const magnitude = raw >> 1n;
      const v = (raw & 1n) === 0n ? magnitude : magnitude === 0n ? INT64_MIN : -magnitude;
      if (c.bits < 64) {
        const limit = 1n << BigInt(c.bits - 1);
        if (v >= limit || v < -limit) c.outOfRange(v, at);
      }
      return c.integer(v, at);
    }
    case ValueLayout.WideInteger: {
      const n = r.vbr32();
      const words = c.wordCount ? c.wordCount(n, at) : n;
      const list = new Array<bigint>(words);
      for (let i = 0; i < words; i++) list[i] = r.vbr64();
      return c.wideInteger ? c.wideInteger(list, at) : c.noValue(at);
    }
    case ValueLayout.Float: {
      const b = r.bytesView(4, c.texts.float);
      return c.float((b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0, at);
    }
    case ValueLayout.Double:
      return c.double(r.float64Bits(), at);
    case ValueLayout.Aggregate: {
      const count = c.count;
      c.aggregate(count, at);
      for (let i = 0; i < count; i++) {
        const elementAt = r.pos;
        c.elementBegins?.(i, elementAt);
        c.element(i, r.vbr32(), elementAt);
      }
      return c.aggregateEnd(at);
    }
    case ValueLayout.Pointer:
      return c.pointer(r.vbr32(), at);
    default:
      return c.noValue(at);
  }
}

function readExpression<C>(r: BytecodeReader, row: FormatRow, c: ConstantReading<C>, count: number, at: number): C {
  c.expressionCount?.(count, at);
  const raw = r.vbr32();
  c.expressionOpcode?.(raw, count, at);
  for (let i = 0; i < count; i++) {
    const operandAt = r.pos;
    const slot = r.vbr32();
    c.operand(i, slot, c.operandType(r), operandAt);
  }
  c.expressionOperands?.(raw, count, at);
  const name = row.opcodes[raw];
  const predicateAt = r.pos;
  return c.expression(raw, count, name === 'icmp' || name === 'fcmp' ? r.vbr32() : -1, predicateAt, at);
}

/** How a consumer reads the strings plane's records. */
export interface StringReading {
  readonly texts: ConstantTexts;
  /** The string's type id as the consumer's reader read it. */
  typeId(r: BytecodeReader): number;
  /** The string's length (its array type's), checked as the consumer's reader did. */
  length(typeId: number, at: number): number;
  string(bytes: Uint8Array, typeId: number, at: number): void;
}

/** `count` string constants of the strings plane (`[type id]`, then the array's bytes). */
export function readStringRecords(r: BytecodeReader, count: number, s: StringReading): void {
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const typeId = s.typeId(r);
    s.string(r.bytesView(s.length(typeId, at), s.texts.string), typeId, at);
  }
}

/** How a plain value of a graph type is stored (the builders' planes, 1.x and version 7). */
export interface GraphLayout {
  readonly layout: ValueLayout;
  readonly bits: number;
  readonly count: number;
}

const UNSIGNED_1X: Partial<Record<Type['kind'], number>> = { ubyte: 8, ushort: 16, uint: 32, ulong: 64 };
const SIGNED_1X: Partial<Record<Type['kind'], number>> = { sbyte: 8, short: 16, int: 32, long: 64 };

/**
 * The layout of a graph type's plain values: 1.x's bool a 1-bit VBR, its unsigned integers 64-bit
 * VBRs (the builder read them so, to name the value a 32-bit VBR could not hold), its signed ones
 * signed VBRs; version 7's integers by width; floats, doubles, aggregates and pointers alike.
 */
export function graphTypeLayout(t: Type): GraphLayout {
  switch (t.kind) {
    case 'bool':
      return { layout: ValueLayout.Unsigned32, bits: 1, count: 0 };
    case 'integer':
      return { layout: t.bits <= 32 ? ValueLayout.Unsigned32 : t.bits <= 64 ? ValueLayout.Unsigned64 : ValueLayout.WideInteger, bits: t.bits, count: 0 };
    case 'float':
      return { layout: ValueLayout.Float, bits: 0, count: 0 };
    case 'double':
      return { layout: ValueLayout.Double, bits: 0, count: 0 };
    case 'array':
    case 'packed':
      return { layout: ValueLayout.Aggregate, bits: 0, count: t.length };
    case 'struct':
      return { layout: ValueLayout.Aggregate, bits: 0, count: t.elements.length };
    case 'pointer':
      return { layout: ValueLayout.Pointer, bits: 0, count: 0 };
    default: {
      const unsigned = UNSIGNED_1X[t.kind];
      if (unsigned !== undefined) return { layout: ValueLayout.Unsigned64, bits: unsigned, count: 0 };
      const signed = SIGNED_1X[t.kind];
      if (signed !== undefined) return { layout: ValueLayout.Signed64, bits: signed, count: 0 };
      return { layout: ValueLayout.None, bits: 0, count: 0 };
    }
  }
}
