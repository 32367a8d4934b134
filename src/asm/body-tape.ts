/**
 * A function body as the parser read it, written as numbers on a tape instead of one object per
 * instruction and operand: a 4 MB listing has 66,000 instructions and a quarter of a million
 * operands, and as objects they all lived until their function was built, so V8's young-generation
 * collector spent much of the assembly copying them (and the builder's reads of a dozen object
 * shapes were megamorphic). The builder (function-body.ts) reads the tape in two passes.
 *
 * An instruction's record: `op` (an `Op`), the index of its name in `strings` (or -1), its offset
 * in the text, the parser's type-node count there (`mark`), then its fields in the order the
 * parser met them (see `Parser.instruction`). Type nodes are numbers. A value reference is three
 * numbers (`REF_SIZE`): its kind (`Ref`), a payload and its offset; a typed value is a type node and
 * a reference. Whatever does not fit a number (a name, a literal's spelling, an aggregate constant,
 * a constant expression, inline asm) goes to `strings` or `refs` and the tape holds its index.
 */
import type { ValueRef } from './ast.js';

/** The instruction kinds of a record. */
export const enum Op {
  Binary,
  Not,
  Shift,
  Cast,
  Select,
  Vector,
  VaArg,
  Phi,
  Call,
  Invoke,
  Alloc,
  Free,
  Load,
  Store,
  GetElementPtr,
  Ret,
  Br,
  CondBr,
  Switch,
  Unwind,
  Unreachable,
}

/** What an `Op.VaArg` record was written as. */
export const enum VaArgKind {
  /** `va_arg` (LLVM 1.6 on). */
  VaArg,
  /** `vaarg` (before 1.6). */
  ObsoleteVaArg,
  /** `vanext` (before 1.6). */
  VaNext,
}

/** The kinds of a value reference (three numbers: kind, payload, text offset). */
export const enum Ref {
  /** `%name`: payload is the index of the name in `strings`. */
  Name,
  /** `%N`: payload is N (at most 2^31 - 1; larger numbers go as `Other`). */
  Num,
  /** An integer literal: payload is its spelling's index in `strings`. */
  Int,
  /** Anything else (`refs[payload]`). */
  Other,
}

export const REF_SIZE = 3;

/** Offsets in a record (`R_*`), after which the fields of its kind follow. */
export const R_OP = 0;
export const R_NAME = 1;
export const R_AT = 2;
export const R_MARK = 3;
export const R_FIELDS = 4;

/** The opcodes of `Op.Binary` records, by their number on the tape. */
export const BINARY_OPCODES = [
  'add',
  'sub',
  'mul',
  'div',
  'udiv',
  'sdiv',
  'fdiv',
  'rem',
  'urem',
  'srem',
  'frem',
  'and',
  'or',
  'xor',
  'setne',
  'seteq',
  'setlt',
  'setgt',
  'setle',
  'setge',
] as const;
/** The opcodes of `Op.Vector` records. */
export const VECTOR_OPCODES = ['extractelement', 'insertelement', 'shufflevector'] as const;

export interface BodyTape {
  /** The records, one after the other: the whole module's tape (set once the parser has finished it). */
  code: Int32Array;
  /** Where each instruction's record starts in `code`. */
  readonly instructions: Int32Array;
  /** The number of each block's first instruction. */
  readonly blockFirst: Int32Array;
  /** Each block's name (`strings` index, -1 for none) and offset in the text. */
  readonly blockNames: Int32Array;
  readonly blockAts: Int32Array;
  readonly strings: readonly string[];
  readonly refs: readonly ValueRef[];
}

/** A growing list of 32-bit integers, copied out with one `slice`. */
export class IntBuffer {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new Int32Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  /** Three numbers (a value reference) with one capacity check. */
  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.data.length) this.grow(this.length + 3);
    const d = this.data;
    const n = this.length;
    d[n] = a;
    d[n + 1] = b;
    d[n + 2] = c;
    this.length = n + 3;
  }

  /** Four numbers (a record's head) with one capacity check. */
  push4(a: number, b: number, c: number, e: number): void {
    if (this.length + 4 > this.data.length) this.grow(this.length + 4);
    const d = this.data;
    const n = this.length;
    d[n] = a;
    d[n + 1] = b;
    d[n + 2] = c;
    d[n + 3] = e;
    this.length = n + 4;
  }

  /** Room for `needed` numbers (at least twice the room there was). */
  private grow(needed: number): void {
    const bigger = new Int32Array(Math.max(needed, this.data.length * 2, 16));
    bigger.set(this.data);
    this.data = bigger;
  }

  /** Overwrites the number at `index` (a count written after its items). */
  set(index: number, v: number): void {
    this.data[index] = v;
  }

  /** The numbers so far (a view: valid until the next push). */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }

  /** The numbers so far, as an array of their own. */
  copy(): Int32Array {
    return this.data.slice(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}

/** The reference at `p` as the object the constant builder and error messages take. */
export function refObject(tape: BodyTape, p: number): ValueRef {
  const code = tape.code;
  const kind = code[p]! as Ref;
  const payload = code[p + 1]!;
  const at = code[p + 2]!;
  switch (kind) {
    case Ref.Name:
      return { k: 'name', name: tape.strings[payload]!, at };
    case Ref.Num:
      return { k: 'num', n: payload, at };
    case Ref.Int:
      return { k: 'int', text: tape.strings[payload]!, at };
    case Ref.Other:
      return tape.refs[payload]!;
  }
}
