/**
 * One function body of the bitcode: DECLAREBLOCKS, the instructions with operands relative to
 * the value being defined (a forward reference wraps to 32 bits and carries its type), and the
 * function's value symbol table. The module writer (write-module.ts) has numbered every type,
 * constant and attribute list the body uses before the body is written.
 */
import type { BitstreamWriter } from './bitstream.js';
import { BINOP, BLOCK, CAST, FUNC_CODE, VST_CODE } from './codes.js';
import { nameOfKey, type IrAttributeSet, type IrConstant, type IrFunction, type IrInstruction, type IrOperand, type IrType, type IrValue } from './ir.js';
import { NameTable } from './name-table.js';
import { RecordOps } from './record-ops.js';
import { withRoom } from '../../binary/int32-room.js';
import { callFlags, encodeAlign, predicate, signRotatedNumber } from './encode.js';
import { UpgradeError } from '../upgrade-error.js';

/** What a function body needs of its module's numbering. */
export interface ModuleNumbering {
  readonly writer: BitstreamWriter;
  typeId(t: IrType): number;
  constantId(c: IrConstant): number;
  attributeListId(set: IrAttributeSet | undefined): number;
  /** `i32 1`, the element count of an `alloca` that gives none. */
  allocaOne(): IrConstant;
  /** Values of the module (globals and constants): the first local's id. */
  valueCount(): number;
}

/** A function body's writer: `collect` numbers what it uses in the module, `write` writes its block. */
export interface BodyWriter {
  collect(): void;
  write(): void;
}

// Instruction kinds: one Map lookup an instruction, then a switch on a small integer. A cast is
// CAST_KIND + its cast code, a binary operator BINOP_KIND + its operator code. (direct-body.ts
// writes the common ones from its own arrays, with the same kinds.)
/** An operand slot for a value resolved only when written (see `slots`). */
const UNRESOLVED = -0x80000000;
export const CAST_KIND = 0x100;
export const BINOP_KIND = 0x200;
export const RET = 1;
export const BR = 2;
const SWITCH = 3;
export const UNREACHABLE = 4;
const RESUME = 5;
export const CMP = 6;
export const GEP = 7;
export const LOAD = 8;
export const STORE = 9;
const ALLOCA = 10;
export const PHI = 11;
const SELECT = 12;
const EXTRACTELEMENT = 13;
const INSERTELEMENT = 14;
const SHUFFLEVECTOR = 15;
const EXTRACTVALUE = 16;
const INSERTVALUE = 17;
const VA_ARG = 18;
const LANDINGPAD = 19;
export const CALL = 20;
const INVOKE = 21;

const KIND: ReadonlyMap<string, number> = new Map([
  ...[...CAST].map(([name, code]) => [name, CAST_KIND + code] as const),
  ...[...BINOP].map(([name, code]) => [name, BINOP_KIND + code] as const),
  ['ret', RET],
  ['br', BR],
  ['switch', SWITCH],
  ['unreachable', UNREACHABLE],
  ['resume', RESUME],
  ['icmp', CMP],
  ['fcmp', CMP],
  ['getelementptr', GEP],
  ['load', LOAD],
  ['store', STORE],
  ['alloca', ALLOCA],
  ['phi', PHI],
  ['select', SELECT],
  ['extractelement', EXTRACTELEMENT],
  ['insertelement', INSERTELEMENT],
  ['shufflevector', SHUFFLEVECTOR],
  ['extractvalue', EXTRACTVALUE],
  ['insertvalue', INSERTVALUE],
  ['va_arg', VA_ARG],
  ['landingpad', LANDINGPAD],
  ['call', CALL],
  ['invoke', INVOKE],
]);

/** One entry of a value symbol table: a value's (ENTRY) or a block's (BBENTRY) id, then its name's characters. */
export function writeSymbol(w: BitstreamWriter, rec: RecordOps, code: number, id: number, name: string): void {
  rec.push(id);
  rec.chars(name);
  rec.writeTo(w, code);
}

export class FunctionWriter implements BodyWriter {
  /** Parameters and results, by name key: their index among the function's locals. */
  private readonly locals: NameTable;
  /** Blocks, by name key: their index. */
  private readonly blocks: NameTable;
  /** Locals numbered so far. */
  private numbered = 0;
  /**
   * The first local or label defined twice: thrown when the body is written (as when the locals
   * were numbered just before writing), so that what the module's collection refuses comes first.
   */
  private defect: UpgradeError | undefined;
  /** The id of the first local: the module's value count, known once the module is collected. */
  private base = 0;
  /** The id of the value the instruction being written defines (or would). */
  private next = 0;
  /** Each instruction's kind (KIND; 0 for an opcode with no record), found while collecting. */
  private readonly kinds: Uint16Array;
  /**
   * Each operand of each instruction, in order, as collecting resolved it: a constant's (or
   * global's) id; a local defined before the use as -1 - its index among the locals; UNRESOLVED
   * for a forward reference (or an undefined name), looked up again when written.
   */
  private slots = new Int32Array(256);
  private slotCount = 0;
  /** The first operand slot of the instruction being written. */
  private opStart = 0;
  private readonly rec = new RecordOps();
  /** A call's arguments, resolved before its callee (the order in which errors are found). */
  private readonly args = new RecordOps();

  /** Numbers the parameters and the blocks; `collect` then numbers the rest of the body. */
  constructor(
    private readonly mw: ModuleNumbering,
    private readonly f: IrFunction,
  ) {
    const blocks = f.blocks!;
    let instructions = 0;
    for (const b of blocks) instructions += b.instructions.length;
    this.kinds = new Uint16Array(instructions);
    this.locals = new NameTable(f.params.length + instructions);
    this.blocks = new NameTable(blocks.length);
    for (const p of f.params) this.define(p);
    for (let i = 0; i < blocks.length && !this.defect; i++) {
      const name = blocks[i]!.name;
      if (!this.blocks.add(name, i)) this.defect = new UpgradeError(`label %${nameOfKey(name)} is defined twice in @${nameOfKey(f.name)}`);
    }
  }

  /**
   * The walk before any record is written: numbers the types, constants and attribute lists the
   * body uses (in the module's numbering, in order of first use), and its results; resolves each
   * operand it can, so that writing touches the module's objects once more rather than twice.
   */
  collect(): void {
    const mw = this.mw;
    let n = 0;
    for (const b of this.f.blocks!)
      for (const inst of b.instructions) {
        this.kinds[n++] = KIND.get(inst.opcode) ?? 0;
        mw.typeId(inst.type);
        if (inst.auxType) mw.typeId(inst.auxType);
        const ops = inst.operands;
        for (let i = 0; i < ops.length; i++) {
          const o = ops[i]!;
          mw.typeId(o.type);
          const v = o.value;
          let slot: number;
          if (v.kind === 'const') slot = mw.constantId(v.constant);
          else {
            const local = this.locals.get(v.name);
            slot = local === undefined ? UNRESOLVED : -1 - local;
          }
          if (this.slotCount === this.slots.length) this.slots = withRoom(this.slots, this.slotCount + 1);
          this.slots[this.slotCount++] = slot;
        }
        if (inst.incoming) for (const i of inst.incoming) if (i.value.kind === 'const') mw.constantId(i.value.constant);
        if (inst.cases) for (const c of inst.cases) mw.constantId(c.value);
        if (inst.clauses)
          for (const c of inst.clauses) {
            mw.typeId(c.value.type);
            if (c.value.value.kind === 'const') mw.constantId(c.value.value.constant);
          }
        if (ops.length === 0 && inst.opcode === 'alloca') mw.constantId(mw.allocaOne());
        if (inst.attributes) mw.attributeListId(inst.attributes);
        // Numbered after its operands: an instruction that names its own result refers forward.
        if (inst.type.kind !== 'void') this.define(inst.result ?? `#anon${this.numbered}`);
      }
  }

  write(): void {
    if (this.defect) throw this.defect;
    const f = this.f;
    const w = this.mw.writer;
    const blocks = f.blocks!;
    this.base = this.mw.valueCount();
    this.next = this.base + f.params.length;
    w.enterBlock(BLOCK.FUNCTION, 4);
    this.rec.push(blocks.length);
    this.rec.writeTo(w, FUNC_CODE.DECLAREBLOCKS);
    let n = 0;
    this.opStart = 0;
    for (const b of blocks)
      for (const inst of b.instructions) {
        this.instruction(inst, this.kinds[n++]!);
        this.opStart += inst.operands.length;
      }
    this.symbols();
    w.endBlock();
  }

  private define(key: string): void {
    if (this.defect) return;
    if (!this.locals.add(key, this.numbered++)) this.defect = new UpgradeError(`%${nameOfKey(key)} is defined twice in @${nameOfKey(this.f.name)}`);
  }

  private id(v: IrValue): number {
    if (v.kind === 'const') return this.mw.constantId(v.constant);
    const local = this.locals.get(v.name);
    if (local === undefined) throw new UpgradeError(`%${nameOfKey(v.name)} is used but not defined in @${nameOfKey(this.f.name)}`);
    return this.base + local;
  }

  private block(name: string): number {
    const b = this.blocks.get(name);
    if (b === undefined) throw new UpgradeError(`label %${nameOfKey(name)} is used but not defined in @${nameOfKey(this.f.name)}`);
    return b;
  }

  /** The id of operand `k` of the instruction being written (`ops`, its operands). */
  private idAt(ops: readonly IrOperand[], k: number): number {
    const slot = this.slots[this.opStart + k]!;
    if (slot >= 0) return slot;
    if (slot === UNRESOLVED) return this.id(ops[k]!.value);
    return this.base - 1 - slot;
  }

  /** Pushes operand `k` relative to the instruction being written (32-bit wrap for a forward reference). */
  private rel(ops: readonly IrOperand[], k: number, to: RecordOps = this.rec): void {
    to.push((this.next - this.idAt(ops, k)) >>> 0);
  }

  /** Pushes operand `k` relative, with its type when it is a forward reference. */
  private typed(ops: readonly IrOperand[], k: number, to: RecordOps = this.rec): void {
    this.pushTyped(this.idAt(ops, k), ops[k]!.type, to);
  }

  /** Pushes the value `id` of type `t` relative, with its type when it is a forward reference. */
  private pushTyped(id: number, t: IrType, to: RecordOps): void {
    if (id >= this.next) {
      to.push((this.next - id) >>> 0);
      to.push(this.mw.typeId(t));
    } else to.push(this.next - id);
  }

  private type(t: IrType): void {
    this.rec.push(this.mw.typeId(t));
  }

  private instruction(inst: IrInstruction, kind: number): void {
    const rec = this.rec;
    const ops = inst.operands;
    if (kind === 0) throw new UpgradeError(`instruction '${inst.opcode}' has no bitcode form here`);
    let code: number;
    if (kind >= BINOP_KIND) {
      this.typed(ops, 0);
      this.rel(ops, 1);
      rec.push(kind - BINOP_KIND);
      if (inst.flags) rec.push(inst.flags);
      code = FUNC_CODE.BINOP;
    } else if (kind >= CAST_KIND) {
      this.typed(ops, 0);
      this.type(inst.type);
      rec.push(kind - CAST_KIND);
      code = FUNC_CODE.CAST;
    } else {
      switch (kind) {
        case RET:
          if (ops.length) this.typed(ops, 0);
          code = FUNC_CODE.RET;
          break;
        case BR:
          if (ops.length) {
            rec.push(this.block(inst.labels[0]!));
            rec.push(this.block(inst.labels[1]!));
            this.rel(ops, 0);
          } else rec.push(this.block(inst.labels[0]!));
          code = FUNC_CODE.BR;
          break;
        case SWITCH:
          this.type(ops[0]!.type);
          this.rel(ops, 0);
          rec.push(this.block(inst.labels[0]!));
          for (const c of inst.cases!) {
            rec.push(this.mw.constantId(c.value));
            rec.push(this.block(c.block));
          }
          code = FUNC_CODE.SWITCH;
          break;
        case UNREACHABLE:
          code = FUNC_CODE.UNREACHABLE;
          break;
        case RESUME:
          this.typed(ops, 0);
          code = FUNC_CODE.RESUME;
          break;
        case CMP:
          this.typed(ops, 0);
          this.rel(ops, 1);
          rec.push(predicate(inst.opcode, inst.predicate));
          code = FUNC_CODE.CMP2;
          break;
        case GEP:
          rec.push(inst.inbounds ? 1 : 0);
          this.type(inst.auxType!);
          for (let i = 0; i < ops.length; i++) this.typed(ops, i);
          code = FUNC_CODE.GEP;
          break;
        case LOAD:
          this.typed(ops, 0);
          this.type(inst.type);
          rec.push(encodeAlign(inst.align ?? 0));
          rec.push(inst.volatile ? 1 : 0);
          code = FUNC_CODE.LOAD;
          break;
        case STORE:
          this.typed(ops, 0);
          this.typed(ops, 1);
          rec.push(encodeAlign(inst.align ?? 0));
          rec.push(inst.volatile ? 1 : 0);
          code = FUNC_CODE.STORE;
          break;
        case ALLOCA: {
          const size = ops[0];
          const sizeType = size ? size.type : this.mw.allocaOne().type;
          const sizeId = size ? this.idAt(ops, 0) : this.mw.constantId(this.mw.allocaOne());
          this.type(inst.auxType!);
          this.type(sizeType);
          rec.push(sizeId);
          rec.push(encodeAlign(inst.align ?? 0) | (1 << 6));
          code = FUNC_CODE.ALLOCA;
          break;
        }
        case PHI:
          this.type(inst.type);
          for (const i of inst.incoming!) {
            // Signed (sign-rotated VBR): an incoming value may come from a later instruction.
            rec.push(signRotatedNumber(this.next - this.id(i.value)));
            rec.push(this.block(i.block));
          }
          code = FUNC_CODE.PHI;
          break;
        case SELECT:
          this.typed(ops, 1);
          this.rel(ops, 2);
          this.typed(ops, 0);
          code = FUNC_CODE.VSELECT;
          break;
        case EXTRACTELEMENT:
          this.typed(ops, 0);
          this.typed(ops, 1);
          code = FUNC_CODE.EXTRACTELT;
          break;
        case INSERTELEMENT:
        case SHUFFLEVECTOR:
          this.typed(ops, 0);
          this.rel(ops, 1);
          this.typed(ops, 2);
          code = kind === INSERTELEMENT ? FUNC_CODE.INSERTELT : FUNC_CODE.SHUFFLEVEC;
          break;
        case EXTRACTVALUE:
          this.typed(ops, 0);
          for (const i of inst.indices!) rec.push(i);
          code = FUNC_CODE.EXTRACTVAL;
          break;
        case INSERTVALUE:
          this.typed(ops, 0);
          this.typed(ops, 1);
          for (const i of inst.indices!) rec.push(i);
          code = FUNC_CODE.INSERTVAL;
          break;
        case VA_ARG:
          this.type(ops[0]!.type);
          this.rel(ops, 0);
          this.type(inst.type);
          code = FUNC_CODE.VAARG;
          break;
        case LANDINGPAD:
          this.type(inst.type);
          rec.push(inst.cleanup ? 1 : 0);
          rec.push(inst.clauses!.length);
          for (const c of inst.clauses!) {
            rec.push(c.kind);
            this.pushTyped(this.id(c.value.value), c.value.type, rec);
          }
          code = FUNC_CODE.LANDINGPAD;
          break;
        default:
          code = this.call(inst, kind === INVOKE);
      }
    }
    rec.writeTo(this.mw.writer, code);
    if (inst.type.kind !== 'void') this.next++;
  }

  /** Fills a call's or an invoke's record; returns its code. */
  private call(inst: IrInstruction, invoke: boolean): number {
    const fnType = inst.auxType!;
    if (fnType.kind !== 'function') throw new UpgradeError('a call without a function type');
    const ops = inst.operands;
    const rec = this.rec;
    const attrs = this.mw.attributeListId(inst.attributes);
    // The fixed parameters are relative ids alone; what a varargs call passes beyond them carries its type.
    const args = this.args;
    for (let i = 1; i < ops.length; i++) {
      if (i - 1 < fnType.params.length) this.rel(ops, i, args);
      else this.typed(ops, i, args);
    }
    const cc = inst.callingConv ?? 0;
    rec.push(attrs);
    if (invoke) {
      rec.push(cc | (1 << 13));
      rec.push(this.block(inst.labels[0]!));
      rec.push(this.block(inst.labels[1]!));
    } else rec.push(callFlags(inst.tail === true, cc));
    this.type(fnType);
    this.typed(ops, 0);
    args.moveTo(rec);
    return invoke ? FUNC_CODE.INVOKE : FUNC_CODE.CALL;
  }

  private symbols(): void {
    let any = false;
    for (const [k] of this.locals.others()) if (k.startsWith('n:')) any = true;
    for (const [k] of this.blocks.others()) if (k.startsWith('n:')) any = true;
    if (!any) return;
    const w = this.mw.writer;
    const rec = this.rec;
    w.enterBlock(BLOCK.VALUE_SYMTAB, 4);
    for (const [k, local] of this.locals.others()) if (k.startsWith('n:')) writeSymbol(w, rec, VST_CODE.ENTRY, this.base + local, nameOfKey(k));
    for (const [k, id] of this.blocks.others()) if (k.startsWith('n:')) writeSymbol(w, rec, VST_CODE.BBENTRY, id, nameOfKey(k));
    w.endBlock();
  }
}
