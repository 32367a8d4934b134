/**
 * The InstructionList block (docs/format.md §11): the four encodings, operands by instruction,
 * pseudo-opcodes for calling conventions, tail calls and volatile memory access, and the upgrades
 * every version needs to reach the graph's opcodes (div/rem by operand type).
 *
 * This is the hottest loop of the reader (most of a file is instructions), so it avoids
 * per-instruction closures and objects: one reusable operand buffer, opcodes decoded through a
 * per-version lookup table, state kept in fields, and the instruction written into the function's
 * compact body (graph/compact-body.ts) as numbers, not built as an object.
 */
import type { BinaryReader } from '../binary/reader.js';
import { decodeOpcode, normalizeTypeId, resolveSignless, type DecodedOpcode, type FormatRow, type OpcodeName } from '../format/format-table.js';
import { isFloatingPoint, isSigned, primitiveTypes as P, type FunctionType, type Type } from '../graph/type.js';
import { heldCallingConvention, type Opcode } from '../graph/value.js';
import { describeType } from './context.js';
import { Op, OPCODE_NUMBER, TAG_VALUE, type InstructionExtras } from '../graph/compact-body.js';
import type { FunctionScope, InstructionListReader } from './function-scope.js';
import { readTypeId, TYPE_TYPE } from './types.js';

/** Format-1 operand value meaning "no operand". */
const NO_OPERAND = 4095;
/** Fast calling convention number. */
const FAST_CC = 8;
/** v2+ sequential getelementptr index types, by the two low bits of the operand. */
const GEP_INDEX_TYPES: readonly Type[] = [P.uint, P.int, P.ulong, P.long];

/** Terminators are the first opcodes of `OPCODES`. */
const LAST_TERMINATOR = Op.Unreachable;

const UNKNOWN_OPCODE: DecodedOpcode = { kind: 'unknown' };

/** Decoded instruction opcodes 0–63 of each format row, computed once. */
const OPCODE_CACHE = new WeakMap<FormatRow, readonly DecodedOpcode[]>();
function opcodeTable(row: FormatRow): readonly DecodedOpcode[] {
  let t = OPCODE_CACHE.get(row);
  if (t === undefined) {
    t = Array.from({ length: 64 }, (_, i) => decodeOpcode(row, i, false));
    OPCODE_CACHE.set(row, t);
  }
  return t;
}

const NUMBER_CACHE = new WeakMap<readonly DecodedOpcode[], Int32Array>();
function opcodeNumbers(table: readonly DecodedOpcode[]): Int32Array {
  let t = NUMBER_CACHE.get(table);
  if (t === undefined) {
    t = Int32Array.from(table, (d) => (d.kind === 'instruction' ? ((OPCODE_NUMBER as Record<string, number>)[d.name] ?? -1) : -1));
    NUMBER_CACHE.set(table, t);
  }
  return t;
}

/**
 * The fields of a call or invoke, shared by every instruction with the same ones: nearly every
 * call has them, the compact form is read-only, and materializing copies them (graph/compact-body.ts).
 * Calling conventions beyond the first 64 (none that LLVM 1.x named) get objects of their own.
 */
const SHARED_CALL_EXTRAS: (InstructionExtras | undefined)[] = [];
const SHARED_CONVENTIONS = 64;
function sharedCallExtras(name: 'call' | 'invoke', callingConv: number, tail: boolean): InstructionExtras {
  const make = (): InstructionExtras => Object.freeze(name === 'call' ? { callingConv, isTailCall: tail } : { callingConv });
  if (callingConv >= SHARED_CONVENTIONS) return make();
  const key = callingConv * 3 + (name === 'invoke' ? 2 : tail ? 1 : 0);
  return (SHARED_CALL_EXTRAS[key] ??= make());
}

/**
 * Reads instructions until the block ends. With `oneBlock` (the LLVM 1.0 BasicBlock block) the
 * whole list is one basic block; otherwise a block ends after each terminator.
 */
export function readInstructions(s: FunctionScope, oneBlock: boolean): void {
  (s.instructionReader ??= new InstructionReader(s)).readAll(oneBlock);
}

/** One per module (through its function scope): its state is set afresh for each instruction. */
class InstructionReader implements InstructionListReader {
  private readonly r: BinaryReader;
  private readonly row: FormatRow;
  private readonly opcodes: readonly DecodedOpcode[];
  /** `OPCODE_NUMBER` of each table entry's name (-1 where the name is not a graph opcode). */
  private readonly numbers: Int32Array;
  /** Whether operands naming a global through a constant's slot are recorded (version 0). */
  private readonly constantRefs: boolean;
  /** Raw operand numbers of the current instruction. */
  private raw: number[] = [];
  private n = 0;
  private opcode = 0;
  private typeId = 0;
  /** Offset of the current instruction (for errors). */
  private at = 0;
  /** Number of the current instruction in its function. */
  private index = 0;
  /** Where the current instruction's operands start in the body's operand section. */
  private base = 0;
  /** The current instruction's fields beyond opcode, type and operands, if any. */
  private extra: InstructionExtras | null = null;
  /** Whether the instruction just read ends its basic block. */
  private isTerminator = false;

  constructor(private readonly s: FunctionScope) {
    this.r = s.ctx.r;
    this.row = s.ctx.row;
    this.constantRefs = this.row.perFunctionConstantPools;
    this.opcodes = opcodeTable(this.row);
    this.numbers = opcodeNumbers(this.opcodes);
  }

  readAll(oneBlock: boolean): void {
    const inBlock = this.readList(oneBlock);
    const r = this.r;
    const s = this.s;
    if (oneBlock) {
      if (inBlock === 0) r.fail('empty basic block');
      s.completeBlock(s.instructionCount);
    } else if (inBlock > 0) {
      r.fail('the instruction list ends inside a basic block (its last instruction is not a terminator)');
    }
  }

  /**
   * The loop over the instructions; returns how many are in the basic block it ends in. The
   * loop ends its function: V8 compiles a long loop while it runs (on-stack replacement), and
   * code after it, never run by then, made that code give up at the loop's end, function after
   * function, when the checks that follow were here.
   */
  private readList(oneBlock: boolean): number {
    const r = this.r;
    const s = this.s;
    const limit = s.ctx.limits.maxInstructionsPerFunction;
    s.block(s.completedBlocks, r.pos);
    /** Instructions in the basic block being read. */
    let inBlock = 0;
    while (r.pos < r.end) {
      this.at = r.pos;
      if (++s.instructionCount > limit) r.fail(`more than the limit of ${limit} instructions in one function`, this.at);
      this.index = s.instructionCount - 1;
      this.readOne();
      inBlock++;
      if (this.isTerminator && !oneBlock) {
        s.completeBlock(s.instructionCount);
        inBlock = 0;
        if (r.pos < r.end) s.block(s.completedBlocks, r.pos);
      }
    }
    return inBlock;
  }

  /**
   * Reads the encoding: sets `opcode`, `typeId` and the raw operands `raw[0..n)`. The word is read
   * as two 16-bit halves, `lo` (bits 0–15) and `hi` (bits 16–31): a whole word from bit 30 up is
   * not a small integer to V8, so it was a heap number (allocated, when the reader's call was not
   * inlined) and its first appearance threw away this function's optimized code.
   */
  private readEncoding(): void {
    const r = this.r;
    const start = r.pos;
    if (r.end - start < 4) r.uint32(); // fails, saying what was missing
    const bytes = r.bytes;
    const lo = bytes[start]! | (bytes[start + 1]! << 8);
    const hi = bytes[start + 2]! | (bytes[start + 3]! << 8);
    r.pos = start + 4;
    const raw = this.raw;
    switch (lo & 3) {
      case 1: {
        const op = hi >>> 4; // bits 20–31
        this.n = 0;
        if (op !== NO_OPERAND) raw[this.n++] = op;
        this.opcode = (lo >>> 2) & 63;
        this.typeId = this.normalize((lo >>> 8) | ((hi & 15) << 8)); // bits 8–19
        return;
      }
      case 2:
        raw[0] = hi & 255; // bits 16–23
        raw[1] = hi >>> 8; // bits 24–31
        this.n = 2;
        this.opcode = (lo >>> 2) & 63;
        this.typeId = this.normalize(lo >>> 8); // bits 8–15
        return;
      case 3:
        raw[0] = ((lo >>> 14) | (hi << 2)) & 63; // bits 14–19
        raw[1] = (hi >>> 4) & 63; // bits 20–25
        raw[2] = hi >>> 10; // bits 26–31
        this.n = 3;
        this.opcode = (lo >>> 2) & 63;
        this.typeId = this.normalize((lo >>> 8) & 63); // bits 8–13
        return;
      default: {
        r.pos = start;
        this.opcode = r.vbr32() >>> 2;
        this.typeId = readTypeId(r, this.row);
        const n = r.checkCount(r.vbr32(), 1, this.s.ctx.limits.maxOperandsPerInstruction, 'instruction operands', start);
        if (raw.length < n) this.raw = new Array<number>(n);
        for (let i = 0; i < n; i++) this.raw[i] = r.vbr32();
        this.n = n;
        if (this.row.longInstructionsPadded) r.align32();
      }
    }
  }

  private normalize(id: number): number {
    if (this.row.typeTypePlaneId === null) return id;
    const n = normalizeTypeId(this.row, id);
    return n === 'typeType' ? TYPE_TYPE : n;
  }

  private need(count: number, name: string): void {
    if (this.n !== count) this.r.fail(`${name} with ${this.n} operand(s), expected ${count}`, this.at);
  }

  /**
   * Operand `index` of the current instruction: the value at `slot` of `t`'s plane, now or once it
   * is defined. Returns its value code, or -1 when it refers forward.
   */
  private value(index: number, t: Type, slot: number): number {
    const s = this.s;
    // (The common cases without a call: this runs for every operand, interpreted too at first.)
    const plane = t === s.lastType ? s.lastPlane! : s.plane(t);
    const at = this.base + index;
    const code = plane.code(slot);
    if (code >= 0) {
      s.scratch.operands[at] = code;
      if (this.constantRefs && (code & 3) === TAG_VALUE) {
        const v = s.values[code >>> 2]!;
        if ((v.kind === 'global' || v.kind === 'function') && !s.ctx.planes.isOwnSlot(slot, v)) (this.extras().constantRefOperands ??= []).push(index);
      }
      return code;
    }
    // A module plane of a damaged file may have a hole below its length.
    if (slot < plane.length) this.fail(`instruction operand refers to slot ${slot} of type ${describeType(t)}, which holds no value`);
    s.forward(at, plane, t, slot, this.at);
    return -1;
  }

  private label(index: number, slot: number): void {
    this.s.scratch.operands[this.base + index] = this.s.block(slot, this.at);
  }

  private extras(): InstructionExtras {
    return (this.extra ??= {});
  }

  private typeOperand(id: number): Type {
    return this.s.types.at(this.r, this.normalize(id), this.at);
  }

  private fail(message: string): never {
    return this.r.fail(message, this.at);
  }

  private readOne(): void {
    this.readEncoding();
    const s = this.s;
    const raw = this.raw;
    const n = this.n;
    const T = s.types.at(this.r, this.typeId, this.at);
    const decoded = this.opcodes[this.opcode] ?? UNKNOWN_OPCODE;
    let name: OpcodeName;
    let callingConv = 0;
    let tail = false;
    let pseudoCall = false;
    let volatile = false;
    let count = n;
    /** The graph's number for the opcode (-1 for names that are not the graph's). */
    let number: number;
    if (decoded.kind === 'instruction') {
      name = decoded.name;
      number = this.numbers[this.opcode]!;
    } else if (decoded.kind === 'pseudo') {
      pseudoCall = true;
      switch (decoded.pseudo) {
        case 'invokeWithCC':
          name = 'invoke';
          if (count === 0) this.fail('invoke without its calling-convention operand');
          callingConv = heldCallingConvention('invoke', raw[--count]!);
          break;
        case 'invokeFastCC':
          name = 'invoke';
          callingConv = FAST_CC;
          break;
        case 'callWithCC': {
          name = 'call';
          if (count === 0) this.fail('call without its calling-convention operand');
          const x = raw[--count]!;
          callingConv = heldCallingConvention('call', x >>> 1);
          tail = (x & 1) !== 0;
          break;
        }
        case 'tailCallFastCC':
          name = 'call';
          callingConv = FAST_CC;
          tail = true;
          break;
        case 'callFastCC':
          name = 'call';
          callingConv = FAST_CC;
          break;
        case 'tailCallC':
          name = 'call';
          tail = true;
          break;
        case 'volatileLoad':
          name = 'load';
          volatile = true;
          pseudoCall = false;
          break;
        default:
          name = 'store';
          volatile = true;
          pseudoCall = false;
      }
      number = name === 'call' ? Op.Call : name === 'invoke' ? Op.Invoke : name === 'load' ? Op.Load : Op.Store;
      this.n = count;
    } else {
      return this.fail(`unknown instruction opcode ${this.opcode}`);
    }

    const scratch = s.scratch;
    this.base = s.operandCount;
    if (this.base + count > scratch.operands.length) scratch.growOperands(this.base + count);
    this.extra = null;
    /** Operands the instruction keeps (some encodings carry a type or an alignment as the last number). */
    let kept = count;
    if (volatile) this.extras().isVolatile = true;
    let allocatedType: Type | undefined;
    let result: Type = T;
    // On the graph's opcode number, literal cases: a jump table even before V8 optimizes this
    // function (a switch on the name compared it with each case in turn, slowly while interpreted).
    switch (number) {
      case Op.Load:
        this.need(1, name);
        if (T.kind !== 'pointer') this.fail(`load from type ${describeType(T)}`);
        result = T.element;
        this.value(0, T, raw[0]!);
        break;
      case Op.Add:
      case Op.Sub:
      case Op.Mul:
      case Op.UDiv:
      case Op.SDiv:
      case Op.FDiv:
      case Op.URem:
      case Op.SRem:
      case Op.FRem:
      case Op.And:
      case Op.Or:
      case Op.Xor:
        this.need(2, name);
        this.value(0, T, raw[0]!);
        this.value(1, T, raw[1]!);
        break;
      case Op.SetEQ:
      case Op.SetNE:
      case Op.SetLE:
      case Op.SetGE:
      case Op.SetLT:
      case Op.SetGT:
        this.need(2, name);
        result = P.bool;
        this.value(0, T, raw[0]!);
        this.value(1, T, raw[1]!);
        break;
      case Op.Br:
        result = P.void;
        if (count === 1) this.label(0, raw[0]!);
        else {
          this.need(3, name);
          this.value(0, P.bool, raw[2]!);
          this.label(1, raw[0]!);
          this.label(2, raw[1]!);
        }
        break;
      case Op.Ret:
        result = P.void;
        if (count > 1) this.need(1, name);
        if (count === 1) this.value(0, T, raw[0]!);
        break;
      case Op.Store:
        this.need(2, name);
        if (T.kind !== 'pointer') this.fail(`store to type ${describeType(T)}`);
        result = P.void;
        this.value(0, T.element, raw[0]!);
        this.value(1, T, raw[1]!);
        break;
      case Op.GetElementPtr:
        result = this.getElementPtr(T);
        break;
      case Op.Cast:
        this.need(2, name);
        this.value(0, T, raw[0]!);
        kept = 1; // the second number is the target type, not an operand
        result = this.typeOperand(raw[1]!);
        break;
      case Op.Call:
      case Op.Invoke:
        result = this.call(number === Op.Call ? 'call' : 'invoke', T, callingConv, tail);
        kept = this.n;
        break;
      case Op.Phi:
        if (count === 0 || count % 2 !== 0) this.fail(`phi with ${count} operands`);
        for (let i = 0; i < count; i += 2) {
          this.value(i, T, raw[i]!);
          this.label(i + 1, raw[i + 1]!);
        }
        break;
      case Op.Switch:
        result = P.void;
        if (count < 2 || count % 2 !== 0) this.fail(`switch with ${count} operands`);
        this.value(0, T, raw[0]!);
        this.label(1, raw[1]!);
        for (let i = 2; i < count; i += 2) {
          this.value(i, T, raw[i]!);
          this.label(i + 1, raw[i + 1]!);
        }
        break;
      case Op.Unwind:
      case Op.Unreachable:
        this.need(0, name);
        result = P.void;
        break;
      case Op.Malloc:
      case Op.Alloca:
        if (T.kind !== 'pointer') this.fail(`${name} of type ${describeType(T)}, not a pointer`);
        if (count !== 1 && count !== 2) this.need(1, name);
        allocatedType = T.element;
        this.extras().allocatedType = allocatedType;
        kept = 1; // a second number is the alignment, not an operand
        this.value(0, P.uint, raw[0]!);
        this.extras().alignment = 0;
        if (count === 2) {
          if (!this.row.hasPackedAndAttributes) this.fail(`${name} with an alignment operand in version ${this.row.version}`);
          if (raw[1]! > 30) this.fail(`${name} alignment 2^${raw[1]! - 1} is too large`);
          this.extras().alignment = raw[1]! === 0 ? 0 : 2 ** (raw[1]! - 1);
        }
        break;
      case Op.Free:
        this.need(1, name);
        if (T.kind !== 'pointer') this.fail(`free of type ${describeType(T)}`);
        result = P.void;
        this.value(0, T, raw[0]!);
        break;
      case Op.VaArg:
        // In a file, 'vaarg' is the instruction of LLVM before 1.6 (it takes the va_list itself).
        result = this.vaArg(name, T, true);
        kept = 1;
        break;
      case Op.VaNext:
        this.need(2, name);
        this.value(0, T, raw[0]!);
        kept = 1;
        this.extras().argType = this.typeOperand(raw[1]!);
        break;
      case Op.Shl:
      case Op.Shr:
        this.need(2, name);
        this.value(0, T, raw[0]!);
        this.value(1, P.ubyte, raw[1]!);
        break;
      case Op.Select:
        this.need(3, name);
        this.value(0, P.bool, raw[0]!);
        this.value(1, T, raw[1]!);
        this.value(2, T, raw[2]!);
        break;
      case Op.ExtractElement:
        this.need(2, name);
        if (T.kind !== 'packed') this.fail(`extractelement of type ${describeType(T)}`);
        result = T.element;
        this.value(0, T, raw[0]!);
        this.value(1, P.uint, raw[1]!);
        break;
      case Op.InsertElement:
        this.need(3, name);
        if (T.kind !== 'packed') this.fail(`insertelement of type ${describeType(T)}`);
        this.value(0, T, raw[0]!);
        this.value(1, T.element, raw[1]!);
        this.value(2, P.uint, raw[2]!);
        break;
      case Op.ShuffleVector:
        this.need(3, name);
        if (T.kind !== 'packed') this.fail(`shufflevector of type ${describeType(T)}`);
        this.value(0, T, raw[0]!);
        this.value(1, T, raw[1]!);
        this.value(2, this.maskType(T.length), raw[2]!);
        break;
      default:
        // Names that are not the graph's opcodes, and those that cannot be in a body.
        if (name === 'va_arg') {
          result = this.vaArg(name, T, false);
          kept = 1;
          number = Op.VaArg;
        } else if (name === 'div' || name === 'rem') {
          // Versions 0–5 have one signless div/rem; the operand type picks the 1.9 opcode.
          const el = T.kind === 'packed' ? T.element : T;
          name = resolveSignless(name, isFloatingPoint(el) ? 'float' : isSigned(el) ? 'signed' : 'unsigned');
          this.need(2, name);
          this.value(0, T, raw[0]!);
          this.value(1, T, raw[1]!);
          number = OPCODE_NUMBER[name as Opcode];
        } else {
          this.fail(`instruction ${name} cannot appear in a function body`);
        }
    }
    if (pseudoCall && number !== Op.Call && number !== Op.Invoke) this.fail('calling-convention pseudo-opcode on a non-call');
    this.isTerminator = number <= LAST_TERMINATOR;
    const i = this.index;
    if (i >= scratch.opcodes.length) scratch.growInstructions(i);
    scratch.opcodes[i] = number | (s.typeIndex(result) << 6);
    s.operandCount = this.base + kept;
    scratch.opEnds[i] = s.operandCount;
    if (this.extra !== null) {
      s.addExtras(i, this.extra);
    }
    if (result !== P.void) s.plane(result).push(i * 4 + 1); // TAG_INSTRUCTION
  }

  /** A vaarg (`legacy`: of LLVM before 1.6) or va_arg: its operand, and its result type from the second number. */
  private vaArg(name: OpcodeName, T: Type, legacy: boolean): Type {
    const raw = this.raw;
    this.need(2, name);
    this.value(0, T, raw[0]!);
    const result = this.typeOperand(raw[1]!);
    if (legacy) this.extras().legacyVarArgs = true;
    return result;
  }

  private call(name: 'call' | 'invoke', T: Type, callingConv: number, tail: boolean): Type {
    const raw = this.raw;
    const count = this.n;
    if (T.kind !== 'pointer' || T.element.kind !== 'function') this.fail(`${name} of a value of type ${describeType(T)}, not a pointer to a function`);
    const ft = T.element as FunctionType;
    if (this.row.perFunctionConstantPools) {
      // (Operands may add constantRefOperands to the fields: they are the call's own.)
      const extra = this.extras();
      extra.callingConv = callingConv;
      if (name === 'call') extra.isTailCall = tail;
    } else {
      this.extra = sharedCallExtras(name, callingConv, tail);
    }
    const fixed = name === 'invoke' ? 3 : 1;
    const params = ft.params;
    if (count < fixed + params.length) this.fail(`${name} with ${count - fixed} argument(s) of a function taking ${params.length}`);
    this.value(0, T, raw[0]!);
    if (name === 'invoke') {
      this.label(1, raw[1]!);
      this.label(2, raw[2]!);
    }
    let i = fixed;
    for (let p = 0; p < params.length; p++, i++) this.value(i, params[p]!, raw[i]!);
    if (ft.isVarArg) {
      // Varargs: the extra arguments come as (type id, slot) pairs.
      if ((count - i) % 2 !== 0) this.fail(`${name} of a varargs function with an odd number of extra operands`);
      let index = i;
      for (; i < count; i += 2) this.value(index++, this.typeOperand(raw[i]!), raw[i + 1]!);
      this.n = index;
    } else if (i !== count) {
      this.fail(`${name} with ${count - fixed} argument(s) of a function taking ${params.length}`);
    }
    return ft.returnType;
  }

  private getElementPtr(T: Type): Type {
    const raw = this.raw;
    const count = this.n;
    const row = this.row;
    if (count < 1) this.need(1, 'getelementptr');
    if (T.kind !== 'pointer') this.fail(`getelementptr on type ${describeType(T)}`);
    this.value(0, T, raw[0]!);
    let cur: Type = T;
    for (let i = 1; i < count; i++) {
      const x = raw[i]!;
      if (cur.kind === 'struct') {
        const code = this.value(i, row.restrictedGEPTypes ? P.ubyte : P.uint, x);
        const c = code >= 0 && (code & 3) === TAG_VALUE ? this.s.values[code >>> 2] : undefined;
        if (c === undefined || c.kind !== 'int') this.fail('getelementptr structure index is not a constant');
        const field = Number(c.value);
        if (field >= cur.elements.length) this.fail(`getelementptr index ${field} of a structure with ${cur.elements.length} fields`);
        cur = cur.elements[field]!;
      } else if (cur.kind === 'pointer' || cur.kind === 'array' || cur.kind === 'packed') {
        if (i > 1 && cur.kind === 'pointer') this.fail('getelementptr indexes through a pointer');
        if (row.restrictedGEPTypes) this.value(i, this.restrictedSequentialIndexType(x), x);
        else this.value(i, GEP_INDEX_TYPES[x & 3]!, x >>> 2);
        cur = cur.element;
      } else {
        this.fail(`getelementptr indexes into type ${describeType(cur)}`);
      }
    }
    return count === 1 ? T : this.s.pointerTo(cur);
  }

  /**
   * Versions 0–1 do not say a sequential index's type: LLVM's readers assumed `long`. But LLVM
   * 1.0 and 1.1 still assembled `uint` indices from older sources and wrote their `uint` slots,
   * which their own readers then failed on (v0 Transforms__GCSE__2002-05-14-OperandSwap). When
   * the `long` plane has no such slot and the `uint` plane does, the index can only be a `uint`.
   */
  private restrictedSequentialIndexType(slot: number): Type {
    if (slot < this.s.plane(P.long).length) return P.long;
    return slot < this.s.plane(P.uint).length ? P.uint : P.long;
  }

  /** The `<n x uint>` type of a shufflevector mask, which the file must define (its plane holds the mask). */
  private maskType(length: number): Type {
    for (const t of this.s.types.types) if (t.kind === 'packed' && t.element === P.uint && t.length === length) return t;
    return this.fail(`shufflevector needs a mask of type <${length} x uint>, which the file does not define`);
  }
}
