/**
 * One function body of the bitcode: DECLAREBLOCKS, the instructions with operands relative to
 * the value being defined (a forward reference wraps to 32 bits and carries its type), and the
 * function's value symbol table. The module writer (write-module.ts) has numbered every type,
 * constant and attribute list the body uses before the body is written.
 */
import type { BitstreamWriter } from './bitstream.js';
import { BINOP, BLOCK, CAST, FUNC_CODE, VST_CODE } from './codes.js';
import { nameOfKey, type IrAttributeSet, type IrConstant, type IrFunction, type IrInstruction, type IrOperand, type IrType, type IrValue } from './ir.js';
import { RecordOps } from './record-ops.js';
import { encodeAlign, predicate } from './encode.js';
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

// Instruction kinds: one Map lookup an instruction, then a switch on a small integer. A cast is
// CAST_KIND + its cast code, a binary operator BINOP_KIND + its operator code.
const CAST_KIND = 0x100;
const BINOP_KIND = 0x200;
const RET = 1;
const BR = 2;
const SWITCH = 3;
const UNREACHABLE = 4;
const RESUME = 5;
const CMP = 6;
const GEP = 7;
const LOAD = 8;
const STORE = 9;
const ALLOCA = 10;
const PHI = 11;
const SELECT = 12;
const EXTRACTELEMENT = 13;
const INSERTELEMENT = 14;
const SHUFFLEVECTOR = 15;
const EXTRACTVALUE = 16;
const INSERTVALUE = 17;
const VA_ARG = 18;
const LANDINGPAD = 19;
const CALL = 20;
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

export class FunctionWriter {
  private readonly locals = new Map<string, number>();
  private readonly blocks = new Map<string, number>();
  /** The id of the value the instruction being written defines (or would). */
  private next: number;
  private readonly rec = new RecordOps();
  /** A call's arguments, resolved before its callee (the order in which errors are found). */
  private readonly args = new RecordOps();

  constructor(
    private readonly mw: ModuleNumbering,
    private readonly f: IrFunction,
  ) {
    this.next = mw.valueCount();
  }

  write(): void {
    const f = this.f;
    const w = this.mw.writer;
    for (const p of f.params) this.define(p);
    const blocks = f.blocks!;
    for (let i = 0; i < blocks.length; i++) {
      const name = blocks[i]!.name;
      if (this.blocks.has(name)) throw new UpgradeError(`label %${nameOfKey(name)} is defined twice in @${nameOfKey(f.name)}`);
      this.blocks.set(name, i);
    }
    // Number the results before writing: operands may name later instructions.
    const first = this.next;
    for (const b of blocks) for (const inst of b.instructions) if (inst.type.kind !== 'void') this.define(inst.result ?? `#anon${this.next}`);
    this.next = first;

    w.enterBlock(BLOCK.FUNCTION, 4);
    this.rec.push(blocks.length);
    this.rec.writeTo(w, FUNC_CODE.DECLAREBLOCKS);
    for (const b of blocks) for (const inst of b.instructions) this.instruction(inst);
    this.symbols();
    w.endBlock();
  }

  private define(key: string): void {
    const locals = this.locals;
    const size = locals.size;
    locals.set(key, this.next++);
    if (locals.size === size) throw new UpgradeError(`%${nameOfKey(key)} is defined twice in @${nameOfKey(this.f.name)}`);
  }

  private id(v: IrValue): number {
    if (v.kind === 'const') return this.mw.constantId(v.constant);
    const id = this.locals.get(v.name);
    if (id === undefined) throw new UpgradeError(`%${nameOfKey(v.name)} is used but not defined in @${nameOfKey(this.f.name)}`);
    return id;
  }

  private block(name: string): number {
    const b = this.blocks.get(name);
    if (b === undefined) throw new UpgradeError(`label %${nameOfKey(name)} is used but not defined in @${nameOfKey(this.f.name)}`);
    return b;
  }

  /** Pushes the operand relative to the instruction being written (32-bit wrap for a forward reference). */
  private rel(v: IrValue, to: RecordOps = this.rec): void {
    to.push((this.next - this.id(v)) >>> 0);
  }

  /** Pushes the relative operand, with its type when it is a forward reference. */
  private typed(o: IrOperand, to: RecordOps = this.rec): void {
    const id = this.id(o.value);
    if (id >= this.next) {
      to.push((this.next - id) >>> 0);
      to.push(this.mw.typeId(o.type));
    } else to.push(this.next - id);
  }

  private type(t: IrType): void {
    this.rec.push(this.mw.typeId(t));
  }

  private instruction(inst: IrInstruction): void {
    const rec = this.rec;
    const ops = inst.operands;
    const kind = KIND.get(inst.opcode);
    if (kind === undefined) throw new UpgradeError(`instruction '${inst.opcode}' has no bitcode form here`);
    let code: number;
    if (kind >= BINOP_KIND) {
      this.typed(ops[0]!);
      this.rel(ops[1]!.value);
      rec.push(kind - BINOP_KIND);
      if (inst.flags) rec.push(inst.flags);
      code = FUNC_CODE.BINOP;
    } else if (kind >= CAST_KIND) {
      this.typed(ops[0]!);
      this.type(inst.type);
      rec.push(kind - CAST_KIND);
      code = FUNC_CODE.CAST;
    } else {
      switch (kind) {
        case RET:
          if (ops.length) this.typed(ops[0]!);
          code = FUNC_CODE.RET;
          break;
        case BR:
          if (ops.length) {
            rec.push(this.block(inst.labels[0]!));
            rec.push(this.block(inst.labels[1]!));
            this.rel(ops[0]!.value);
          } else rec.push(this.block(inst.labels[0]!));
          code = FUNC_CODE.BR;
          break;
        case SWITCH:
          this.type(ops[0]!.type);
          this.rel(ops[0]!.value);
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
          this.typed(ops[0]!);
          code = FUNC_CODE.RESUME;
          break;
        case CMP:
          this.typed(ops[0]!);
          this.rel(ops[1]!.value);
          rec.push(predicate(inst.opcode, inst.predicate));
          code = FUNC_CODE.CMP2;
          break;
        case GEP:
          rec.push(inst.inbounds ? 1 : 0);
          this.type(inst.auxType!);
          for (let i = 0; i < ops.length; i++) this.typed(ops[i]!);
          code = FUNC_CODE.GEP;
          break;
        case LOAD:
          this.typed(ops[0]!);
          this.type(inst.type);
          rec.push(encodeAlign(inst.align ?? 0));
          rec.push(inst.volatile ? 1 : 0);
          code = FUNC_CODE.LOAD;
          break;
        case STORE:
          this.typed(ops[0]!);
          this.typed(ops[1]!);
          rec.push(encodeAlign(inst.align ?? 0));
          rec.push(inst.volatile ? 1 : 0);
          code = FUNC_CODE.STORE;
          break;
        case ALLOCA: {
          const size = ops[0];
          const sizeType = size ? size.type : this.mw.allocaOne().type;
          const sizeId = size ? this.id(size.value) : this.mw.constantId(this.mw.allocaOne());
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
            const d = this.next - this.id(i.value);
            rec.push(d >= 0 ? d * 2 : -d * 2 + 1);
            rec.push(this.block(i.block));
          }
          code = FUNC_CODE.PHI;
          break;
        case SELECT:
          this.typed(ops[1]!);
          this.rel(ops[2]!.value);
          this.typed(ops[0]!);
          code = FUNC_CODE.VSELECT;
          break;
        case EXTRACTELEMENT:
          this.typed(ops[0]!);
          this.typed(ops[1]!);
          code = FUNC_CODE.EXTRACTELT;
          break;
        case INSERTELEMENT:
        case SHUFFLEVECTOR:
          this.typed(ops[0]!);
          this.rel(ops[1]!.value);
          this.typed(ops[2]!);
          code = kind === INSERTELEMENT ? FUNC_CODE.INSERTELT : FUNC_CODE.SHUFFLEVEC;
          break;
        case EXTRACTVALUE:
          this.typed(ops[0]!);
          for (const i of inst.indices!) rec.push(i);
          code = FUNC_CODE.EXTRACTVAL;
          break;
        case INSERTVALUE:
          this.typed(ops[0]!);
          this.typed(ops[1]!);
          for (const i of inst.indices!) rec.push(i);
          code = FUNC_CODE.INSERTVAL;
          break;
        case VA_ARG:
          this.type(ops[0]!.type);
          this.rel(ops[0]!.value);
          this.type(inst.type);
          code = FUNC_CODE.VAARG;
          break;
        case LANDINGPAD:
          this.type(inst.type);
          rec.push(inst.cleanup ? 1 : 0);
          rec.push(inst.clauses!.length);
          for (const c of inst.clauses!) {
            rec.push(c.kind);
            this.typed(c.value);
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
      if (i - 1 < fnType.params.length) this.rel(ops[i]!.value, args);
      else this.typed(ops[i]!, args);
    }
    const cc = inst.callingConv ?? 0;
    rec.push(attrs);
    if (invoke) {
      rec.push(cc | (1 << 13));
      rec.push(this.block(inst.labels[0]!));
      rec.push(this.block(inst.labels[1]!));
    } else rec.push((inst.tail ? 1 : 0) | (cc << 1) | (1 << 15));
    this.type(fnType);
    this.typed(ops[0]!);
    args.moveTo(rec);
    return invoke ? FUNC_CODE.INVOKE : FUNC_CODE.CALL;
  }

  private symbols(): void {
    let any = false;
    for (const k of this.locals.keys()) if (k.startsWith('n:')) any = true;
    for (const k of this.blocks.keys()) if (k.startsWith('n:')) any = true;
    if (!any) return;
    const w = this.mw.writer;
    const rec = this.rec;
    w.enterBlock(BLOCK.VALUE_SYMTAB, 4);
    for (const [k, id] of this.locals) {
      if (!k.startsWith('n:')) continue;
      rec.push(id);
      rec.chars(nameOfKey(k));
      rec.writeTo(w, VST_CODE.ENTRY);
    }
    for (const [k, id] of this.blocks) {
      if (!k.startsWith('n:')) continue;
      rec.push(id);
      rec.chars(nameOfKey(k));
      rec.writeTo(w, VST_CODE.BBENTRY);
    }
    w.endBlock();
  }
}
