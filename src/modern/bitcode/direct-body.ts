/**
 * A function body lowered straight into bitcode records, for `writeModern` of a large module.
 *
 * The bitcode is the text `printModern` writes, read back (parse-ir.ts) and written: the text is
 * the one place the lowering is spelled, so the two cannot disagree. For a body of the common
 * instructions that round trip was most of the time an upgrade to bitcode took (printing and
 * reading back some 80,000 lines, and an object for each instruction and operand: see
 * docs/performance.md). The upgrade's direct lowering (modern/direct-lowering.ts) hands such a
 * body here instead, as flat arrays of what the reader would have made of its lines: the same
 * kinds, the same interned types, the same constant objects (read from their text by the same
 * reader), each result numbered as the reader numbers it. `DirectBodyWriter` then numbers and
 * writes exactly what `FunctionWriter` would have for those lines: the tests compare the bytes
 * of both ways over the corpus.
 */
import type { BitstreamWriter } from './bitstream.js';
import { BLOCK, FUNC_CODE, VST_CODE } from './codes.js';
import { signRotatedNumber } from './encode.js';
import { nameOfKey, type IrConstant, type IrFunction, type IrType } from './ir.js';
import { RecordOps } from './record-ops.js';
import { withRoom } from '../../binary/int32-room.js';
import {
  BINOP_KIND,
  BR,
  CALL,
  CAST_KIND,
  CMP,
  GEP,
  LOAD,
  PHI,
  RET,
  STORE,
  UNREACHABLE,
  type BodyWriter,
  type ModuleNumbering,
  writeSymbol,
} from './write-function.js';

/** What the direct lowering needs of the reader that will read the rest of the module's text. */
export interface DirectBodyReader {
  /** The type spelled `text`, as the reader interns it. */
  typeOf(text: string): IrType;
  /** The constant spelled `text` as a value of `type`, as the reader reads it. */
  constantOf(type: IrType, text: string): IrConstant;
  /** Queues `body` for the next `{ ~ }` of the text. */
  addDirectBody(body: DirectBody): void;
}

/**
 * An operand that is a local defined later, numbered when the body is finished (`resolve`). An
 * operand's entry in `operandLocals` is otherwise a local's index (0 or more), or a constant's as
 * -1 - its index in `constants`.
 */
export const FORWARD = -0x80000000;

/**
 * The body's instructions as flat arrays, filled by `add` and the operand calls, in order. The
 * `extra` of an instruction holds what its record needs beyond operands and types: a binary
 * operator's or cast's code (in its kind), a comparison's predicate code, a load's or store's
 * encoded alignment times two plus `volatile`, a call's flags word.
 */
export class DirectBody {
  // The numbers in typed arrays, grown by doubling (withRoom); `instructionCount`, `operandCount`
  // and `labelCount` say how much of each is used.
  kinds: Int32Array<ArrayBuffer>;
  extras: Int32Array<ArrayBuffer>;
  /** The end (exclusive) of each instruction's operands and labels in the arrays below. */
  operandEnds: Int32Array<ArrayBuffer>;
  labelEnds: Int32Array<ArrayBuffer>;
  /**
   * The types the body uses, each once, and, by their index in it: each result's type, each
   * auxiliary type (plus one; 0 for none), each operand's type.
   */
  readonly typeTable: IrType[] = [];
  private readonly typeIndex = new Map<IrType, number>();
  private lastType: IrType | undefined;
  private lastTypeIndex = 0;
  types: Int32Array<ArrayBuffer>;
  auxTypes: Int32Array<ArrayBuffer>;
  operandTypes: Int32Array<ArrayBuffer>;
  /** Each operand: a local's index among the function's locals (parameters, then results), FORWARD, or -1 - a constant's index. */
  operandLocals: Int32Array<ArrayBuffer>;
  /** The constants the operands use, each once, in order of first use, and each one's index. */
  readonly constants: IrConstant[] = [];
  private readonly constantIndex = new Map<IrConstant, number>();
  /** Block operands: each block's index. */
  labels: Int32Array<ArrayBuffer>;
  /** Each result's name (the locals after the parameters, in order), undefined for a numbered one. */
  readonly resultNames: (string | undefined)[] = [];
  /** The name of each block by its index, undefined for a numbered one. */
  readonly blockNames: (string | undefined)[];
  instructionCount = 0;
  operandCount = 0;
  labelCount = 0;

  constructor(
    /** The function's parameters: the first locals. */
    readonly paramCount: number,
    blockNames: (string | undefined)[],
    /** How many instructions, operands and labels to make room for (more grow the arrays). */
    capacity: { readonly instructions: number; readonly operands: number; readonly labels: number },
  ) {
    this.blockNames = blockNames;
    const n = Math.max(16, capacity.instructions);
    this.kinds = new Int32Array(n);
    this.extras = new Int32Array(n);
    this.types = new Int32Array(n);
    this.auxTypes = new Int32Array(n);
    this.operandEnds = new Int32Array(n);
    this.labelEnds = new Int32Array(n);
    this.operandLocals = new Int32Array(Math.max(16, capacity.operands));
    this.operandTypes = new Int32Array(this.operandLocals.length);
    this.labels = new Int32Array(Math.max(16, capacity.labels));
  }

  /** Starts an instruction of `kind` whose result has `type` (void: none). */
  add(kind: number, type: IrType, auxType: IrType | undefined, extra: number): void {
    let i = this.instructionCount;
    if (i > 0) {
      this.operandEnds[i - 1] = this.operandCount;
      this.labelEnds[i - 1] = this.labelCount;
    }
    if (i === this.kinds.length) this.growInstructions();
    this.kinds[i] = kind;
    this.extras[i] = extra;
    this.types[i] = this.indexOf(type);
    this.auxTypes[i] = auxType === undefined ? 0 : this.indexOf(auxType) + 1;
    this.instructionCount = ++i;
  }

  /** Numbers the current instruction's result (named `name`, or numbered): its local index. */
  define(name: string | undefined): number {
    this.resultNames.push(name);
    return this.paramCount + this.resultNames.length - 1;
  }

  /** A local operand of the current instruction: `index`, or FORWARD (then `resolve` its position). */
  local(type: IrType, index: number): number {
    const k = this.operandCount;
    if (k === this.operandLocals.length) this.growOperands();
    this.operandLocals[k] = index;
    this.operandTypes[k] = this.indexOf(type);
    this.operandCount = k + 1;
    return k;
  }

  constant(type: IrType, c: IrConstant): void {
    const k = this.operandCount;
    if (k === this.operandLocals.length) this.growOperands();
    let index = this.constantIndex.get(c);
    if (index === undefined) {
      index = this.constants.length;
      this.constants.push(c);
      this.constantIndex.set(c, index);
    }
    this.operandLocals[k] = -1 - index;
    this.operandTypes[k] = this.indexOf(type);
    this.operandCount = k + 1;
  }

  label(block: number): void {
    if (this.labelCount === this.labels.length) this.labels = withRoom(this.labels, this.labelCount + 1);
    this.labels[this.labelCount++] = block;
  }

  /** The operand at `position`, recorded FORWARD, is the local `index`. */
  resolve(position: number, index: number): void {
    this.operandLocals[position] = index;
  }

  /** Ends the last instruction. */
  finish(): void {
    const i = this.instructionCount;
    if (i > 0) {
      this.operandEnds[i - 1] = this.operandCount;
      this.labelEnds[i - 1] = this.labelCount;
    }
  }

  /** `t`'s index in `typeTable` (added when new). */
  private indexOf(t: IrType): number {
    // Neighbouring instructions and operands mostly share a type: the last one answers first.
    if (t === this.lastType) return this.lastTypeIndex;
    let index = this.typeIndex.get(t);
    if (index === undefined) {
      index = this.typeTable.length;
      this.typeTable.push(t);
      this.typeIndex.set(t, index);
    }
    this.lastType = t;
    this.lastTypeIndex = index;
    return index;
  }

  private growInstructions(): void {
    const n = this.instructionCount + 1;
    this.kinds = withRoom(this.kinds, n);
    this.extras = withRoom(this.extras, n);
    this.types = withRoom(this.types, n);
    this.auxTypes = withRoom(this.auxTypes, n);
    this.operandEnds = withRoom(this.operandEnds, n);
    this.labelEnds = withRoom(this.labelEnds, n);
  }

  private growOperands(): void {
    const n = this.operandCount + 1;
    this.operandLocals = withRoom(this.operandLocals, n);
    this.operandTypes = withRoom(this.operandTypes, n);
  }
}

/**
 * Writes a `DirectBody` as `FunctionWriter` writes the body its text reads as: the types and
 * constants numbered in the same order (`collect`), the same records, the same value symbol
 * table.
 */
export class DirectBodyWriter implements BodyWriter {
  /** The value id of each of `DirectBody.constants` (-1 until numbered), found while collecting. */
  private constantIds: Int32Array;
  /** The module's id of each of `DirectBody.typeTable` (-1 until asked for). */
  private typeIds: Int32Array;
  private readonly rec = new RecordOps();
  private base = 0;
  private next = 0;

  constructor(
    private readonly mw: ModuleNumbering,
    private readonly f: IrFunction,
    private readonly body: DirectBody,
  ) {
    this.constantIds = new Int32Array(body.constants.length).fill(-1);
    this.typeIds = new Int32Array(body.typeTable.length).fill(-1);
  }

  /** The module's id of the body's type `index`, numbering it if it is new (as FunctionWriter's asking would). */
  private typeId(index: number): number {
    let id = this.typeIds[index]!;
    if (id < 0) this.typeIds[index] = id = this.mw.typeId(this.body.typeTable[index]!);
    return id;
  }

  collect(): void {
    const mw = this.mw;
    const b = this.body;
    const { kinds, types, auxTypes, operandEnds, operandTypes, operandLocals, constants } = b;
    const count = b.instructionCount;
    // A type asked for before has its number: asking again would only look it up (`typeId`).
    let j = 0;
    for (let i = 0; i < count; i++) {
      this.typeId(types[i]!);
      const aux = auxTypes[i]!;
      if (aux !== 0) this.typeId(aux - 1);
      // A phi's incoming values are not operands to the reader: only their constants are numbered.
      const typed = kinds[i] !== PHI;
      for (const end = operandEnds[i]!; j < end; j++) {
        if (typed) this.typeId(operandTypes[j]!);
        const local = operandLocals[j]!;
        // A constant is numbered at its first use (as FunctionWriter numbers it); at the others
        // it has its number already, which asking again would only look up.
        if (local < 0 && this.constantIds[-1 - local] === -1) {
          const k = -1 - local;
          this.constantIds[k] = mw.constantId(constants[k]!);
        }
      }
    }
  }

  write(): void {
    const b = this.body;
    const w = this.mw.writer;
    const rec = this.rec;
    const { kinds, types, auxTypes, extras, operandEnds, labelEnds, labels } = b;
    const count = b.instructionCount;
    this.base = this.mw.valueCount();
    this.next = this.base + b.paramCount;
    w.enterBlock(BLOCK.FUNCTION, 4);
    rec.push(b.blockNames.length);
    rec.writeTo(w, FUNC_CODE.DECLAREBLOCKS);
    let j = 0;
    let l = 0;
    for (let i = 0; i < count; i++) {
      const kind = kinds[i]!;
      const end = operandEnds[i]!;
      let code: number;
      if (kind >= BINOP_KIND) {
        this.typed(j);
        this.rel(j + 1);
        rec.push(kind - BINOP_KIND);
        code = FUNC_CODE.BINOP;
      } else if (kind >= CAST_KIND) {
        this.typed(j);
        rec.push(this.typeId(types[i]!));
        rec.push(kind - CAST_KIND);
        code = FUNC_CODE.CAST;
      } else {
        switch (kind) {
          case RET:
            if (end > j) this.typed(j);
            code = FUNC_CODE.RET;
            break;
          case BR:
            if (end > j) {
              rec.push(labels[l]!);
              rec.push(labels[l + 1]!);
              this.rel(j);
            } else rec.push(labels[l]!);
            code = FUNC_CODE.BR;
            break;
          case UNREACHABLE:
            code = FUNC_CODE.UNREACHABLE;
            break;
          case CMP:
            this.typed(j);
            this.rel(j + 1);
            rec.push(extras[i]!);
            code = FUNC_CODE.CMP2;
            break;
          case GEP:
            rec.push(0);
            rec.push(this.typeId(auxTypes[i]! - 1));
            for (let k = j; k < end; k++) this.typed(k);
            code = FUNC_CODE.GEP;
            break;
          case LOAD:
            this.typed(j);
            rec.push(this.typeId(types[i]!));
            rec.push(extras[i]! >> 1);
            rec.push(extras[i]! & 1);
            code = FUNC_CODE.LOAD;
            break;
          case STORE:
            this.typed(j);
            this.typed(j + 1);
            rec.push(extras[i]! >> 1);
            rec.push(extras[i]! & 1);
            code = FUNC_CODE.STORE;
            break;
          case PHI:
            rec.push(this.typeId(types[i]!));
            for (let k = j, m = l; k < end; k++, m++) {
              // Signed (sign-rotated VBR): an incoming value may come from a later instruction.
              rec.push(signRotatedNumber(this.next - this.id(k)));
              rec.push(labels[m]!);
            }
            code = FUNC_CODE.PHI;
            break;
          case CALL:
            // No attributes (the lowering takes only calls without any), the C calling convention.
            rec.push(0);
            rec.push(extras[i]!);
            rec.push(this.typeId(auxTypes[i]! - 1));
            this.typed(j);
            for (let k = j + 1; k < end; k++) this.rel(k);
            code = FUNC_CODE.CALL;
            break;
          default:
            throw new Error(`internal error: direct-body.ts: instruction kind ${kind}`);
        }
      }
      rec.writeTo(w, code);
      if (b.typeTable[types[i]!]!.kind !== 'void') this.next++;
      j = end;
      l = labelEnds[i]!;
    }
    this.symbols();
    w.endBlock();
  }

  /** The value id of operand `k`. */
  private id(k: number): number {
    const local = this.body.operandLocals[k]!;
    return local >= 0 ? this.base + local : this.constantIds[-1 - local]!;
  }

  /** Pushes operand `k` relative to the instruction being written (32-bit wrap for a forward reference). */
  private rel(k: number): void {
    this.rec.push((this.next - this.id(k)) >>> 0);
  }

  /** Pushes operand `k` relative, with its type when it is a forward reference. */
  private typed(k: number): void {
    const id = this.id(k);
    if (id >= this.next) {
      this.rec.push((this.next - id) >>> 0);
      this.rec.push(this.typeId(this.body.operandTypes[k]!));
    } else this.rec.push(this.next - id);
  }

  /** The value symbol table: named parameters and results in the order they are numbered, then named blocks. */
  private symbols(): void {
    const b = this.body;
    const params = this.f.params;
    const named = (k: string): boolean => k.startsWith('n:');
    if (!params.some(named) && !b.resultNames.some((n) => n !== undefined) && !b.blockNames.some((n) => n !== undefined)) return;
    const w: BitstreamWriter = this.mw.writer;
    const rec = this.rec;
    w.enterBlock(BLOCK.VALUE_SYMTAB, 4);
    params.forEach((k, i) => {
      if (named(k)) writeSymbol(w, rec, VST_CODE.ENTRY, this.base + i, nameOfKey(k));
    });
    b.resultNames.forEach((name, i) => {
      if (name !== undefined) writeSymbol(w, rec, VST_CODE.ENTRY, this.base + b.paramCount + i, name);
    });
    b.blockNames.forEach((name, i) => {
      if (name !== undefined) writeSymbol(w, rec, VST_CODE.BBENTRY, i, name);
    });
    w.endBlock();
  }
}
