/**
 * The direct lowering, for `writeModern`: a function body of the common instructions lowered
 * straight into bitcode records (bitcode/direct-body.ts) rather than printed as text and read
 * back, which was most of the time an upgrade of a large module to bitcode took.
 *
 * It makes the decisions function.ts makes, with the helpers function.ts uses for them
 * (`planCast`, `planIndex`, `comparison`, `binaryOpcode`, `nameLocals`, …), and spells each type
 * and constant as function.ts does, read by the same reader that reads the rest of the module
 * (`DirectBodyReader`): the result is the body the text would have read as, byte for byte (the
 * tests compare both ways over the corpus). A body with anything else (invokes and `unwind`,
 * intrinsics, inline asm, varargs, attributes, `alloca`, shifts, vectors, a constant that needs
 * an instruction, a name that must be quoted, typed pointers) is printed as before: the lowering
 * gives up on the first thing it does not take, before the function's text is decided.
 */
import type { Type } from '../graph/type.js';
import { opcodeClass } from '../graph/opcodes.js';
import type { Constant, Function, Instruction, Value } from '../graph/value.js';
import { BINOP, CAST } from './bitcode/codes.js';
import { encodeAlign, predicate } from './bitcode/encode.js';
import {
  BINOP_KIND,
  BR,
  CALL,
  CAST_KIND,
  CMP,
  DirectBody,
  FORWARD,
  GEP,
  LOAD,
  PHI,
  RET,
  STORE,
  UNREACHABLE,
  type DirectBodyReader,
} from './bitcode/direct-body.js';
import type { IrConstant, IrType } from './bitcode/ir.js';
import { planCast } from './casts.js';
import { zeroOf, type Sink } from './constants.js';
import { acceptsConstantExpr } from './llvm-versions.js';
import { keptAlignment, nameLocals, planIndex, sizeOfText, type FunctionBody } from './function.js';
import type { ModuleContext } from './module.js';
import { NameScope } from './names.js';
import { intBits } from './types.js';
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

/**
 * `fn`'s body lowered straight to records and queued with `reader` (its text is then `{ ~ }`),
 * or undefined, having queued nothing, when the body has anything the lowering does not take.
 */
export function lowerDirectly(ctx: ModuleContext, fn: Function, reader: DirectBodyReader): FunctionBody | undefined {
  if (ctx.typed || !takesEveryInstruction(ctx, fn)) return undefined;
  try {
    const lowering = new DirectLowering(ctx, fn, reader);
    const body = lowering.lower();
    reader.addDirectBody(body);
    const lines = new TextLines();
    lines.push('  ~');
    return { argNames: lowering.argNames(), lines, needsGc: false, hasLandingPads: false };
  } catch {
    // Whatever it was (something not taken, or an error the printer reports in its own words
    // and order), the printer prints the body.
    return undefined;
  }
}

/** The opcodes the lowering takes, before looking closer (a cheap first pass). */
function takesEveryInstruction(ctx: ModuleContext, fn: Function): boolean {
  for (const bb of fn.blocks)
    for (const inst of bb.instructions) {
      switch (inst.opcode) {
        case 'ret':
        case 'br':
        case 'unreachable':
        case 'load':
        case 'store':
        case 'getelementptr':
        case 'phi':
        case 'free':
          continue;
        case 'malloc':
          if (inst.operands[0]!.kind !== 'int') return false;
          continue;
        case 'call': {
          const callee = inst.operands[0]!;
          if (callee.kind !== 'function' || ctx.plans.has(callee) || callee.functionType.isVarArg || (inst.callingConv ?? 0) !== 0) return false;
          continue;
        }
      }
      const cls = opcodeClass(inst.opcode);
      if (cls !== 'binary' && cls !== 'setcc' && cls !== 'compare' && cls !== 'cast') return false;
    }
  return true;
}

function isLocalValue(v: Value): boolean {
  return v.kind === 'argument' || v.kind === 'instruction';
}

class DirectLowering {
  private readonly names = new Map<Value, string | number>();
  private readonly scope = new NameScope();
  /** Each argument's and each lowered instruction's index among the locals. */
  private readonly index = new Map<Value, number>();
  private readonly blockIndex = new Map<Value, number>();
  /** Operands recorded before their value was numbered: position, value. */
  private readonly forward: [number, Value][] = [];
  private readonly irTypes = new Map<Type, IrType>();
  private readonly body: DirectBody;
  private readonly void: IrType;
  private readonly i1: IrType;
  private readonly i32: IrType;
  private readonly i64: IrType;
  private readonly ptr: IrType;
  /** Each phi's constant entries, read when the printer reads them: before any instruction. */
  private readonly phiConstants = new Map<Instruction, (IrConstant | undefined)[]>();

  constructor(
    private readonly ctx: ModuleContext,
    private readonly fn: Function,
    private readonly reader: DirectBodyReader,
  ) {
    nameLocals(fn, this.scope, this.names);
    fn.args.forEach((a, i) => this.index.set(a, i));
    fn.blocks.forEach((bb, i) => this.blockIndex.set(bb, i));
    this.body = new DirectBody(
      fn.args.length,
      fn.blocks.map((bb) => this.rawName(bb)),
    );
    this.void = reader.typeOf('void');
    this.i1 = reader.typeOf('i1');
    this.i32 = reader.typeOf('i32');
    this.i64 = reader.typeOf('i64');
    this.ptr = reader.typeOf('ptr');
  }

  argNames(): string[] {
    return this.fn.args.map((a) => this.spelled(a));
  }

  lower(): DirectBody {
    this.readPhiConstants();
    for (const bb of this.fn.blocks) for (const inst of bb.instructions) this.instruction(inst);
    const body = this.body;
    body.finish();
    for (const [position, v] of this.forward) {
      const n = this.index.get(v);
      if (n === undefined) throw new NotDirect(); // used, never defined: the printer says so
      body.resolve(position, n);
    }
    return body;
  }

  /** A local's name as the text spells it (`%x`, `%7`). */
  private spelled(v: Value): string {
    const n = this.names.get(v);
    if (n === undefined) throw new NotDirect();
    return typeof n === 'number' ? '%' + n : n;
  }

  /** A local's name as the value symbol table holds it; undefined for a numbered one. */
  private rawName(v: Value): string | undefined {
    const n = this.names.get(v);
    if (typeof n === 'number') return undefined;
    // A quoted name reads back unescaped: not worth the risk of another spelling.
    if (n === undefined || n.charCodeAt(1) === 34 /* " */) throw new NotDirect();
    return n.slice(1);
  }

  private irType(t: Type): IrType {
    let ir = this.irTypes.get(t);
    if (ir === undefined) this.irTypes.set(t, (ir = this.reader.typeOf(this.ctx.types.str(t))));
    return ir;
  }

  /** A constant operand's value as the reader reads its text. */
  private constant(v: Value, type: IrType): IrConstant {
    return this.reader.constantOf(type, this.ctx.consts.value(v as Constant, REFUSING_SINK));
  }

  /** Records `v` as an operand of `type` (its own type's by default); `c`, its constant when read before. */
  private operand(v: Value, type: IrType = this.irType(v.type), c?: IrConstant): void {
    if (isLocalValue(v)) {
      const n = this.index.get(v);
      if (n !== undefined) this.body.local(type, n);
      else this.forward.push([this.body.local(type, FORWARD), v]);
    } else if (v.kind === 'block') throw new NotDirect();
    else this.body.constant(type, c ?? this.constant(v, type));
  }

  /** A constant operand read now (in the printer's order), undefined for a local. */
  private early(v: Value, type: IrType = this.irType(v.type)): IrConstant | undefined {
    return isLocalValue(v) || v.kind === 'block' ? undefined : this.constant(v, type);
  }

  private label(v: Value): void {
    const n = this.blockIndex.get(v);
    if (n === undefined) throw new NotDirect();
    this.body.label(n);
  }

  /** Numbers the result of the instruction just recorded, named as `v` is. */
  private result(v: Instruction): void {
    this.index.set(v, this.body.define(this.rawName(v)));
  }

  /** A helper instruction's fresh result (`%up.N`), numbered: its index. */
  private temp(): number {
    return this.body.define(this.scope.fresh('up'));
  }

  /** The printer plans every phi's entries before printing: their constants are read then. */
  private readPhiConstants(): void {
    for (const bb of this.fn.blocks)
      for (const inst of bb.instructions) {
        if (inst.opcode !== 'phi') continue;
        const ops = inst.operands;
        // A phi with no entry left is printed as something else (function.ts, `phi`).
        if (ops.length === 0) throw new NotDirect();
        const type = this.irType(inst.type);
        const constants: (IrConstant | undefined)[] = [];
        for (let i = 0; i + 1 < ops.length; i += 2) {
          if (ops[i + 1]!.kind !== 'block') throw new NotDirect();
          constants.push(this.early(ops[i]!, type));
        }
        this.phiConstants.set(inst, constants);
      }
  }

  private instruction(inst: Instruction): void {
    const body = this.body;
    const ops = inst.operands;
    switch (inst.opcode) {
      case 'ret':
        if (ops.length) {
          const c = this.early(ops[0]!);
          body.add(RET, this.void, undefined, 0);
          this.operand(ops[0]!, undefined, c);
        } else body.add(RET, this.void, undefined, 0);
        return;
      case 'br':
        if (ops.length === 1) {
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
      case 'unreachable':
        body.add(UNREACHABLE, this.void, undefined, 0);
        return;
      case 'load': {
        const type = this.irType(inst.type);
        const c = this.early(ops[0]!);
        body.add(LOAD, type, type, this.memoryExtra(inst));
        this.operand(ops[0]!, undefined, c);
        this.result(inst);
        return;
      }
      case 'store': {
        // Printed value first, pointer second; the reader's operands are pointer, value.
        const value = this.early(ops[0]!);
        const pointer = this.early(ops[1]!);
        body.add(STORE, this.void, undefined, this.memoryExtra(inst));
        this.operand(ops[1]!, undefined, pointer);
        this.operand(ops[0]!, undefined, value);
        return;
      }
      case 'getelementptr':
        this.gep(inst);
        return;
      case 'phi': {
        const type = this.irType(inst.type);
        const constants = this.phiConstants.get(inst)!;
        body.add(PHI, type, undefined, 0);
        for (let i = 0; i + 1 < ops.length; i += 2) {
          this.operand(ops[i]!, type, constants[i >> 1]);
          this.label(ops[i + 1]!);
        }
        this.result(inst);
        return;
      }
      case 'call':
        this.call(inst);
        return;
      case 'malloc':
        this.malloc(inst);
        return;
      case 'free': {
        const callee = this.reader.constantOf(this.ptr, this.ctx.helper('free'));
        const argType = this.irType(ops[0]!.type);
        const c = this.early(ops[0]!, argType);
        body.add(CALL, this.void, this.reader.typeOf(`void (${this.ctx.types.str(ops[0]!.type)})`), 1 << 15);
        body.constant(this.ptr, callee);
        this.operand(ops[0]!, argType, c);
        return;
      }
    }
    switch (opcodeClass(inst.opcode)) {
      case 'binary': {
        const code = BINOP.get(binaryOpcode(inst.opcode, ops[0]!.type));
        if (code === undefined) throw new NotDirect();
        const type = this.irType(ops[0]!.type);
        const a = this.early(ops[0]!, type);
        const b = this.early(ops[1]!, type);
        body.add(BINOP_KIND + code, type, undefined, 0);
        this.operand(ops[0]!, type, a);
        this.operand(ops[1]!, type, b);
        this.result(inst);
        return;
      }
      case 'setcc': {
        if (ops[0]!.type.kind === 'packed') throw new NotDirect();
        const { inst: cmp, pred } = comparison(inst.opcode, ops[0]!.type);
        this.compare(inst, cmp, pred);
        return;
      }
      case 'compare':
        if (ops[0]!.type.kind === 'packed') throw new NotDirect();
        this.compare(inst, inst.opcode, inst.predicate!);
        return;
      case 'cast':
        this.cast(inst);
        return;
    }
    throw new NotDirect();
  }

  /** A load's or store's extra: its encoded alignment times two, plus one when volatile. */
  private memoryExtra(inst: Instruction): number {
    return encodeAlign(keptAlignment(inst.alignment)) * 2 + (inst.isVolatile ? 1 : 0);
  }

  private compare(inst: Instruction, opcode: string, pred: string): void {
    const ops = inst.operands;
    const type = this.irType(ops[0]!.type);
    const a = this.early(ops[0]!, type);
    const b = this.early(ops[1]!, type);
    this.body.add(CMP, this.i1, undefined, predicate(opcode, pred));
    this.operand(ops[0]!, type, a);
    this.operand(ops[1]!, type, b);
    this.result(inst);
  }

  private gep(inst: Instruction): void {
    const body = this.body;
    const ops = inst.operands;
    const base = ops[0]!;
    const src = base.type.kind === 'pointer' ? base.type.element : base.type;
    const source = this.irType(src);
    const baseConstant = this.early(base);
    // The indices as the printer spells them, zero extensions emitted first (before the GEP).
    const indices: { value: Value | undefined; type: IrType; constant: IrConstant | undefined; local: number }[] = [];
    let cur: Type | undefined = src;
    for (let k = 1; k < ops.length; k++) {
      const idx = ops[k]!;
      if (k > 1 && cur?.kind === 'struct') {
        const field = idx.kind === 'int' ? Number(idx.value) : 0;
        indices.push({ value: undefined, type: this.i32, constant: this.reader.constantOf(this.i32, String(field)), local: -1 });
        cur = cur.elements[field];
        continue;
      }
      const plan = planIndex(idx);
      if (plan.kind === 'same') {
        const type = this.irType(idx.type);
        indices.push({ value: idx, type, constant: this.early(idx, type), local: -1 });
      } else if (plan.kind === 'constant') indices.push({ value: undefined, type: this.i64, constant: this.reader.constantOf(this.i64, plan.text), local: -1 });
      else {
        const c = this.early(idx);
        body.add(CAST_KIND + CAST.get('zext')!, this.i64, undefined, 0);
        this.operand(idx, undefined, c);
        indices.push({ value: undefined, type: this.i64, constant: undefined, local: this.temp() });
      }
      if (k > 1) cur = cur && (cur.kind === 'array' || cur.kind === 'packed') ? cur.element : undefined;
    }
    body.add(GEP, this.irType(inst.type), source, 0);
    this.operand(base, undefined, baseConstant);
    for (const i of indices) {
      if (i.value !== undefined) this.operand(i.value, i.type, i.constant);
      else if (i.constant !== undefined) body.constant(i.type, i.constant);
      else body.local(i.type, i.local);
    }
    this.result(inst);
  }

  private cast(inst: Instruction): void {
    const body = this.body;
    const v = inst.operands[0]!;
    if (inst.opcode !== 'cast') {
      // Version 7's twelve casts are LLVM 16's.
      const c = this.early(v);
      body.add(CAST_KIND + CAST.get(inst.opcode)!, this.irType(inst.type), undefined, 0);
      this.operand(v, undefined, c);
      this.result(inst);
      return;
    }
    if (v.type.kind === 'packed' || inst.type.kind === 'packed') throw new NotDirect();
    const plan = planCast(v.type, inst.type);
    if (plan.kind === 'noop') {
      const c = this.early(v);
      body.add(CAST_KIND + CAST.get('bitcast')!, this.irType(inst.type), undefined, 0);
      this.operand(v, undefined, c);
      this.result(inst);
      return;
    }
    if (plan.kind === 'nonzero') {
      const type = this.irType(v.type);
      const c = this.early(v, type);
      body.add(CMP, this.i1, undefined, predicate(plan.fp ? 'fcmp' : 'icmp', plan.fp ? 'une' : 'ne'));
      this.operand(v, type, c);
      body.constant(type, this.reader.constantOf(type, zeroOf(v.type)));
      this.result(inst);
      return;
    }
    let from = -1;
    let fromType = this.irType(v.type);
    const c = this.early(v, fromType);
    plan.steps.forEach((step, i) => {
      const to = step.to === 'i64' ? this.i64 : this.irType(step.to);
      body.add(CAST_KIND + CAST.get(step.op)!, to, undefined, 0);
      if (i === 0) this.operand(v, fromType, c);
      else body.local(fromType, from);
      if (i === plan.steps.length - 1) this.result(inst);
      else from = this.temp();
      fromType = to;
    });
  }

  private call(inst: Instruction): void {
    const ops = inst.operands;
    const target = ops[0]!;
    if (target.kind !== 'function') throw new NotDirect();
    const ft = target.functionType;
    this.ctx.types.refuseOddParameters(ft);
    const ret = this.ctx.types.str(ft.returnType);
    const callee = this.reader.constantOf(this.ptr, this.ctx.globalRef(target));
    const argTypes: IrType[] = [];
    const argConstants: (IrConstant | undefined)[] = [];
    const spelled: string[] = [];
    for (let i = 1; i < ops.length; i++) {
      const a = ops[i]!;
      if (i - 1 < ft.params.length && valueAttributes(this.ctx.types, ft, i, a.type) !== '') throw new NotDirect();
      const t = this.ctx.types.str(a.type);
      spelled.push(t);
      const type = this.irType(a.type);
      argTypes.push(type);
      argConstants.push(this.early(a, type));
    }
    const fnType = this.reader.typeOf(`${ret} (${spelled.join(', ')})`);
    this.body.add(CALL, this.irType(ft.returnType), fnType, (inst.isTailCall ? 1 : 0) | (1 << 15));
    this.body.constant(this.ptr, callee);
    for (let i = 1; i < ops.length; i++) this.operand(ops[i]!, argTypes[i - 1], argConstants[i - 1]);
    if (inst.type.kind !== 'void') this.result(inst);
  }

  private malloc(inst: Instruction): void {
    const count = inst.operands[0]!;
    if (count.kind !== 'int') throw new NotDirect();
    const el = this.ctx.types.str(inst.allocatedType!);
    const sizeOf = sizeOfText(this.ctx, el);
    let size: string;
    if (count.value === 1n) size = sizeOf;
    else if (acceptsConstantExpr(this.ctx.constantRules, 'mul')) size = `mul (i64 ${sizeOf}, i64 ${BigInt.asUintN(intBits(count.type) || 64, count.value)})`;
    else throw new NotDirect(); // the printer computes it with an instruction
    const callee = this.reader.constantOf(this.ptr, this.ctx.helper('malloc'));
    this.body.add(CALL, this.ptr, this.reader.typeOf('ptr (i64)'), 1 << 15);
    this.body.constant(this.ptr, callee);
    this.body.constant(this.i64, this.reader.constantOf(this.i64, size));
    this.result(inst);
  }
}
