/**
 * The direct lowering, for `writeModern`: a function body of the common instructions lowered
 * straight into bitcode records (bitcode/direct-body.ts) rather than printed as text and read
 * back, which was most of the time an upgrade of a large module to bitcode took.
 *
 * It reads the body where the reader left it, in compact form (graph/compact-body.ts: no object
 * per instruction), and makes the decisions function.ts makes, with the helpers function.ts uses
 * for them (`planCast`, `planIndex`, `comparison`, `binaryOpcode`, `claimLocalNames`, …). Each
 * type and constant is spelled as function.ts spells it and read by the reader that reads the rest
 * of the module (`DirectBodyReader`): the result is the body its text would have read as, byte
 * for byte (the tests compare both ways over the corpus). A body with anything else (invokes and
 * `unwind`, intrinsics, inline asm, varargs, attributes, `alloca`, shifts, vectors, a constant that
 * needs an instruction, a name that must be quoted), a body built or changed in code (no compact
 * form), and typed pointers are printed as before: the lowering gives up on the first thing it does
 * not take, before the function's text is decided.
 */
import {
  compactBodyOf,
  Op,
  OPCODES,
  operandStart,
  TAG_BLOCK,
  TAG_INSTRUCTION,
  TAG_VALUE,
  type CompactBody,
  type InstructionExtras,
} from '../graph/compact-body.js';
import { opcodeClass } from '../graph/opcodes.js';
import type { Type } from '../graph/type.js';
import type { Constant, Function, Opcode, Value } from '../graph/value.js';
import { BINOP, CAST } from './bitcode/codes.js';
import { callFlags, encodeAlign, predicate } from './bitcode/encode.js';
import { DirectBody, FORWARD, type DirectBodyReader } from './bitcode/direct-body.js';
import { BINOP_KIND, BR, CALL, CAST_KIND, CMP, GEP, LOAD, PHI, RET, STORE, UNREACHABLE } from './bitcode/write-function.js';
import type { IrConstant, IrType } from './bitcode/ir.js';
import { planCast } from './casts.js';
import { zeroOf, type Sink } from './constants.js';
import { claimLocalNames, constantMallocSize, keptAlignment, type FunctionBody } from './function.js';
import { nextIndexed, planIndex, structField } from './gep.js';
import type { ModuleContext } from './module.js';
import { NameScope } from './names.js';
import { binaryOpcode, comparison } from './ops.js';
import { TextLines } from './text.js';
import { valueAttributes } from './v7.js';

/** Thrown where the lowering meets what it does not take: the body is printed instead. */
class NotDirect extends Error {}

/** A constant that would need an instruction before its use is not taken (a sink that refuses). */
const REFUSING_SINK: Sink = {
  emit(): void {
    throw new NotDirect();
  },
  temp(): string {
    throw new NotDirect();
  },
};

const NO_EXTRAS: InstructionExtras = {};

/** Each opcode's class (graph/opcodes.ts), by its number in the compact form. */
const CLASS_OF = OPCODES.map((op) => opcodeClass(op));

/**
 * `fn`'s body lowered straight to records and queued with `reader` (its text is then `{ ~ }`),
 * or undefined, having queued nothing, when the lowering does not take it.
 */
export function lowerDirectly(ctx: ModuleContext, fn: Function, reader: DirectBodyReader): FunctionBody | undefined {
  if (ctx.typed) return undefined;
  const compact = compactBodyOf(fn);
  const phis = compact === undefined ? undefined : phisOfTakenBody(ctx, compact);
  if (compact === undefined || phis === undefined) return undefined;
  try {
    const lowering = new DirectLowering(ctx, fn, compact, reader, phis);
    const body = lowering.lower();
    reader.addDirectBody(body);
    const lines = new TextLines();
    lines.push('  ~');
    return { argNames: lowering.argNames, lines, needsGc: false, hasLandingPads: false };
  } catch {
    // Whatever it was (something not taken, or an error the printer reports in its own words
    // and order), the printer prints the body.
    return undefined;
  }
}

/**
 * The body's phis (their instruction numbers) when every opcode is one the lowering takes, else
 * undefined (a cheap first look; the lowering looks closer).
 */
function phisOfTakenBody(ctx: ModuleContext, body: CompactBody): number[] | undefined {
  const phis: number[] = [];
  const { data, values, extraAt, extras } = body;
  const n = body.instructionCount;
  const operandBase = 2 * n + body.blockCount;
  let e = 0;
  for (let i = 0; i < n; i++) {
    const op = data[i]! & 63;
    switch (op) {
      case Op.Ret:
      case Op.Br:
      case Op.Unreachable:
      case Op.Load:
      case Op.Store:
      case Op.GetElementPtr:
      case Op.Free:
      case Op.Malloc:
        continue;
      case Op.Phi:
        phis.push(i);
        continue;
      case Op.Call: {
        const code = data[operandBase + operandStart(data, n, i)]!;
        const callee = (code & 3) === TAG_VALUE ? values[code >>> 2] : undefined;
        if (callee?.kind !== 'function' || ctx.plans.has(callee) || callee.functionType.isVarArg) return undefined;
        while (e < extraAt.length && extraAt[e]! < i) e++;
        if (e < extraAt.length && extraAt[e] === i && (extras[e]!.callingConv ?? 0) !== 0) return undefined;
        continue;
      }
    }
    const cls = CLASS_OF[op];
    if (cls !== 'binary' && cls !== 'setcc' && cls !== 'compare' && cls !== 'cast') return undefined;
  }
  return phis;
}

class DirectLowering {
  private readonly data: Int32Array;
  private readonly n: number;
  private readonly operandBase: number;
  private readonly resultTypes: readonly Type[];
  private readonly values: readonly Value[];
  private readonly scope = new NameScope();
  /** Each instruction's name in the value symbol table (undefined: numbered). */
  private readonly instructionNames: (string | undefined)[];
  /** Each argument's index (the first locals). */
  private readonly argIndex = new Map<Value, number>();
  /** Each lowered instruction's index among the locals (-1 until lowered). */
  private readonly localOf: Int32Array;
  /** Operands recorded before their instruction was lowered: position, instruction number. */
  private readonly forward: number[] = [];
  private readonly irTypes = new Map<Type, IrType>();
  private lastType: Type | undefined;
  private lastIrType: IrType | undefined;
  /** Constant operands as read, by the 1.x constant (and checked against the type asked for). */
  private readonly irConstants = new Map<Value, IrConstant>();
  private readonly body: DirectBody;
  readonly argNames: string[];
  private readonly void: IrType;
  private readonly i1: IrType;
  private readonly i32: IrType;
  private readonly i64: IrType;
  private readonly ptr: IrType;
  /** Each phi's constant entries (by instruction number), read when the printer reads them: before any instruction. */
  private readonly phiConstants = new Map<number, (IrConstant | undefined)[]>();
  private extrasIndex = 0;
  private lastBinary = -1;
  private lastBinaryType: Type | undefined;
  private lastBinaryCode = 0;
  private lastSetcc = -1;
  private lastSetccType: Type | undefined;
  private lastSetccPredicate = 0;
  /** The operand codes of the instruction being lowered (`operandsOf`). */
  private scratch = new Int32Array(16);
  /**
   * A getelementptr's indices as the printer spells them, kept until the zero extensions before
   * it are recorded: the operand's code (or -1 for a constant or a local of the lowering's own),
   * its type, its constant, its local.
   */
  private readonly indexCodes: number[] = [];
  private readonly indexTypes: IrType[] = [];
  private readonly indexConstants: (IrConstant | undefined)[] = [];
  private readonly indexLocals: number[] = [];

  constructor(
    private readonly ctx: ModuleContext,
    fn: Function,
    private readonly compact: CompactBody,
    private readonly reader: DirectBodyReader,
    /** The body's phis, by instruction number. */
    private readonly phis: readonly number[],
  ) {
    const n = compact.instructionCount;
    this.data = compact.data;
    this.n = n;
    this.operandBase = 2 * n + compact.blockCount;
    this.resultTypes = compact.types;
    this.values = compact.values;
    this.localOf = new Int32Array(n).fill(-1);
    fn.args.forEach((a, i) => this.argIndex.set(a, i));

    // Names, as the printer gives them (function.ts, claimLocalNames): arguments, then each block
    // and its value-producing instructions. Only the named take part (the others are numbered,
    // and their numbers are not written), so only they are listed: most of a large body is not.
    const nb = compact.blockCount;
    const instructionName: (string | undefined)[] = new Array(n);
    const blockName: (string | undefined)[] = new Array(nb);
    const namedInstructions: number[] = [];
    const { nameCodes, names } = compact;
    for (let k = 0; k < nameCodes.length; k++) {
      const code = nameCodes[k]!;
      if ((code & 3) === TAG_INSTRUCTION) {
        if (instructionName[code >>> 2] === undefined) namedInstructions.push(code >>> 2);
        instructionName[code >>> 2] = names[k];
      } else if ((code & 3) === TAG_BLOCK) blockName[code >>> 2] = names[k];
    }
    namedInstructions.sort((x, y) => x - y);
    const given: string[] = [];
    for (const a of fn.args) if (a.name) given.push(a.name);
    const owner: number[] = []; // what each of `given` names: -1 - a block, or an instruction
    for (let b = 0, k = 0; b < nb; b++) {
      const block = blockName[b];
      if (block) {
        given.push(block);
        owner.push(-1 - b);
      }
      for (const end = this.data[2 * n + b]!; k < namedInstructions.length && namedInstructions[k]! < end; k++) {
        const i = namedInstructions[k]!;
        const name = instructionName[i];
        if (!name || this.isVoid(i)) continue;
        given.push(name);
        owner.push(i);
      }
    }
    const claimed = claimLocalNames(given, this.scope);
    let unnamedArgs = 0;
    let at = 0;
    this.argNames = fn.args.map((a) => (a.name ? spelled(claimed[at++]!) : `%${unnamedArgs++}`));
    this.instructionNames = new Array(n);
    const blockNames: (string | undefined)[] = new Array(nb);
    for (let k = 0; at < claimed.length; k++, at++) {
      const who = owner[k]!;
      if (who < 0) blockNames[-1 - who] = rawName(claimed[at]!);
      else this.instructionNames[who] = rawName(claimed[at]!);
    }
    const operands = this.data.length - this.operandBase;
    // Room for the zero extensions of GEP indices the printer adds, and the calls' callees.
    this.body = new DirectBody(fn.args.length, blockNames, { instructions: n + (n >> 2), operands: operands + (operands >> 2), labels: operands >> 1 });
    this.void = reader.typeOf('void');
    this.i1 = reader.typeOf('i1');
    this.i32 = reader.typeOf('i32');
    this.i64 = reader.typeOf('i64');
    this.ptr = reader.typeOf('ptr');
  }

  lower(): DirectBody {
    this.readPhiConstants();
    for (let i = 0; i < this.n; i++) this.instruction(i);
    const body = this.body;
    body.finish();
    const forward = this.forward;
    for (let k = 0; k < forward.length; k += 2) {
      const local = this.localOf[forward[k + 1]!]!;
      if (local < 0) throw new NotDirect(); // used, never defined: the printer says so
      body.resolve(forward[k]!, local);
    }
    return body;
  }

  // ---- the compact body -------------------------------------------------------------------

  private isVoid(i: number): boolean {
    return this.resultTypes[this.data[i]! >>> 6]!.kind === 'void';
  }

  /**
   * Copies instruction `i`'s operand codes into `this.scratch` (grown as needed): their count.
   * (A view of the body's array, `subarray`, made an object per instruction, and cost more.)
   */
  private operandsOf(i: number): number {
    const data = this.data;
    const base = this.operandBase + operandStart(data, this.n, i);
    const count = this.operandBase + data[this.n + i]! - base;
    if (count > this.scratch.length) this.scratch = new Int32Array(count * 2);
    const scratch = this.scratch;
    for (let k = 0; k < count; k++) scratch[k] = data[base + k]!;
    return count;
  }

  private extrasOf(i: number): InstructionExtras {
    const { extraAt, extras } = this.compact;
    while (this.extrasIndex < extraAt.length && extraAt[this.extrasIndex]! < i) this.extrasIndex++;
    return this.extrasIndex < extraAt.length && extraAt[this.extrasIndex] === i ? extras[this.extrasIndex]! : NO_EXTRAS;
  }

  /** The 1.x type of the value `code` names. */
  private typeOf(code: number): Type {
    const index = code >>> 2;
    switch (code & 3) {
      case TAG_INSTRUCTION:
        return this.resultTypes[this.data[index]! >>> 6]!;
      case TAG_VALUE:
        return this.values[index]!.type;
    }
    throw new NotDirect(); // a block, or an operand left empty
  }

  /** The constant `code` names, or undefined for a local. */
  private constantAt(code: number): Value | undefined {
    if ((code & 3) !== TAG_VALUE) return undefined;
    const v = this.values[code >>> 2]!;
    return v.kind === 'argument' ? undefined : v;
  }

  // ---- types, constants, operands ---------------------------------------------------------

  private irType(t: Type): IrType {
    // Neighbouring operands mostly share a type: the last one answers without a look-up.
    if (t === this.lastType) return this.lastIrType!;
    let ir = this.irTypes.get(t);
    if (ir === undefined) this.irTypes.set(t, (ir = this.reader.typeOf(this.ctx.types.str(t))));
    this.lastType = t;
    this.lastIrType = ir;
    return ir;
  }

  /** A constant as the reader reads its text as a value of `type`. */
  private constant(v: Value, type: IrType): IrConstant {
    const known = this.irConstants.get(v);
    if (known !== undefined && known.type === type) return known;
    const c = this.reader.constantOf(type, this.ctx.consts.value(v as Constant, REFUSING_SINK));
    this.irConstants.set(v, c);
    return c;
  }

  /** The operand `code`'s constant read now (in the printer's order), undefined for a local. */
  private early(code: number, type: IrType = this.irType(this.typeOf(code))): IrConstant | undefined {
    const v = this.constantAt(code);
    return v === undefined ? undefined : this.constant(v, type);
  }

  /** Records operand `code` as a value of `type` (its own type's by default); `c`, its constant when read before. */
  private operand(code: number, type: IrType = this.irType(this.typeOf(code)), c?: IrConstant): void {
    const index = code >>> 2;
    switch (code & 3) {
      case TAG_INSTRUCTION: {
        const local = this.localOf[index]!;
        if (local >= 0) this.body.local(type, local);
        else this.forward.push(this.body.local(type, FORWARD), index);
        return;
      }
      case TAG_VALUE: {
        const v = this.values[index]!;
        if (v.kind === 'argument') this.body.local(type, this.argIndex.get(v) ?? notDirect());
        else this.body.constant(type, c ?? this.constant(v, type));
        return;
      }
    }
    throw new NotDirect();
  }

  private label(code: number): void {
    if ((code & 3) !== TAG_BLOCK) throw new NotDirect();
    this.body.label(code >>> 2);
  }

  /** Numbers the result of instruction `i`, just recorded. */
  private result(i: number): void {
    this.localOf[i] = this.body.define(this.instructionNames[i]);
  }

  /** Numbers a helper instruction's fresh result (`%up.N`): its index. */
  private temp(): number {
    return this.body.define(this.scope.fresh('up'));
  }

  /** The printer plans every phi's entries before printing: their constants are read then. */
  private readPhiConstants(): void {
    const data = this.data;
    for (const i of this.phis) {
      const count = this.operandsOf(i);
      const ops = this.scratch;
      // A phi with no entry left is printed as something else (function.ts, `phi`).
      if (count === 0) throw new NotDirect();
      const type = this.irType(this.resultTypes[data[i]! >>> 6]!);
      const constants: (IrConstant | undefined)[] = [];
      for (let k = 0; k + 1 < count; k += 2) {
        if ((ops[k + 1]! & 3) !== TAG_BLOCK) throw new NotDirect();
        constants.push(this.early(ops[k]!, type));
      }
      this.phiConstants.set(i, constants);
    }
  }

  // ---- instructions -----------------------------------------------------------------------

  private instruction(i: number): void {
    const body = this.body;
    const word = this.data[i]!;
    const op = word & 63;
    const resultType = this.resultTypes[word >>> 6]!;
    const count = this.operandsOf(i);
    const ops = this.scratch;
    switch (op) {
      case Op.Ret: {
        const c = count ? this.early(ops[0]!) : undefined;
        body.add(RET, this.void, undefined, 0);
        if (count) this.operand(ops[0]!, undefined, c);
        return;
      }
      case Op.Br:
        if (count === 1) {
          body.add(BR, this.void, undefined, 0);
          this.label(ops[0]!);
        } else {
          const c = this.early(ops[0]!);
          body.add(BR, this.void, undefined, 0);
          this.operand(ops[0]!, undefined, c);
          this.label(ops[1]!);
          this.label(ops[2]!);
        }
        return;
      case Op.Unreachable:
        body.add(UNREACHABLE, this.void, undefined, 0);
        return;
      case Op.Load: {
        const type = this.irType(resultType);
        const c = this.early(ops[0]!);
        body.add(LOAD, type, type, this.memoryExtra(i));
        this.operand(ops[0]!, undefined, c);
        this.result(i);
        return;
      }
      case Op.Store: {
        // Printed value first, pointer second; the reader's operands are pointer, value.
        const value = ops[0]!;
        const pointer = ops[1]!;
        const v = this.early(value);
        const p = this.early(pointer);
        body.add(STORE, this.void, undefined, this.memoryExtra(i));
        this.operand(pointer, undefined, p);
        this.operand(value, undefined, v);
        return;
      }
      case Op.GetElementPtr:
        this.gep(i, ops, count, resultType);
        return;
      case Op.Phi: {
        const type = this.irType(resultType);
        const constants = this.phiConstants.get(i)!;
        body.add(PHI, type, undefined, 0);
        for (let k = 0; k + 1 < count; k += 2) {
          this.operand(ops[k]!, type, constants[k >> 1]);
          this.label(ops[k + 1]!);
        }
        this.result(i);
        return;
      }
      case Op.Call:
        this.call(i, ops, count, resultType);
        return;
      case Op.Malloc:
        this.malloc(i, ops);
        return;
      case Op.Free: {
        const callee = this.reader.constantOf(this.ptr, this.ctx.helper('free'));
        const pointer = ops[0]!;
        const argType = this.typeOf(pointer);
        const irArgType = this.irType(argType);
        const c = this.early(pointer, irArgType);
        body.add(CALL, this.void, this.reader.typeOf(`void (${this.ctx.types.str(argType)})`), callFlags(false, 0));
        body.constant(this.ptr, callee);
        this.operand(pointer, irArgType, c);
        return;
      }
    }
    const opcode = OPCODES[op]!;
    switch (CLASS_OF[op]) {
      case 'binary': {
        const operandType = this.typeOf(ops[0]!);
        const code = this.binaryCode(op, opcode, operandType);
        const type = this.irType(operandType);
        const a = this.early(ops[0]!, type);
        const b = this.early(ops[1]!, type);
        body.add(BINOP_KIND + code, type, undefined, 0);
        this.operand(ops[0]!, type, a);
        this.operand(ops[1]!, type, b);
        this.result(i);
        return;
      }
      case 'setcc': {
        const operandType = this.typeOf(ops[0]!);
        if (operandType.kind === 'packed') throw new NotDirect();
        this.compare(i, ops, operandType, this.setccPredicate(op, opcode, operandType));
        return;
      }
      case 'compare': {
        const operandType = this.typeOf(ops[0]!);
        if (operandType.kind === 'packed') throw new NotDirect();
        this.compare(i, ops, operandType, predicate(opcode, this.extrasOf(i).predicate ?? notDirect()));
        return;
      }
      case 'cast':
        this.cast(i, ops, opcode, resultType);
        return;
    }
    throw new NotDirect();
  }

  /** A load's or store's extra: its encoded alignment times two, plus one when volatile. */
  private memoryExtra(i: number): number {
    const x = this.extrasOf(i);
    return encodeAlign(keptAlignment(x.alignment)) * 2 + (x.isVolatile ? 1 : 0);
  }

  /** The code of a binary operator (binaryOpcode, BINOP), the last one's remembered: runs of one operator on one type are common. */
  private binaryCode(op: number, opcode: Opcode, operandType: Type): number {
    if (op !== this.lastBinary || operandType !== this.lastBinaryType) {
      const code = BINOP.get(binaryOpcode(opcode, operandType));
      if (code === undefined) throw new NotDirect();
      this.lastBinary = op;
      this.lastBinaryType = operandType;
      this.lastBinaryCode = code;
    }
    return this.lastBinaryCode;
  }

  /** The predicate code of a 1.x setcc (comparison, predicate), the last one's remembered. */
  private setccPredicate(op: number, opcode: Opcode, operandType: Type): number {
    if (op !== this.lastSetcc || operandType !== this.lastSetccType) {
      const { inst, pred } = comparison(opcode, operandType);
      this.lastSetcc = op;
      this.lastSetccType = operandType;
      this.lastSetccPredicate = predicate(inst, pred);
    }
    return this.lastSetccPredicate;
  }

  /** A comparison of predicate code `pred`. */
  private compare(i: number, ops: ArrayLike<number>, operandType: Type, pred: number): void {
    const type = this.irType(operandType);
    const a = this.early(ops[0]!, type);
    const b = this.early(ops[1]!, type);
    this.body.add(CMP, this.i1, undefined, pred);
    this.operand(ops[0]!, type, a);
    this.operand(ops[1]!, type, b);
    this.result(i);
  }

  private gep(i: number, ops: Int32Array, count: number, resultType: Type): void {
    const body = this.body;
    const base = ops[0]!;
    const baseType = this.typeOf(base);
    const src = baseType.kind === 'pointer' ? baseType.element : baseType;
    const source = this.irType(src);
    const baseConstant = this.early(base);
    // The indices as the printer spells them, their zero extensions recorded first (before the GEP).
    const { indexCodes, indexTypes, indexConstants, indexLocals } = this;
    let indexCount = 0;
    let cur: Type | undefined = src;
    for (let k = 1; k < count; k++) {
      const code = ops[k]!;
      const idx = this.constantAt(code);
      const field = structField(cur, k, idx);
      cur = nextIndexed(cur, k, field);
      if (field >= 0) {
        indexCodes[indexCount] = -1;
        indexTypes[indexCount] = this.i32;
        indexConstants[indexCount] = this.reader.constantOf(this.i32, String(field));
        indexLocals[indexCount++] = -1;
        continue;
      }
      const idxType = this.typeOf(code);
      const plan = planIndex(idxType, idx);
      if (plan.kind === 'same') {
        const type = this.irType(idxType);
        indexCodes[indexCount] = code;
        indexTypes[indexCount] = type;
        indexConstants[indexCount] = this.early(code, type);
        indexLocals[indexCount++] = -1;
      } else if (plan.kind === 'constant') {
        indexCodes[indexCount] = -1;
        indexTypes[indexCount] = this.i64;
        indexConstants[indexCount] = this.reader.constantOf(this.i64, plan.text);
        indexLocals[indexCount++] = -1;
      } else {
        const c = this.early(code);
        body.add(CAST_KIND + CAST.get('zext')!, this.i64, undefined, 0);
        this.operand(code, undefined, c);
        indexCodes[indexCount] = -1;
        indexTypes[indexCount] = this.i64;
        indexConstants[indexCount] = undefined;
        indexLocals[indexCount++] = this.temp();
      }
    }
    body.add(GEP, this.irType(resultType), source, 0);
    this.operand(base, undefined, baseConstant);
    for (let k = 0; k < indexCount; k++) {
      const type = indexTypes[k]!;
      const constant = indexConstants[k];
      if (indexCodes[k]! >= 0) this.operand(indexCodes[k]!, type, constant);
      else if (constant !== undefined) body.constant(type, constant);
      else body.local(type, indexLocals[k]!);
    }
    this.result(i);
  }

  private cast(i: number, ops: ArrayLike<number>, opcode: string, resultType: Type): void {
    const body = this.body;
    const v = ops[0]!;
    if (opcode !== 'cast') {
      // Version 7's twelve casts are LLVM 16's.
      const c = this.early(v);
      body.add(CAST_KIND + (CAST.get(opcode) ?? notDirect()), this.irType(resultType), undefined, 0);
      this.operand(v, undefined, c);
      this.result(i);
      return;
    }
    const from = this.typeOf(v);
    if (from.kind === 'packed' || resultType.kind === 'packed') throw new NotDirect();
    const plan = planCast(from, resultType);
    if (plan.kind === 'noop') {
      const c = this.early(v);
      body.add(CAST_KIND + CAST.get('bitcast')!, this.irType(resultType), undefined, 0);
      this.operand(v, undefined, c);
      this.result(i);
      return;
    }
    if (plan.kind === 'nonzero') {
      const type = this.irType(from);
      const c = this.early(v, type);
      body.add(CMP, this.i1, undefined, predicate(plan.fp ? 'fcmp' : 'icmp', plan.fp ? 'une' : 'ne'));
      this.operand(v, type, c);
      body.constant(type, this.reader.constantOf(type, zeroOf(from)));
      this.result(i);
      return;
    }
    let previous = -1;
    let previousType = this.irType(from);
    const c = this.early(v, previousType);
    const last = plan.steps.length - 1;
    plan.steps.forEach((step, k) => {
      const to = step.to === 'i64' ? this.i64 : this.irType(step.to);
      body.add(CAST_KIND + (CAST.get(step.op) ?? notDirect()), to, undefined, 0);
      if (k === 0) this.operand(v, previousType, c);
      else body.local(previousType, previous);
      if (k === last) this.result(i);
      else previous = this.temp();
      previousType = to;
    });
  }

  private call(i: number, ops: Int32Array, count: number, resultType: Type): void {
    const target = this.constantAt(ops[0]!);
    if (target?.kind !== 'function') throw new NotDirect();
    const ft = target.functionType;
    this.ctx.types.refuseOddParameters(ft);
    const ret = this.ctx.types.str(ft.returnType);
    const callee = this.reader.constantOf(this.ptr, this.ctx.globalRef(target));
    const argTypes: IrType[] = [];
    const argConstants: (IrConstant | undefined)[] = [];
    const spelledTypes: string[] = [];
    for (let k = 1; k < count; k++) {
      const t = this.typeOf(ops[k]!);
      if (k - 1 < ft.params.length && valueAttributes(this.ctx.types, ft, k, t) !== '') throw new NotDirect();
      spelledTypes.push(this.ctx.types.str(t));
      const type = this.irType(t);
      argTypes.push(type);
      argConstants.push(this.early(ops[k]!, type));
    }
    const fnType = this.reader.typeOf(`${ret} (${spelledTypes.join(', ')})`);
    this.body.add(CALL, this.irType(ft.returnType), fnType, callFlags(this.extrasOf(i).isTailCall === true, 0));
    this.body.constant(this.ptr, callee);
    for (let k = 1; k < count; k++) this.operand(ops[k]!, argTypes[k - 1], argConstants[k - 1]);
    if (resultType.kind !== 'void') this.result(i);
  }

  private malloc(i: number, ops: ArrayLike<number>): void {
    const count = this.constantAt(ops[0]!);
    const allocated = this.extrasOf(i).allocatedType ?? notDirect();
    // A size an instruction computes (a count not constant, or a product LLVM no longer folds) is the printer's.
    const size = (count && constantMallocSize(this.ctx, this.ctx.types.str(allocated), count)) ?? notDirect();
    const callee = this.reader.constantOf(this.ptr, this.ctx.helper('malloc'));
    this.body.add(CALL, this.ptr, this.reader.typeOf('ptr (i64)'), callFlags(false, 0));
    this.body.constant(this.ptr, callee);
    this.body.constant(this.i64, this.reader.constantOf(this.i64, size));
    this.result(i);
  }
}

function notDirect(): never {
  throw new NotDirect();
}

/** A name from `claimLocalNames` as the text writes it. */
function spelled(name: string | number): string {
  return typeof name === 'number' ? '%' + name : name;
}

/** A name from `claimLocalNames` as the value symbol table holds it: undefined for a numbered one. */
function rawName(name: string | number): string | undefined {
  if (typeof name === 'number') return undefined;
  // A quoted name reads back unescaped: not worth the risk of another spelling.
  if (name.charCodeAt(1) === 34 /* " */) throw new NotDirect();
  return name.slice(1);
}
