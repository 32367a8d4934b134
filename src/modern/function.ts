/**
 * Function bodies in modern IR. Each 1.x instruction becomes one modern instruction that keeps
 * its name (or number), sometimes preceded by helper instructions with fresh names (`%x.1`,
 * `%up.3`) that take no number, so unnamed values are numbered exactly as a reader counting the
 * old listing (arguments, then blocks and value-producing instructions in order) would expect.
 *
 * Exceptions (docs/upgrade.md, "Exceptions"; the plan is made in exceptions.ts):
 * - `native` (default): `invoke` stays an invoke whose unwind edge goes through a landing pad of
 *   its own (catch everything, release the exception, branch to the 1.x `except` label; phis there
 *   take their entry from the pad); `unwind` calls the module's `@llvm1.unwind` helper, which
 *   raises through the platform unwinder. Invoke results used where the normal edge does not
 *   dominate live in a stack slot. Invokes of intrinsics and inline asm become `call` + `br`.
 * - `abort`: `unwind` becomes `call void @abort()` + `unreachable`, so no unwind edge can ever be
 *   taken, and `invoke` becomes `call` + `br` to its normal destination (which keeps 1.x's rule
 *   that an invoke's value is available wherever its block dominates).
 * Where an unwind edge disappears, the phis of the old unwind destination lose its entries.
 */
import type { Type } from '../graph/type.js';
import { opcodeClass } from '../graph/opcodes.js';
import type { Argument, BasicBlock, Constant, ConstantInt, Function, Instruction, Value } from '../graph/value.js';
import { upgradeConstraints } from './asm.js';
import { planCast } from './casts.js';
import { zeroOf, type Sink } from './constants.js';
import { acceptsConstantExpr } from './llvm-versions.js';
import { phiEdges, planExceptions, type ExceptionPlan, type NativeInvoke } from './exceptions.js';
import { GC_INTRINSICS } from './intrinsics.js';
import { lowerIntrinsicCall, TYPED_VA_LIST, VA_LIST, type BodyApi } from './lower-intrinsics.js';
import { callingConvention, type ModuleContext } from './module.js';
import { sretAttribute } from './sret.js';
import { escapeString, formatName, NameScope } from './names.js';
import { binaryOpcode, comparison, UpgradeError } from './ops.js';
import { TextLines } from './text.js';
import { intBits, isSignedInt, type TypePrinter } from './types.js';
import { valueAttributes } from './v7.js';
import { nextIndexed, planIndex, structField } from './gep.js';

/** The alignment version 7's aligned load/store keeps (power-of-two alignments only), else 0: none. */
export function keptAlignment(align: number | undefined): number {
  return align && (align & (align - 1)) === 0 ? align : 0;
}

/** `, align N` for version 7's aligned load/store (see `keptAlignment`). */
function alignSuffix(align: number | undefined): string {
  const kept = keptAlignment(align);
  return kept ? `, align ${kept}` : '';
}

/** The size of one `el` (a type's spelling), in bytes, as the constant expression LLVM folds. */
function sizeOfText(ctx: ModuleContext, el: string): string {
  return `ptrtoint (${ctx.ptr(el)} getelementptr (${el}, ${ctx.ptr(el)} null, i32 1) to i64)`;
}

/** A malloc's constant count as the i64 the size is multiplied by (zero-extended from its type). */
function mallocCount(count: ConstantInt): bigint {
  return BigInt.asUintN(intBits(count.type) || 64, count.value);
}

/**
 * The bytes of `count` elements of `el` (a type's spelling) as one constant expression, when
 * `count` is a constant and the LLVM written for takes the product as one (no `mul` from 21 on);
 * undefined when an instruction must compute it.
 */
export function constantMallocSize(ctx: ModuleContext, el: string, count: Value): string | undefined {
  if (count.kind !== 'int') return undefined;
  const sizeOf = sizeOfText(ctx, el);
  if (count.value === 1n) return sizeOf;
  return acceptsConstantExpr(ctx.constantRules, 'mul') ? `mul (i64 ${sizeOf}, i64 ${mallocCount(count)})` : undefined;
}

/**
 * The names of a function's values, given in the order a reader counts them (arguments, then
 * each block and its value-producing instructions; undefined or empty for none): each a name
 * spelled with `%` or, for an unnamed value, its number. Every original name is reserved first, so
 * a suffixed one never takes a later value's own name.
 */
export function claimLocalNames(given: readonly (string | undefined)[], scope: NameScope): (string | number)[] {
  for (let i = 0; i < given.length; i++) {
    const name = given[i];
    if (name) scope.reserve(name);
  }
  let next = 0;
  const claimed: (string | number)[] = new Array(given.length);
  for (let i = 0; i < given.length; i++) {
    const name = given[i];
    claimed[i] = name ? formatName('%', scope.claim(name)) : next++;
  }
  return claimed;
}

export interface FunctionBody {
  argNames: string[];
  lines: TextLines;
  needsGc: boolean;
  /** The body has landing pads, so the function needs a personality. */
  hasLandingPads: boolean;
}

/** Labels the upgrade gives a kept invoke: its landing pad and, for a demoted result, the block on its normal edge. */
interface InvokeLabels {
  readonly pad: string;
  readonly cont?: string;
}

/** A phi entry as printed: value text and incoming label. */
type PhiEntry = readonly [value: string, label: string];

/** A phi's entries as its instruction lists them. */
function phiText(entries: readonly PhiEntry[]): string {
  return entries.map(([v, l]) => `[ ${v}, ${l} ]`).join(', ');
}

function isLocal(v: Value): v is Argument | BasicBlock | Instruction {
  return v.kind === 'argument' || v.kind === 'block' || v.kind === 'instruction';
}

function isConstant(v: Value): v is Constant {
  return !isLocal(v);
}

/** The function a callee operand denotes once no-op pointer casts are looked through. */
export function calleeFunction(v: Value): Function | undefined {
  let c: Value = v;
  while (c.kind === 'expr' && c.opcode === 'cast' && c.operands[0]!.type.kind === 'pointer' && c.type.kind === 'pointer') c = c.operands[0]!;
  return c.kind === 'function' ? c : undefined;
}

export function printFunctionBody(ctx: ModuleContext, fn: Function): FunctionBody {
  return new BodyPrinter(ctx, fn).print();
}

class BodyPrinter implements Sink, BodyApi {
  /**
   * Each local's name: the spelled name, or for an unnamed value its number (spelled `%N` where
   * used: short strings that die young, where a string per value kept for the whole function
   * was copied by every young-generation collection on its way to the old one).
   */
  private readonly names = new Map<Value, string | number>();
  private readonly scope = new NameScope();
  private readonly out = new TextLines();
  private readonly types: TypePrinter;
  private needsGc = false;
  /** `alloca sbyte*` slots that 1.6+ code hands to llvm.va_start/va_copy as its va_list. */
  private readonly vaListSlots = new Set<Instruction>();
  private exc!: ExceptionPlan;
  /** Kept invokes (by block): the labels the upgrade adds for them. */
  private readonly invokeLabels = new Map<BasicBlock, InvokeLabels>();
  /** Stack slots of demoted invoke results. */
  private readonly slots = new Map<Instruction, string>();
  /** Loads of demoted values for phi entries, emitted at the end of the incoming block (by its label). */
  private readonly loadsAtEnd = new Map<string, string[]>();
  /**
   * Each phi's entries as printed (`[ %v, %bb ], …`; empty when it has none left), planned before
   * printing (their loads go into earlier blocks).
   */
  private readonly phiEntries = new Map<Instruction, string>();
  /** Lines emitted at the start of a block after its phis (the store of a demoted invoke result). */
  private readonly blockStarts = new Map<BasicBlock, string[]>();
  /** True while printing an ordinary instruction: a demoted value is then read from its slot. */
  private readingSlots = false;
  private current: BasicBlock | undefined;
  /** Replacements for phis that lost every entry, emitted after the block's phis. */
  private deferred: string[] = [];

  constructor(
    readonly ctx: ModuleContext,
    private readonly fn: Function,
  ) {
    this.types = ctx.types;
  }

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

  /** `%base` when free, else a fresh `%base.N` (for the blocks and slots the upgrade adds). */
  private derived(base: string): string {
    return formatName('%', this.scope.derive(base));
  }

  /** Names the function's values (`claimLocalNames`). */
  private assignNames(): void {
    const values: Value[] = [];
    const given: (string | undefined)[] = [];
    for (const a of this.fn.args) {
      values.push(a);
      given.push(a.name);
    }
    for (const bb of this.fn.blocks) {
      values.push(bb);
      given.push(bb.name);
      const insts = bb.instructions;
      for (let i = 0; i < insts.length; i++) {
        const inst = insts[i]!;
        if (inst.type.kind === 'void') continue;
        values.push(inst);
        given.push(inst.name);
      }
    }
    const claimed = claimLocalNames(given, this.scope);
    for (let i = 0; i < values.length; i++) this.names.set(values[i]!, claimed[i]!);
  }

  local(v: Value): string {
    const n = this.names.get(v);
    if (typeof n === 'number') return '%' + n;
    if (n === undefined) throw new UpgradeError(`value used outside its function (${v.kind})`);
    return n;
  }

  val(v: Value, sink: Sink | undefined = this): string {
    if (this.readingSlots && v.kind === 'instruction' && this.exc.demoted.has(v)) return this.reload(v, (line) => this.emit(line));
    if (isLocal(v)) return this.local(v);
    return this.ctx.consts.value(v, sink);
  }

  /** A fresh value loaded from a demoted invoke result's slot; `put` places the load. */
  private reload(v: Instruction, put: (line: string) => void): string {
    const t = this.temp(v.name ?? 'invoke');
    put(`${t} = load ${this.ty(v.type)}, ${this.ctx.ptr(this.ty(v.type))} ${this.slots.get(v)!}`);
    return t;
  }

  ty(t: Type): string {
    return this.types.str(t);
  }

  typed(v: Value, sink: Sink | undefined = this): string {
    return this.types.str(v.type) + ' ' + this.val(v, sink);
  }

  private label(bb: Value): string {
    return 'label ' + this.local(bb);
  }

  print(): FunctionBody {
    this.assignNames();
    this.planInvokes();
    this.findVaListSlots();
    const blocks = this.fn.blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const bb = blocks[bi]!;
      this.current = bb;
      const nm = this.local(bb);
      this.out.push(nm.slice(1) + ':');
      const starts = this.blockStarts.get(bb);
      if (starts !== undefined) for (const line of starts) this.deferred.push(line);
      if (bi === 0) for (const [v, slot] of this.slots) this.emit(`${slot} = alloca ${this.ty(v.type)} ; LLVM 1.x: the value of ${this.local(v)}`);
      const insts = bb.instructions;
      for (let i = 0; i < insts.length; i++) {
        const inst = insts[i]!;
        if (this.deferred.length && inst.opcode !== 'phi') {
          for (const line of this.deferred) this.emit(line);
          this.deferred = [];
        }
        if (i === insts.length - 1) {
          const loads = this.loadsAtEnd.get(nm);
          if (loads !== undefined) for (const line of loads) this.emit(line);
        }
        this.readingSlots = inst.opcode !== 'phi';
        this.instruction(inst);
        this.readingSlots = false;
      }
      const kept = this.exc.native.get(bb);
      if (kept) this.invokeBlocks(kept);
    }
    return {
      argNames: this.fn.args.map((a) => this.local(a)),
      lines: this.out,
      needsGc: this.needsGc,
      hasLandingPads: this.exc.native.size > 0,
    };
  }

  /**
   * Decides each invoke's fate (exceptions.ts), names the blocks and slots the kept ones need,
   * and plans every phi's entries, whose loads of demoted values go at the end of blocks that
   * may be printed before the phi.
   */
  private planInvokes(): void {
    this.exc = planExceptions(this.fn, this.ctx.exceptions, (inst) => this.canStayInvoke(inst));
    for (const [bb, k] of this.exc.native) {
      const pad = this.derived('lpad');
      const cont = k.splitNormalEdge ? this.derived('invoke.cont') : undefined;
      this.invokeLabels.set(bb, cont ? { pad, cont } : { pad });
      if (k.demoted) this.slots.set(k.inst, this.derived(`${k.inst.name ?? 'invoke'}.slot`));
      if (k.demoted && !cont) this.startLines(k.normal).push(this.slotStore(k.inst));
    }
    const plain = this.exc.native.size === 0 && this.exc.removedEdges.size === 0;
    for (const bb of this.fn.blocks) {
      for (const inst of bb.instructions) {
        if (inst.opcode !== 'phi') continue;
        this.phiEntries.set(inst, (plain ? this.plainPhi(inst) : undefined) ?? phiText(this.planPhi(inst, bb)));
      }
    }
  }

  /** Lines emitted at the start of a block, after its phis. */
  private startLines(bb: BasicBlock): string[] {
    let l = this.blockStarts.get(bb);
    if (!l) this.blockStarts.set(bb, (l = []));
    return l;
  }

  private slotStore(v: Instruction): string {
    return `store ${this.ty(v.type)} ${this.local(v)}, ${this.ctx.ptr(this.ty(v.type))} ${this.slots.get(v)!}`;
  }

  /**
   * Whether a 1.x invoke can stay an invoke: modern IR cannot invoke intrinsics (kept or lowered
   * ones; a `plain` one is an ordinary function now) or inline asm, none of which unwinds.
   */
  private canStayInvoke(inst: Instruction): boolean {
    const callee = inst.operands[0]!;
    if (callee.kind === 'inlineasm') return false;
    const target = calleeFunction(callee);
    const plan = target ? this.ctx.plans.get(target) : undefined;
    return plan === undefined || plan.kind === 'plain';
  }

  /** After a kept invoke's block: the normal-edge block that stores a demoted result, then the landing pad. */
  private invokeBlocks(k: NativeInvoke): void {
    const labels = this.invokeLabels.get(k.block)!;
    if (labels.cont) {
      this.out.push(`${labels.cont.slice(1)}:`);
      this.emit(this.slotStore(k.inst));
      for (const line of this.loadsAtEnd.get(labels.cont) ?? []) this.emit(line);
      this.emit(`br ${this.label(k.normal)}`);
    }
    // Catches every exception (this model's and foreign ones, as a 1.x invoke caught whatever
    // unwound through it) and releases it the way the Itanium ABI asks of a foreign handler.
    this.out.push(`${labels.pad.slice(1)}:`);
    const lp = this.derived('exn');
    const obj = this.derived('exn');
    const p = this.ctx.bytePtr;
    this.emit(`${lp} = landingpad { ${p}, i32 } catch ${p} null`);
    this.emit(`${obj} = extractvalue { ${p}, i32 } ${lp}, 0`);
    this.emit(`call void ${this.ctx.helper('_Unwind_DeleteException')}(${p} ${obj})`);
    for (const line of this.loadsAtEnd.get(labels.pad) ?? []) this.emit(line);
    this.emit(`br ${this.label(k.unwind)}`);
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
    const nm = inst.type.kind === 'void' ? '' : this.local(inst) + ' = ';
    const ops = inst.operands;
    // The opcodes of their own first (the commonest are among them), then the families.
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
        if (this.ctx.exceptions === 'native') this.emit(`call void ${this.ctx.unwindHelper()}() ; LLVM 1.x: unwind`);
        else this.emit(`call void ${this.ctx.helper('abort')}() ; LLVM 1.x: unwind`);
        this.emit('unreachable');
        return;
      case 'unreachable':
        this.emit('unreachable');
        return;
      case 'malloc':
        this.malloc(inst, nm);
        return;
      case 'free':
        this.emit(`call void ${this.ctx.helper('free')}(${this.asBytePtr(this.typed(ops[0]!))})`);
        return;
      case 'alloca': {
        if (this.vaListSlots.has(inst)) {
          if (!this.ctx.typed) {
            this.emit(`${nm}alloca ${VA_LIST} ; LLVM 1.x: alloca ${this.ty(inst.allocatedType!)} (its va_list)`);
            return;
          }
          // Typed pointers: the object is bytes; the 1.x value keeps its type through a bitcast.
          const object = this.temp(`${this.local(inst).slice(1).replace(/"/g, '')}.va`);
          this.emit(`${object} = alloca ${TYPED_VA_LIST} ; LLVM 1.x: alloca ${this.ty(inst.allocatedType!)} (its va_list)`);
          this.emit(`${nm}bitcast i8* ${object} to ${this.ty(inst.type)}`);
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
        this.emit(`${nm}load ${inst.isVolatile ? 'volatile ' : ''}${this.ty(inst.type)}, ${this.typed(ops[0]!)}${alignSuffix(inst.alignment)}`);
        return;
      case 'store':
        this.emit(`store ${inst.isVolatile ? 'volatile ' : ''}${this.typed(ops[0]!)}, ${this.typed(ops[1]!)}${alignSuffix(inst.alignment)}`);
        return;
      case 'getelementptr':
        this.gep(inst, nm);
        return;
      case 'phi':
        this.phi(inst, nm);
        return;
      case 'select':
        this.emit(`${nm}select ${ops.map((o) => this.typed(o)).join(', ')}`);
        return;
      case 'extractelement':
      case 'insertelement':
        this.emit(`${nm}${inst.opcode} ${ops.map((o) => this.typed(o)).join(', ')}`);
        return;
      case 'shufflevector': {
        const a = this.typed(ops[0]!);
        const b = this.typed(ops[1]!);
        // The mask is a constant (the verifier's rule); an element out of range becomes undef (ConstPrinter.shuffleMask).
        const mask = isConstant(ops[2]!) ? this.ctx.consts.shuffleMask(ops[2]!, ops[0]!.type) : undefined;
        this.emit(`${nm}shufflevector ${a}, ${b}, ${mask ? `${mask.type} ${mask.value}` : this.typed(ops[2]!)}`);
        return;
      }
      case 'vaarg':
        if (inst.legacyVarArgs) {
          // Pre-1.6 `vaarg` read the current argument of a va_list VALUE without advancing it:
          // read it from a copy.
          const copy = this.temp(`${this.local(inst).slice(1).replace(/"/g, '')}.va`);
          const p = this.ctx.bytePtr;
          this.emit(`${copy} = alloca ${this.vaList()}`);
          this.emit(`call void ${this.vaIntrinsic('copy')}(${p} ${copy}, ${this.asBytePtr(this.typed(ops[0]!))})`);
          this.emit(`${nm}va_arg ${p} ${copy}, ${this.ty(inst.type)}`);
          this.emit(`call void ${this.vaIntrinsic('end')}(${p} ${copy})`);
        } else {
          this.emit(`${nm}va_arg ${this.typed(ops[0]!)}, ${this.ty(inst.type)}`);
        }
        return;
      case 'vanext':
        // Pre-1.6 `vanext` gave a NEW va_list value one argument further on: a copy, advanced.
        this.emit(`${nm}alloca ${this.vaList()}`);
        this.emit(`call void ${this.vaIntrinsic('copy')}(${this.ctx.bytePtr} ${this.local(inst)}, ${this.asBytePtr(this.typed(ops[0]!))})`);
        this.emit(`${this.temp('skip')} = va_arg ${this.ctx.bytePtr} ${this.local(inst)}, ${this.ty(inst.argType!)}`);
        return;
      case 'userop1':
      case 'userop2':
        throw new UpgradeError(`${inst.opcode} is an LLVM-internal opcode with no meaning outside a pass`);
    }
    // The families, by their class in the one opcode table (graph/opcodes.ts).
    switch (opcodeClass(inst.opcode)) {
      case 'binary':
        this.emit(`${nm}${binaryOpcode(inst.opcode, ops[0]!.type)} ${this.typed(ops[0]!)}, ${this.val(ops[1]!)}`);
        return;
      case 'shift': // version 7's lshr/ashr: the amount has the value's type already
        this.emit(`${nm}${binaryOpcode(inst.opcode, ops[0]!.type)} ${this.typed(ops[0]!)}, ${this.shiftAmount(ops[1]!, ops[0]!.type)}`);
        return;
      case 'compare': // version 7: the predicate is the instruction's
        this.emit(`${nm}${inst.opcode} ${inst.predicate} ${this.typed(ops[0]!)}, ${this.val(ops[1]!)}`);
        return;
      case 'setcc': {
        const { inst: cmp, pred } = comparison(inst.opcode, ops[0]!.type);
        this.emit(`${nm}${cmp} ${pred} ${this.typed(ops[0]!)}, ${this.val(ops[1]!)}`);
        return;
      }
      case 'cast':
        // Version 7's twelve casts are LLVM 16's; 1.x's `cast` is chosen by its types.
        if (inst.opcode === 'cast') this.cast(inst, nm);
        else this.emit(`${nm}${inst.opcode} ${this.typed(ops[0]!)} to ${this.ty(inst.type)}`);
        return;
    }
  }

  vaIntrinsic(which: 'start' | 'end' | 'copy'): string {
    const p = this.ctx.bytePtr;
    return this.ctx.intrinsic(`llvm.va_${which}`, `declare void @llvm.va_${which}(${which === 'copy' ? `${p}, ${p}` : p})`);
  }

  /** What a va_list object is allocated as: LLVM 13 and 14's typed form is an `i8*` of the same bytes. */
  vaList(): string {
    return this.ctx.typed ? TYPED_VA_LIST : VA_LIST;
  }

  /**
   * A typed operand (`T* %x`) as the `i8*` a C helper or an intrinsic takes: with typed pointers
   * a bitcast before the current instruction when it is another pointer type; unchanged otherwise.
   */
  asBytePtr(operand: string): string {
    return this.asPointer(operand, this.ctx.bytePtr);
  }

  /** A typed operand as pointer type `want` (typed pointers only; opaque ones are all `ptr`). */
  asPointer(operand: string, want: string): string {
    if (!this.ctx.typed || operand.startsWith(`${want} `)) return operand;
    const t = this.temp();
    this.emit(`${t} = bitcast ${operand} to ${want}`);
    return `${want} ${t}`;
  }

  /** A 1.x shift amount (ubyte) converted to the shifted value's type. */
  private shiftAmount(amount: Value, valueType: Type): string {
    if (isConstant(amount)) {
      const typed = this.ctx.consts.shiftAmount(amount, valueType, this);
      return typed.slice(this.ty(valueType).length + 1);
    }
    const from = intBits(amount.type);
    const to = intBits(valueType);
    if (from === to) return this.val(amount);
    const t = this.temp();
    this.emit(`${t} = ${from < to ? 'zext' : 'trunc'} ${this.typed(amount)} to ${this.ty(valueType)}`);
    return t;
  }

  private malloc(inst: Instruction, nm: string): void {
    const count = inst.operands[0]!;
    const el = this.ty(inst.allocatedType!);
    const size = constantMallocSize(this.ctx, el, count) ?? this.mallocSizeComputed(count, sizeOfText(this.ctx, el));
    const align = inst.alignment ? ` ; LLVM 1.x: align ${inst.alignment}` : '';
    if (this.ctx.typed && this.ty(inst.type) !== 'i8*') {
      // Typed pointers: malloc gives i8*, cast to the 1.x result's type (the value keeps its name).
      const bytes = this.temp('malloc');
      this.emit(`${bytes} = call i8* ${this.ctx.helper('malloc')}(i64 ${size})${align}`);
      this.emit(`${nm}bitcast i8* ${bytes} to ${this.ty(inst.type)}`);
      return;
    }
    this.emit(`${nm}call ${this.ctx.bytePtr} ${this.ctx.helper('malloc')}(i64 ${size})${align}`);
  }

  /** A malloc's size in bytes computed by instructions before it (`constantMallocSize` has none): its local. */
  private mallocSizeComputed(count: Value, sizeOf: string): string {
    if (count.kind === 'int') {
      const size = this.temp();
      this.emit(`${size} = mul i64 ${sizeOf}, ${mallocCount(count)}`);
      return size;
    }
    let n = this.val(count);
    if (intBits(count.type) !== 64) {
      const wide = this.temp();
      this.emit(`${wide} = ${isSignedInt(count.type) ? 'sext' : 'zext'} ${this.typed(count)} to i64`);
      n = wide;
    }
    const size = this.temp();
    this.emit(`${size} = mul i64 ${n}, ${sizeOf}`);
    return size;
  }

  private gep(inst: Instruction, nm: string): void {
    const ops = inst.operands;
    const base = ops[0]!;
    const src = base.type.kind === 'pointer' ? base.type.element : base.type;
    let text = nm + 'getelementptr ' + this.ty(src) + ', ' + this.typed(base);
    let cur: Type | undefined = src;
    for (let k = 1; k < ops.length; k++) {
      const idx = ops[k]!;
      const field = structField(cur, k, idx);
      text += field >= 0 ? ', i32 ' + field : ', ' + this.seqIndex(idx);
      cur = nextIndexed(cur, k, field);
    }
    this.emit(text);
  }

  /** A sequential index as modern GEP takes it (`planIndex`). */
  private seqIndex(idx: Value): string {
    const plan = planIndex(idx.type, idx);
    if (plan.kind === 'same') return this.typed(idx);
    if (plan.kind === 'constant') return `i64 ${plan.text}`;
    const t = this.temp();
    this.emit(`${t} = zext ${this.typed(idx)} to i64`);
    return `i64 ${t}`;
  }

  private phi(inst: Instruction, nm: string): void {
    const entries = this.phiEntries.get(inst);
    if (!entries) {
      // The block lost its last predecessor (it was reached only by unwinding): no phi is
      // possible, and the value can never be observed.
      this.deferred.push(`${nm}freeze ${this.ty(inst.type)} undef`);
      return;
    }
    this.emit(nm + 'phi ' + this.ty(inst.type) + ' ' + entries);
  }

  /**
   * `planPhi`'s text for a function with no invokes, where every entry stays as it was: built
   * directly (undefined, for `planPhi` to decide, when an incoming value is not a block).
   */
  private plainPhi(inst: Instruction): string | undefined {
    const ops = inst.operands;
    for (let i = 1; i < ops.length; i += 2) if (ops[i]!.kind !== 'block') return undefined;
    let text = '';
    for (let i = 0; i + 1 < ops.length; i += 2) {
      const label = this.local(ops[i + 1]!);
      const value = ops[i]!;
      text += (i === 0 ? '[ ' : ', [ ') + this.entryValue(value, label) + ', ' + label + ' ]';
    }
    return text;
  }

  /**
   * A phi's entries in modern form. Entries for removed unwind edges are dropped, counting from
   * the end (the unwind edge is the invoke's second; an entry stays when it was the only one for a
   * block reached both ways). An entry on a kept invoke's unwind edge comes from its landing pad,
   * with `undef` for the invoke's own result (the call produced none); a block reached both ways
   * from a kept invoke with a single entry gets one per edge. Demoted values are loaded at the
   * end of the incoming block.
   */
  private planPhi(inst: Instruction, bb: BasicBlock): PhiEntry[] {
    const edges = phiEdges(inst, bb);
    const keep = edges.map(() => true);
    const removed = this.exc.removedEdges.get(bb);
    if (removed) {
      const count = new Map<BasicBlock, number>();
      for (const [, from] of edges) count.set(from, (count.get(from) ?? 0) + 1);
      const drop = new Map<BasicBlock, number>();
      for (const [from, n] of removed) {
        const normalToo = (from.instructions[from.instructions.length - 1]?.operands[1] ?? null) === bb;
        const have = count.get(from) ?? 0;
        drop.set(from, Math.max(0, Math.min(n, normalToo ? have - 1 : have)));
      }
      for (let i = edges.length - 1; i >= 0; i--) {
        const from = edges[i]![1];
        const d = drop.get(from) ?? 0;
        if (d > 0) {
          drop.set(from, d - 1);
          keep[i] = false;
        }
      }
    }
    const out: PhiEntry[] = [];
    const fromKept = new Map<BasicBlock, number>();
    edges.forEach(([value, from, edge], i) => {
      if (!keep[i]) return;
      out.push(this.phiEntry(value, from, edge));
      if (this.exc.native.has(from)) fromKept.set(from, (fromKept.get(from) ?? 0) + 1);
    });
    for (const [from, n] of fromKept) {
      const k = this.exc.native.get(from)!;
      if (n === 1 && k.normal === bb && k.unwind === bb) {
        const [value] = edges.find(([, f]) => f === from)!;
        out.push(this.phiEntry(value, from, 'unwind'));
      }
    }
    return out;
  }

  private phiEntry(value: Value, from: BasicBlock, edge: 'normal' | 'unwind'): PhiEntry {
    const k = this.exc.native.get(from);
    const labels = this.invokeLabels.get(from);
    const label = k && labels ? (edge === 'unwind' ? labels.pad : (labels.cont ?? this.local(from))) : this.local(from);
    if (k && value === k.inst) return [edge === 'unwind' ? 'undef' : this.local(value), label];
    if (value.kind === 'instruction' && this.exc.demoted.has(value)) {
      let l = this.loadsAtEnd.get(label);
      if (!l) this.loadsAtEnd.set(label, (l = []));
      return [this.reload(value, (line) => l.push(line)), label];
    }
    return [this.entryValue(value, label), label];
  }

  /** A phi entry's value from the block labelled `label`, as printed (a constant's instructions go at that block's end). */
  private entryValue(value: Value, label: string): string {
    return isLocal(value) ? this.local(value) : this.ctx.consts.value(value, this.atEndOf(label));
  }

  /** Where a phi entry's constant puts the instructions it needs: the end of the incoming block, on its edge. */
  private atEndOf(label: string): Sink {
    return {
      emit: (line) => {
        let l = this.loadsAtEnd.get(label);
        if (!l) this.loadsAtEnd.set(label, (l = []));
        l.push(line);
      },
      temp: () => this.temp(),
    };
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
    this.ctx.types.refuseOddParameters(ft);
    const cc = callingConvention(inst.callingConv ?? 0, ft.isVarArg);
    const retOrFn = ft.isVarArg ? this.ctx.types.functionStr(ft) : this.ty(ft.returnType);
    let callee: string;
    let indirect = new Set<number>();
    if (calleeOp.kind === 'inlineasm') {
      const asm = upgradeConstraints(calleeOp.constraints);
      if (asm.problem !== undefined) throw new UpgradeError(`inline asm whose constraints "${calleeOp.constraints}" LLVM cannot parse: ${asm.problem}`);
      // LLVM 1.9's InlineAsm::Verify held these too: only a damaged file breaks them, and no LLVM reads the result.
      if (asm.operands !== args.length || asm.outputs > 1 || (asm.outputs === 0) !== (ft.returnType.kind === 'void'))
        throw new UpgradeError(
          `inline asm whose constraints "${calleeOp.constraints}" do not match its call (${args.length} operands, ${ft.returnType.kind === 'void' ? 'no result' : 'a result'})`,
        );
      indirect = asm.indirectArgs;
      callee = `asm ${calleeOp.hasSideEffects ? 'sideeffect ' : ''}"${escapeString(calleeOp.asm)}", "${escapeString(asm.constraints)}"`;
    } else if (target && (!this.ctx.typed || target.type === calleeOp.type || this.ty(target.type) === this.ty(calleeOp.type)))
      callee = this.ctx.globalRef(target);
    // Typed pointers: a function called as another type keeps the cast (`bitcast (… @f to …)`).
    else callee = this.val(calleeOp);
    const argList = args
      .map((a, i) => {
        let attr = i === 0 && inst.callingConv === 1 && ft.params[0] ? sretAttribute(this.ctx.types, ft, 0, ft.params[0]) : '';
        if (i < ft.params.length) attr += valueAttributes(this.ctx.types, ft, i + 1, a.type); // version 7
        // LLVM 14 on wants the pointee of an indirect asm operand; LLVM 13 refuses the attribute there.
        if (indirect.has(i) && a.type.kind === 'pointer' && this.ctx.llvm >= 14) attr += ` elementtype(${this.ty(a.type.element)})`;
        return `${this.ty(a.type)}${attr} ${this.val(a)}`;
      })
      .join(', ');
    const labels = isInvoke ? this.invokeLabels.get(this.current!) : undefined;
    if (labels) {
      const normal = labels.cont ?? this.local(inst.operands[1]!);
      this.emit(
        `${nm}invoke ${cc}${retOrFn} ${callee}(${argList}) to label ${normal} unwind label ${labels.pad} ; LLVM 1.x: except label ${this.local(inst.operands[2]!)}`,
      );
    } else if (isInvoke) {
      this.emit(`${nm}call ${cc}${retOrFn} ${callee}(${argList}) ; LLVM 1.x: invoke, unwind to ${this.local(inst.operands[2]!)}`);
      this.emit(`br ${this.label(inst.operands[1]!)}`);
    } else {
      this.emit(`${nm}${inst.isTailCall ? 'tail ' : ''}call ${cc}${retOrFn} ${callee}(${argList})`);
    }
  }
}
