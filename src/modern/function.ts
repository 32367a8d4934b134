/**
 * Function bodies in modern IR. Each 1.x instruction becomes one modern instruction that keeps
 * its name (or number), sometimes preceded by helper instructions with fresh names (`%x.1`,
 * `%up.3`) that take no number, so unnamed values are numbered exactly as a reader counting the
 * old listing (arguments, then blocks and value-producing instructions in order) would expect.
 *
 * Lowerings with a control-flow effect (docs/upgrade.md):
 * - `unwind` becomes `call void @abort()` + `unreachable`: LLVM 1.x's unwinding has no modern
 *   counterpart that does not need a C++-style runtime;
 * - so no unwind edge can ever be taken, and `invoke` becomes `call` + `br` to its normal
 *   destination. This also keeps 1.x's rule that an invoke's value is available wherever its
 *   block dominates (modern invokes define their value only on the normal edge). The phis of the
 *   old unwind destination lose the entries for those edges.
 */
import type { Type } from '../graph/type.js';
import type { Argument, BasicBlock, Constant, Function, Instruction, Value } from '../graph/value.js';
import { upgradeConstraints } from './asm.js';
import { planCast } from './casts.js';
import { zeroOf, type Sink } from './constants.js';
import { GC_INTRINSICS } from './intrinsics.js';
import { lowerIntrinsicCall, VA_LIST, type BodyApi } from './lower-intrinsics.js';
import { callingConvention, sretAttr, type ModuleContext } from './module.js';
import { escapeString, formatName, NameScope } from './names.js';
import { binaryOpcode, comparison, UpgradeError } from './ops.js';
import { intBits, isSignedInt } from './types.js';

export interface FunctionBody {
  argNames: string[];
  lines: string[];
  needsGc: boolean;
}


function isLocal(v: Value): v is Argument | BasicBlock | Instruction {
  return v.kind === 'argument' || v.kind === 'block' || v.kind === 'instruction';
}

function isConstant(v: Value): v is Constant {
  return !isLocal(v);
}

/** The function a callee operand denotes once no-op pointer casts are looked through. */
function calleeFunction(v: Value): Function | undefined {
  let c: Value = v;
  while (c.kind === 'expr' && c.opcode === 'cast' && c.operands[0]!.type.kind === 'pointer' && c.type.kind === 'pointer') c = c.operands[0]!;
  return c.kind === 'function' ? c : undefined;
}

export function printFunctionBody(ctx: ModuleContext, fn: Function): FunctionBody {
  return new BodyPrinter(ctx, fn).print();
}

class BodyPrinter implements Sink, BodyApi {
  private readonly names = new Map<Value, string>();
  private readonly scope = new NameScope();
  private out: string[] = [];
  private needsGc = false;
  /** `alloca sbyte*` slots that 1.6+ code hands to llvm.va_start/va_copy as its va_list. */
  private readonly vaListSlots = new Set<Instruction>();
  /** unwind destination → (invoking block → number of unwind edges from it that were removed). */
  private readonly removedEdges = new Map<BasicBlock, Map<BasicBlock, number>>();
  private current: BasicBlock | undefined;
  /** Replacements for phis that lost every entry, emitted after the block's phis. */
  private deferred: string[] = [];

  constructor(
    readonly ctx: ModuleContext,
    private readonly fn: Function,
  ) {}

  // Sink: helper instructions emitted before the current one.
  emit(line: string): void {
    this.out.push('  ' + line);
  }

  calleeName(inst: Instruction): string {
    return calleeFunction(inst.operands[0]!)?.name ?? '';
  }

  temp(base = 'up'): string {
    return formatName('%', this.scope.fresh(base));
  }

  private assignNames(): void {
    const values: (Argument | BasicBlock | Instruction)[] = [];
    for (const a of this.fn.args) values.push(a);
    for (const bb of this.fn.blocks) {
      values.push(bb);
      for (const inst of bb.instructions) if (inst.type.kind !== 'void') values.push(inst);
    }
    for (const v of values) if (v.name) this.scope.reserve(v.name);
    let next = 0;
    for (const v of values) {
      this.names.set(v, v.name ? formatName('%', this.scope.claim(v.name)) : `%${next++}`);
    }
  }

  local(v: Value): string {
    const n = this.names.get(v);
    if (n === undefined) throw new UpgradeError(`value used outside its function (${v.kind})`);
    return n;
  }

  val(v: Value, sink: Sink | undefined = this): string {
    return isLocal(v) ? this.local(v) : this.ctx.consts.value(v, sink);
  }

  ty(t: Type): string {
    return this.ctx.types.str(t);
  }

  typed(v: Value, sink: Sink | undefined = this): string {
    return `${this.ty(v.type)} ${this.val(v, sink)}`;
  }

  private label(bb: Value): string {
    return `label ${this.local(bb)}`;
  }

  print(): FunctionBody {
    this.assignNames();
    this.planRemovedEdges();
    this.findVaListSlots();
    for (const bb of this.fn.blocks) {
      this.current = bb;
      const nm = this.local(bb);
      this.out.push(`${nm.slice(1)}:`);
      for (const inst of bb.instructions) {
        if (inst.opcode !== 'phi' && this.deferred.length) {
          for (const line of this.deferred) this.emit(line);
          this.deferred = [];
        }
        this.instruction(inst);
      }
    }
    return {
      argNames: this.fn.args.map((a) => this.local(a)),
      lines: this.out,
      needsGc: this.needsGc,
    };
  }

  /**
   * Invokes become call + br (see the file comment): the unwind edge disappears, so the phis of
   * each unwind destination lose the entry for that edge.
   */
  private planRemovedEdges(): void {
    for (const bb of this.fn.blocks) {
      const last = bb.instructions[bb.instructions.length - 1];
      if (last?.opcode !== 'invoke') continue;
      const dest = last.operands[2] as BasicBlock;
      let m = this.removedEdges.get(dest);
      if (!m) this.removedEdges.set(dest, (m = new Map()));
      m.set(bb, (m.get(bb) ?? 0) + 1);
    }
  }

  /**
   * 1.6–1.9 code allocates its va_list as `alloca sbyte*` (8 bytes, LLVM 1.x's va_list) and
   * passes it to llvm.va_start/va_copy; modern targets need more (x86-64: 24 bytes), so those
   * slots are allocated as a full va_list object.
   */
  private findVaListSlots(): void {
    const mark = (v: Value | undefined): void => {
      if (v?.kind === 'instruction' && v.opcode === 'alloca' && v.allocatedType?.kind === 'pointer') this.vaListSlots.add(v);
    };
    for (const bb of this.fn.blocks) {
      for (const inst of bb.instructions) {
        if (inst.opcode === 'vaarg' && !inst.legacyVarArgs) mark(inst.operands[0]);
        if (inst.opcode !== 'call' && inst.opcode !== 'invoke') continue;
        const target = calleeFunction(inst.operands[0]!);
        const name = target?.name;
        if (name !== 'llvm.va_start' && name !== 'llvm.va_copy' && name !== 'llvm.va_end') continue;
        if (target!.functionType.params[0]?.kind !== 'pointer' || target!.functionType.params[0].element.kind !== 'pointer') continue; // pre-1.6 forms take the va_list value
        const args = inst.operands.slice(inst.opcode === 'call' ? 1 : 3);
        mark(args[0]);
        // va_copy's source is a va_list value loaded from its slot.
        const src = name === 'llvm.va_copy' ? args[1] : undefined;
        if (src?.kind === 'instruction' && src.opcode === 'load') mark(src.operands[0]);
      }
    }
  }

  private instruction(inst: Instruction): void {
    const nm = inst.type.kind === 'void' ? '' : `${this.local(inst)} = `;
    const ops = inst.operands;
    switch (inst.opcode) {
      case 'ret':
        this.emit(ops.length ? `ret ${this.typed(ops[0]!)}` : 'ret void');
        return;
      case 'br':
        this.emit(ops.length === 1 ? `br ${this.label(ops[0]!)}` : `br ${this.typed(ops[0]!)}, ${this.label(ops[1]!)}, ${this.label(ops[2]!)}`);
        return;
      case 'switch': {
        const seen = new Set<string>();
        const cases: string[] = [];
        for (let i = 2; i + 1 < ops.length; i += 2) {
          const v = this.typed(ops[i]!);
          if (seen.has(v)) continue; // modern IR rejects duplicate cases; 1.x took the first
          seen.add(v);
          cases.push(`    ${v}, ${this.label(ops[i + 1]!)}`);
        }
        this.emit(`switch ${this.typed(ops[0]!)}, ${this.label(ops[1]!)} [${cases.length ? '\n' + cases.join('\n') + '\n  ' : ''}]`);
        return;
      }
      case 'invoke':
      case 'call':
        this.call(inst, nm);
        return;
      case 'unwind':
        this.emit(`call void ${this.ctx.helper('abort')}() ; LLVM 1.x: unwind`);
        this.emit('unreachable');
        return;
      case 'unreachable':
        this.emit('unreachable');
        return;
      case 'add':
      case 'sub':
      case 'mul':
      case 'udiv':
      case 'sdiv':
      case 'fdiv':
      case 'urem':
      case 'srem':
      case 'frem':
      case 'and':
      case 'or':
      case 'xor':
        this.emit(`${nm}${binaryOpcode(inst.opcode, ops[0]!.type)} ${this.typed(ops[0]!)}, ${this.val(ops[1]!)}`);
        return;
      case 'shl':
      case 'shr':
        this.emit(`${nm}${binaryOpcode(inst.opcode, ops[0]!.type)} ${this.typed(ops[0]!)}, ${this.shiftAmount(ops[1]!, ops[0]!.type)}`);
        return;
      case 'seteq':
      case 'setne':
      case 'setlt':
      case 'setgt':
      case 'setle':
      case 'setge': {
        const { inst: cmp, pred } = comparison(inst.opcode, ops[0]!.type);
        this.emit(`${nm}${cmp} ${pred} ${this.typed(ops[0]!)}, ${this.val(ops[1]!)}`);
        return;
      }
      case 'malloc':
        this.malloc(inst, nm);
        return;
      case 'free':
        this.emit(`call void ${this.ctx.helper('free')}(${this.typed(ops[0]!)})`);
        return;
      case 'alloca': {
        if (this.vaListSlots.has(inst)) {
          this.emit(`${nm}alloca ${VA_LIST} ; LLVM 1.x: alloca ${this.ty(inst.allocatedType!)} (its va_list)`);
          return;
        }
        const count = ops[0];
        let s = `${nm}alloca ${this.ty(inst.allocatedType!)}`;
        if (count && !(count.kind === 'int' && count.value === 1n)) s += `, ${this.typed(count)}`;
        if (inst.alignment) s += `, align ${inst.alignment}`;
        this.emit(s);
        return;
      }
      case 'load':
        this.emit(`${nm}load ${inst.isVolatile ? 'volatile ' : ''}${this.ty(inst.type)}, ${this.typed(ops[0]!)}`);
        return;
      case 'store':
        this.emit(`store ${inst.isVolatile ? 'volatile ' : ''}${this.typed(ops[0]!)}, ${this.typed(ops[1]!)}`);
        return;
      case 'getelementptr':
        this.gep(inst, nm);
        return;
      case 'phi':
        this.phi(inst, nm);
        return;
      case 'cast':
        this.cast(inst, nm);
        return;
      case 'select':
        this.emit(`${nm}select ${ops.map((o) => this.typed(o)).join(', ')}`);
        return;
      case 'extractelement':
      case 'insertelement':
      case 'shufflevector':
        this.emit(`${nm}${inst.opcode} ${ops.map((o) => this.typed(o)).join(', ')}`);
        return;
      case 'vaarg':
        if (inst.legacyVarArgs) {
          // Pre-1.6 `vaarg` read the current argument of a va_list VALUE without advancing it:
          // read it from a copy.
          const copy = this.temp(`${this.local(inst).slice(1).replace(/"/g, '')}.va`);
          this.emit(`${copy} = alloca ${VA_LIST}`);
          this.emit(`call void ${this.vaIntrinsic('copy')}(ptr ${copy}, ${this.typed(ops[0]!)})`);
          this.emit(`${nm}va_arg ptr ${copy}, ${this.ty(inst.type)}`);
          this.emit(`call void ${this.vaIntrinsic('end')}(ptr ${copy})`);
        } else {
          this.emit(`${nm}va_arg ${this.typed(ops[0]!)}, ${this.ty(inst.type)}`);
        }
        return;
      case 'vanext':
        // Pre-1.6 `vanext` gave a NEW va_list value one argument further on: a copy, advanced.
        this.emit(`${nm}alloca ${VA_LIST}`);
        this.emit(`call void ${this.vaIntrinsic('copy')}(ptr ${this.local(inst)}, ${this.typed(ops[0]!)})`);
        this.emit(`${this.temp('skip')} = va_arg ptr ${this.local(inst)}, ${this.ty(inst.argType!)}`);
        return;
      case 'userop1':
      case 'userop2':
        throw new UpgradeError(`${inst.opcode} is an LLVM-internal opcode with no meaning outside a pass`);
    }
  }

  vaIntrinsic(which: 'start' | 'end' | 'copy'): string {
    return this.ctx.intrinsic(`llvm.va_${which}`, `declare void @llvm.va_${which}(${which === 'copy' ? 'ptr, ptr' : 'ptr'})`);
  }

  /** A 1.x shift amount (ubyte) converted to the shifted value's type. */
  private shiftAmount(amount: Value, valueType: Type): string {
    if (isConstant(amount)) {
      const typed = this.ctx.consts.shiftAmount(amount, valueType, this);
      return typed.slice(this.ty(valueType).length + 1);
    }
    const from = intBits(amount.type);
    const to = intBits(valueType);
    if (from === to) return this.local(amount);
    const t = this.temp();
    this.emit(`${t} = ${from < to ? 'zext' : 'trunc'} ${this.typed(amount)} to ${this.ty(valueType)}`);
    return t;
  }

  private malloc(inst: Instruction, nm: string): void {
    const count = inst.operands[0]!;
    const sizeOf = `ptrtoint (ptr getelementptr (${this.ty(inst.allocatedType!)}, ptr null, i32 1) to i64)`;
    let size: string;
    if (count.kind === 'int' && count.value === 1n) size = sizeOf;
    else if (count.kind === 'int') size = `mul (i64 ${sizeOf}, i64 ${BigInt.asUintN(intBits(count.type) || 64, count.value)})`;
    else {
      let n = this.val(count);
      if (intBits(count.type) !== 64) {
        const wide = this.temp();
        this.emit(`${wide} = ${isSignedInt(count.type) ? 'sext' : 'zext'} ${this.typed(count)} to i64`);
        n = wide;
      }
      size = this.temp();
      this.emit(`${size} = mul i64 ${n}, ${sizeOf}`);
    }
    const align = inst.alignment ? ` ; LLVM 1.x: align ${inst.alignment}` : '';
    this.emit(`${nm}call ptr ${this.ctx.helper('malloc')}(i64 ${size})${align}`);
  }

  private gep(inst: Instruction, nm: string): void {
    const [base, ...indices] = inst.operands;
    const src = base!.type.kind === 'pointer' ? base!.type.element : base!.type;
    const parts = [this.ty(src), this.typed(base!)];
    let cur: Type | undefined = src;
    indices.forEach((idx, i) => {
      if (i > 0 && cur?.kind === 'struct') {
        const field = idx.kind === 'int' ? Number(idx.value) : 0;
        parts.push(`i32 ${field}`);
        cur = cur.elements[field];
        return;
      }
      parts.push(this.seqIndex(idx));
      if (i > 0) cur = cur && (cur.kind === 'array' || cur.kind === 'packed') ? cur.element : undefined;
    });
    this.emit(`${nm}getelementptr ${parts.join(', ')}`);
  }

  /** Unsigned narrow indices widen to i64 by zero extension (modern GEP sign-extends). */
  private seqIndex(idx: Value): string {
    const bits = intBits(idx.type);
    if (bits === 64 || bits === 0 || isSignedInt(idx.type)) return this.typed(idx);
    if (idx.kind === 'int') return `i64 ${BigInt.asUintN(bits, idx.value)}`;
    if (idx.kind === 'bool') return `i64 ${idx.value ? 1 : 0}`;
    const t = this.temp();
    this.emit(`${t} = zext ${this.typed(idx)} to i64`);
    return `i64 ${t}`;
  }

  private phi(inst: Instruction, nm: string): void {
    const ops = inst.operands;
    const removed = this.current ? this.removedEdges.get(this.current) : undefined;
    const entries: string[] = [];
    // Drop one entry per removed edge, counting from the end (the unwind edge is the invoke's
    // second); an entry stays when it was the only one for a block reached both ways.
    const drop = new Map<Value, number>();
    if (removed) {
      const count = new Map<Value, number>();
      for (let i = 0; i + 1 < ops.length; i += 2) count.set(ops[i + 1]!, (count.get(ops[i + 1]!) ?? 0) + 1);
      for (const [from, n] of removed) {
        const normalToo = (from.instructions[from.instructions.length - 1]?.operands[1] ?? null) === this.current;
        const have = count.get(from) ?? 0;
        drop.set(from, Math.max(0, Math.min(n, normalToo ? have - 1 : have)));
      }
    }
    for (let i = ops.length - 2; i >= 0; i -= 2) {
      const from = ops[i + 1]!;
      const d = drop.get(from) ?? 0;
      if (d > 0) {
        drop.set(from, d - 1);
        continue;
      }
      entries.unshift(`[ ${this.val(ops[i]!, undefined)}, ${this.local(from)} ]`);
    }
    if (entries.length === 0) {
      // The block lost its last predecessor (it was reached only by unwinding): no phi is
      // possible, and the value can never be observed.
      this.deferred.push(`${nm}freeze ${this.ty(inst.type)} undef`);
      return;
    }
    this.emit(`${nm}phi ${this.ty(inst.type)} ${entries.join(', ')}`);
  }

  private cast(inst: Instruction, nm: string): void {
    const v = inst.operands[0]!;
    const plan = planCast(v.type, inst.type);
    if (plan.kind === 'noop') {
      // Same modern type (pointer to pointer, int to uint): kept as a no-op bitcast so the name lives on.
      this.emit(`${nm}bitcast ${this.typed(v)} to ${this.ty(inst.type)}`);
      return;
    }
    if (plan.kind === 'nonzero') {
      this.emit(`${nm}${plan.fp ? 'fcmp une' : 'icmp ne'} ${this.typed(v)}, ${zeroOf(v.type)}`);
      return;
    }
    let cur = this.typed(v);
    plan.steps.forEach((step, i) => {
      const to = step.to === 'i64' ? 'i64' : this.ty(step.to);
      const last = i === plan.steps.length - 1;
      const target = last ? nm : `${this.temp()} = `;
      this.emit(`${target}${step.op} ${cur} to ${to}`);
      if (!last) cur = `${to} ${target.slice(0, -3)}`;
    });
  }

  private call(inst: Instruction, nm: string): void {
    const isInvoke = inst.opcode === 'invoke';
    const calleeOp = inst.operands[0]!;
    const args = isInvoke ? inst.operands.slice(3) : inst.operands.slice(1);
    const target = calleeFunction(calleeOp);
    const plan = target ? this.ctx.plans.get(target) : undefined;
    if (target?.name && GC_INTRINSICS.has(target.name) && plan?.kind === 'keep') this.needsGc = true;
    if (plan?.kind === 'lower' && lowerIntrinsicCall(this, plan.how, inst, nm, args)) {
      if (isInvoke) this.emit(`br ${this.label(inst.operands[1]!)}`);
      return;
    }

    const ptrTy = calleeOp.type;
    if (ptrTy.kind !== 'pointer' || ptrTy.element.kind !== 'function') throw new UpgradeError('call through a value that is not a pointer to a function');
    const ft = ptrTy.element;
    const cc = callingConvention(inst.callingConv ?? 0, ft.isVarArg);
    const retOrFn = ft.isVarArg ? this.ctx.types.functionStr(ft) : this.ty(ft.returnType);
    let callee: string;
    let indirect = new Set<number>();
    if (calleeOp.kind === 'inlineasm') {
      const asm = upgradeConstraints(calleeOp.constraints);
      indirect = asm.indirectArgs;
      callee = `asm ${calleeOp.hasSideEffects ? 'sideeffect ' : ''}"${escapeString(calleeOp.asm)}", "${escapeString(asm.constraints)}"`;
    } else callee = target ? this.ctx.globalRef(target) : this.val(calleeOp);
    const argList = args
      .map((a, i) => {
        let attr = i === 0 && inst.callingConv === 1 && ft.params[0] ? sretAttr(this.ctx.types, ft.params[0]) : '';
        if (indirect.has(i) && a.type.kind === 'pointer') attr += ` elementtype(${this.ty(a.type.element)})`;
        return `${this.ty(a.type)}${attr} ${this.val(a)}`;
      })
      .join(', ');
    if (isInvoke) {
      this.emit(`${nm}call ${cc}${retOrFn} ${callee}(${argList}) ; LLVM 1.x: invoke, unwind to ${this.local(inst.operands[2]!)}`);
      this.emit(`br ${this.label(inst.operands[1]!)}`);
    } else {
      this.emit(`${nm}${inst.isTailCall ? 'tail ' : ''}call ${cc}${retOrFn} ${callee}(${argList})`);
    }
  }
}
