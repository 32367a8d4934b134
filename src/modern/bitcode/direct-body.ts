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
import { BINOP_KIND, BR, CALL, CAST_KIND, CMP, GEP, LOAD, PHI, RET, STORE, UNREACHABLE, type BodyWriter, type ModuleNumbering } from './write-function.js';

export { BINOP_KIND, BR, CALL, CAST_KIND, CMP, GEP, LOAD, PHI, RET, STORE, UNREACHABLE };

/** What the direct lowering needs of the reader that will read the rest of the module's text. */
export interface DirectBodyReader {
  /** The type spelled `text`, as the reader interns it. */
  typeOf(text: string): IrType;
  /** The constant spelled `text` as a value of `type`, as the reader reads it. */
  constantOf(type: IrType, text: string): IrConstant;
  /** Queues `body` for the next `{ ~ }` of the text. */
  addDirectBody(body: DirectBody): void;
}

/** An operand that is a constant (`operandLocal` is this; the constant is in `operandConstant`). */
const CONSTANT = -1;
/** An operand that is a local defined later, numbered when the body is finished (`resolve`). */
export const FORWARD = -2;

/**
 * The body's instructions as flat arrays, filled by `add` and the operand calls, in order. The
 * `extra` of an instruction holds what its record needs beyond operands and types: a binary
 * operator's or cast's code (in its kind), a comparison's predicate code, a load's or store's
 * encoded alignment times two plus `volatile`, a call's flags word.
 */
export class DirectBody {
  readonly kinds: number[] = [];
  readonly types: IrType[] = [];
  readonly auxTypes: (IrType | undefined)[] = [];
  readonly extras: number[] = [];
  /** The end (exclusive) of each instruction's operands and labels in the arrays below. */
  readonly operandEnds: number[] = [];
  readonly labelEnds: number[] = [];
  readonly operandTypes: IrType[] = [];
  /** A local's index among the function's locals (parameters, then results), CONSTANT or FORWARD. */
  readonly operandLocals: number[] = [];
  readonly operandConstants: (IrConstant | undefined)[] = [];
  /** Block operands: each block's index. */
  readonly labels: number[] = [];
  /** The name of each named local by its index (parameters' come from the function's header). */
  readonly localNames: (string | undefined)[] = [];
  /** The name of each block by its index, undefined for a numbered one. */
  readonly blockNames: (string | undefined)[];
  private locals: number;

  constructor(
    /** The function's parameters: the first locals. */
    readonly paramCount: number,
    blockNames: (string | undefined)[],
  ) {
    this.locals = paramCount;
    this.blockNames = blockNames;
  }

  /** Starts an instruction of `kind` whose result has `type` (void: none). */
  add(kind: number, type: IrType, auxType: IrType | undefined, extra: number): void {
    if (this.kinds.length) {
      this.operandEnds.push(this.operandTypes.length);
      this.labelEnds.push(this.labels.length);
    }
    this.kinds.push(kind);
    this.types.push(type);
    this.auxTypes.push(auxType);
    this.extras.push(extra);
  }

  /** Numbers the current instruction's result (named `name`, or numbered): its local index. */
  define(name: string | undefined): number {
    const n = this.locals++;
    if (name !== undefined) this.localNames[n] = name;
    return n;
  }

  /** A local operand of the current instruction: `index`, or FORWARD (then `resolve` its position). */
  local(type: IrType, index: number): number {
    this.operandTypes.push(type);
    this.operandLocals.push(index);
    this.operandConstants.push(undefined);
    return this.operandTypes.length - 1;
  }

  constant(type: IrType, c: IrConstant): void {
    this.operandTypes.push(type);
    this.operandLocals.push(CONSTANT);
    this.operandConstants.push(c);
  }

  label(block: number): void {
    this.labels.push(block);
  }

  /** The operand at `position`, recorded FORWARD, is the local `index`. */
  resolve(position: number, index: number): void {
    this.operandLocals[position] = index;
  }

  /** Ends the last instruction. */
  finish(): void {
    this.operandEnds.push(this.operandTypes.length);
    this.labelEnds.push(this.labels.length);
  }

  get instructionCount(): number {
    return this.kinds.length;
  }
}

/**
 * Writes a `DirectBody` as `FunctionWriter` writes the body its text reads as: the types and
 * constants numbered in the same order (`collect`), the same records, the same value symbol
 * table.
 */
export class DirectBodyWriter implements BodyWriter {
  /** Each constant operand's value id, found while collecting. */
  private constantIds: Int32Array;
  private readonly rec = new RecordOps();
  private base = 0;
  private next = 0;

  constructor(
    private readonly mw: ModuleNumbering,
    private readonly f: IrFunction,
    private readonly body: DirectBody,
  ) {
    this.constantIds = new Int32Array(body.operandTypes.length);
  }

  collect(): void {
    const mw = this.mw;
    const b = this.body;
    const { kinds, types, auxTypes, operandEnds, operandTypes, operandConstants } = b;
    let j = 0;
    for (let i = 0; i < kinds.length; i++) {
      mw.typeId(types[i]!);
      const aux = auxTypes[i];
      if (aux !== undefined) mw.typeId(aux);
      // A phi's incoming values are not operands to the reader: only their constants are numbered.
      const typed = kinds[i] !== PHI;
      for (const end = operandEnds[i]!; j < end; j++) {
        if (typed) mw.typeId(operandTypes[j]!);
        const c = operandConstants[j];
        if (c !== undefined) this.constantIds[j] = mw.constantId(c);
      }
    }
  }

  write(): void {
    const b = this.body;
    const w = this.mw.writer;
    const rec = this.rec;
    const { kinds, types, auxTypes, extras, operandEnds, labelEnds, labels } = b;
    this.base = this.mw.valueCount();
    this.next = this.base + b.paramCount;
    w.enterBlock(BLOCK.FUNCTION, 4);
    rec.push(b.blockNames.length);
    rec.writeTo(w, FUNC_CODE.DECLAREBLOCKS);
    let j = 0;
    let l = 0;
    for (let i = 0; i < kinds.length; i++) {
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
        rec.push(this.mw.typeId(types[i]!));
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
            rec.push(this.mw.typeId(auxTypes[i]!));
            for (let k = j; k < end; k++) this.typed(k);
            code = FUNC_CODE.GEP;
            break;
          case LOAD:
            this.typed(j);
            rec.push(this.mw.typeId(types[i]!));
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
            rec.push(this.mw.typeId(types[i]!));
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
            rec.push(this.mw.typeId(auxTypes[i]!));
            this.typed(j);
            for (let k = j + 1; k < end; k++) this.rel(k);
            code = FUNC_CODE.CALL;
            break;
          default:
            throw new Error(`internal error: direct-body.ts: instruction kind ${kind}`);
        }
      }
      rec.writeTo(w, code);
      if (types[i]!.kind !== 'void') this.next++;
      j = end;
      l = labelEnds[i]!;
    }
    this.symbols();
    w.endBlock();
  }

  /** The value id of operand `k`. */
  private id(k: number): number {
    const local = this.body.operandLocals[k]!;
    return local === CONSTANT ? this.constantIds[k]! : this.base + local;
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
      this.rec.push(this.mw.typeId(this.body.operandTypes[k]!));
    } else this.rec.push(this.next - id);
  }

  /** The value symbol table: named parameters and results in the order they are numbered, then named blocks. */
  private symbols(): void {
    const b = this.body;
    const params = this.f.params;
    const named = (k: string): boolean => k.startsWith('n:');
    if (!params.some(named) && b.localNames.length === 0 && !b.blockNames.some((n) => n !== undefined)) return;
    const w: BitstreamWriter = this.mw.writer;
    const rec = this.rec;
    w.enterBlock(BLOCK.VALUE_SYMTAB, 4);
    params.forEach((k, i) => {
      if (!named(k)) return;
      rec.push(this.base + i);
      rec.chars(nameOfKey(k));
      rec.writeTo(w, VST_CODE.ENTRY);
    });
    b.localNames.forEach((name, i) => {
      if (name === undefined) return;
      rec.push(this.base + i);
      rec.chars(name);
      rec.writeTo(w, VST_CODE.ENTRY);
    });
    b.blockNames.forEach((name, i) => {
      if (name === undefined) return;
      rec.push(i);
      rec.chars(name);
      rec.writeTo(w, VST_CODE.BBENTRY);
    });
    w.endBlock();
  }
}
