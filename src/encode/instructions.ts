/**
 * Instruction encoding (LLVM 1.3/1.8/1.9's and r36867's `outputInstruction`): pseudo-opcodes for
 * calling conventions, tail calls and volatile accesses; the choice among the packed formats 1–3
 * (one, two or three small operands in one 32-bit word) and format 0 (vbr fields); varargs calls,
 * whose extra arguments carry their types. Version 3 pads after every format-0 instruction and
 * writes `vanext`'s argument type where a cast writes its target type.
 *
 * Version 7's differences are the row's: its twelve casts carry their target type as a cast did,
 * `icmp`/`fcmp` their predicate as a last field (its opcode table has them), a getelementptr's
 * sequential index one bit for i32 or i64 (`gepIndexEncoding: 'asTyped'`), an invoke always its
 * calling convention (`invokeCarriesCallingConv`), an attributed load/store its alignment and
 * volatility (`loadStoreAlignment`). Its bodies come from the graph (`writeGraphInstruction`):
 * r36867's numbering keeps no compact bodies.
 */
import { primitiveTypes, type FunctionType, type PointerType, type Type } from '../graph/type.js';
import { isCastOpcode, unheldCallingConvention, type Instruction, type Opcode, type Value } from '../graph/value.js';
import { OPCODE_NUMBER, OPCODES, type InstructionExtras } from '../graph/compact-body.js';
import { TAG_VALUE, typeOfCode, type CompactBody } from './body-view.js';
import type { EncodeContext, ModuleEncodeContext } from './context.js';
import { checkSignless, constantOperandSlot, encodedAlignment, pad, slotOf, typeSlotOf, writeTypeId } from './context.js';
import { predicateNumber } from './constant-pool.js';
import { EncodeError, notInModule } from './encode-error.js';
import { gepIndexKindsOfCodes, writtenStructIndex, type GepIndexKind } from './gep-indices.js';
import type { SlotNumbering } from './slot-numbering.js';

const NO_KINDS: readonly GepIndexKind[] = [];

const FAST_CC = 8;

/** The index-type tag of a sequential getelementptr index (0 uint, 1 int, 2 ulong, 3 long). */
function gepIndexTag(t: Type, version: number): number {
  switch (t.kind) {
    case 'uint':
      return 0;
    case 'int':
      return 1;
    case 'ulong':
      return 2;
    case 'long':
      return 3;
    default:
      throw new EncodeError(`a getelementptr index of type ${t.kind}`, version, 'a sequential index is a uint, int, ulong or long');
  }
}

/** A sequential getelementptr index's field: the slot with the row's type tag (two bits in versions 2–6, one bit for i32/i64 in version 7). */
function gepSequentialField(ctx: ModuleEncodeContext, slot: number, t: Type): number {
  if (ctx.row.gepIndexEncoding !== 'asTyped') return slot * 4 + gepIndexTag(t, ctx.row.version);
  if (t.kind !== 'integer' || (t.bits !== 32 && t.bits !== 64)) {
    throw new EncodeError(`a getelementptr index of type ${t.kind === 'integer' ? `i${t.bits}` : t.kind}`, ctx.row.version, 'indices are i32 or i64');
  }
  return slot * 2 + (t.bits === 64 ? 1 : 0);
}

/** Which compact opcodes carry a type as their last field, as a cast does: the casts of every version, `vaarg`, `vanext`. */
const CAST_LIKE: Uint8Array = (() => {
  const castLike = new Uint8Array(64);
  OPCODES.forEach((op, n) => {
    if (op === 'cast' || op === 'vaarg' || op === 'vanext' || isCastOpcode(op)) castLike[n] = 1;
  });
  return castLike;
})();

/**
 * The instruction being written, read from its function's body (see body-view.ts): opcode, result
 * type, extra fields, and its operands as the version writes them (a getelementptr's structure
 * indices converted, see gep-indices.ts). Scratch reused for every instruction, so writing one
 * allocates nothing.
 */
class Current {
  opcode: Opcode = 'ret';
  /** The opcode's number in the compact body (`OPCODES`). */
  opcodeNumber = 0;
  type: Type = primitiveTypes.void;
  extras: InstructionExtras = NO_EXTRAS;
  count = 0;
  /** Each operand's code, its value when it is not one of the body's own (tag 0), its type. */
  readonly codes: number[] = [];
  readonly values: (Value | undefined)[] = [];
  readonly types: (Type | undefined)[] = [];
  /** Whether operand k was converted (then its slot is its converted value's). */
  readonly rewritten: boolean[] = [];
  readonly kinds: GepIndexKind[] = [];
  /** The bytecode version being written (for the refusals of a module the verifier did not see). */
  version = 0;

  load(ctx: EncodeContext, body: CompactBody, operandBase: number, i: number, start: number, end: number, extras: InstructionExtras | undefined): void {
    const word = body.data[i]!;
    this.opcodeNumber = word & 63;
    this.version = ctx.row.version;
    this.opcode = OPCODES[word & 63]!;
    this.type = body.types[word >>> 6]!;
    this.extras = extras ?? NO_EXTRAS;
    const n = end - start;
    this.count = n;
    const { codes, values, types, rewritten } = this;
    for (let k = 0; k < n; k++) {
      const code = body.data[operandBase + start + k]!;
      codes[k] = code;
      rewritten[k] = false;
      if (code < 0) {
        values[k] = undefined;
        types[k] = undefined;
      } else if ((code & 3) === TAG_VALUE) {
        const v = body.values[code >>> 2]!;
        values[k] = v;
        types[k] = v.type;
      } else {
        values[k] = undefined;
        types[k] = typeOfCode(body, code);
      }
    }
    if (this.opcode === 'getelementptr') {
      gepIndexKindsOfCodes(body, operandBase, start, end, this.kinds);
      for (let k = 1; k < n; k++) {
        const v = values[k];
        if (this.kinds[k] !== 'struct' || v === undefined) continue;
        const written = writtenStructIndex(ctx.row, v);
        if (written !== v) {
          values[k] = written;
          types[k] = written.type;
          rewritten[k] = true;
        }
      }
    }
  }

  /**
   * Loads a graph instruction (version 7's bodies): every operand is a value, numbered through
   * `slotOf`; a getelementptr's indices are sequential or structure ones by the types they step
   * through, as r36867's `gep_type_iterator` walked them.
   */
  loadGraph(ctx: ModuleEncodeContext, inst: Instruction): void {
    this.opcode = inst.opcode;
    this.opcodeNumber = OPCODE_NUMBER[inst.opcode];
    this.version = ctx.row.version;
    this.type = inst.type;
    this.extras = inst;
    const ops = inst.operands;
    const n = ops.length;
    this.count = n;
    const { codes, values, types, rewritten } = this;
    for (let k = 0; k < n; k++) {
      codes[k] = -1;
      values[k] = ops[k];
      types[k] = ops[k]!.type;
      rewritten[k] = true;
    }
    if (inst.opcode !== 'getelementptr') return;
    const kinds = this.kinds;
    kinds.length = n;
    kinds[0] = 'none';
    let t: Type | undefined = ops[0]?.type;
    for (let k = 1; k < n; k++) {
      if (t === undefined) throw new EncodeError('a getelementptr indexing into a non-aggregate', this.version);
      if (t.kind === 'struct') {
        kinds[k] = 'struct';
        const idx = ops[k]!;
        t = t.elements[idx.kind === 'int' ? Number(idx.value) : -1];
      } else {
        kinds[k] = 'sequential';
        t = t.kind === 'pointer' || t.kind === 'array' || t.kind === 'packed' ? t.element : undefined;
      }
    }
  }

  /** The type of operand `k` (which must be there: the verifier saw to it). */
  typeOf(k: number): Type {
    const t = this.types[k];
    if (t === undefined)
      throw new EncodeError(
        `a ${this.opcode} instruction without its operand ${k}`,
        this.version,
        'the operand is missing (verify: false let the module through)',
      );
    return t;
  }

  /** The slot of operand `k` as an instruction operand. */
  slot(ctx: ModuleEncodeContext, k: number): number {
    if (this.rewritten[k]) return slotOf(ctx, this.values[k]!);
    // (Only a compact body's operands are codes: its writer's numbering is a `SlotNumbering`.)
    const s = (ctx.sc as SlotNumbering).codeSlot(this.codes[k]!);
    if (s < 0) {
      const v = this.values[k];
      throw notInModule(v !== undefined ? `a value (${v.kind})` : this.codes[k]! < 0 ? 'a missing operand' : 'a value of another function', ctx.row.version);
    }
    return s;
  }
}

const NO_EXTRAS: InstructionExtras = {};
const current = new Current();

/**
 * Which instructions `writePlainPacked` takes, by compact opcode number, and where their type
 * field comes from: 0 none (calls, invokes, getelementptr, vaarg/vanext, malloc/alloca:
 * anything with an extra field or operand), 1 the first operand's type (or the result type
 * without operands), 2 a store's value operand, 3 a branch's first label, 4 the result type,
 * 5 a cast's operand (whose target type follows as one more operand).
 */
const PLAIN_KIND: Uint8Array = (() => {
  const kinds = new Uint8Array(64);
  OPCODES.forEach((op, n) => {
    switch (op) {
      case 'cast':
        kinds[n] = 5;
        return;
      case 'call':
      case 'invoke':
      case 'getelementptr':
      case 'vaarg':
      case 'vanext':
      case 'malloc':
      case 'alloca':
        return;
      case 'store':
        kinds[n] = 2;
        return;
      case 'br':
        kinds[n] = 3;
        return;
      case 'select':
        kinds[n] = 4;
        return;
      default:
        kinds[n] = 1;
    }
  });
  return kinds;
})();

/**
 * The common case of `writeInstruction` straight from the body: an instruction without extra
 * fields of a plain kind (see `PLAIN_KIND`) with at most three operands, packed (formats 1–3)
 * where it fits, else as format 0. Anything else (or anything `writeInstruction` would refuse) answers false before
 * writing a byte, and the caller takes the general path, which then says what is wrong. The
 * checks come in `writeInstruction`'s order: opcode, signlessness, type, operands.
 */
function writePlainPacked(ctx: EncodeContext, body: CompactBody, operandBase: number, i: number, start: number, end: number): boolean {
  const data = body.data;
  const word = data[i]!;
  const op = word & 63;
  const kind = PLAIN_KIND[op]!;
  const count = end - start;
  if (kind === 0 || count > 3 || (kind === 5 && count !== 1)) return false;
  const c0 = count > 0 ? data[operandBase + start]! : 0;
  const c1 = count > 1 ? data[operandBase + start + 1]! : 0;
  const c2 = count > 2 ? data[operandBase + start + 2]! : 0;
  if (c0 < 0 || c1 < 0 || c2 < 0) return false;
  const opcode = ctx.opcodes.ofCompact(op, OPCODES[op]!);
  if (ctx.row.signlessInstructions && count === 2) checkSignless(ctx, OPCODES[op]!, typeOfCode(body, c0)!);
  let ty: Type;
  if (kind === 1) ty = count !== 0 ? typeOfCode(body, c0)! : body.types[word >>> 6]!;
  else if (kind === 2) {
    if (count < 2) return false;
    ty = typeOfCode(body, c1)!;
  } else if (kind === 3) ty = count !== 0 ? typeOfCode(body, count === 3 ? c1 : c0)! : body.types[word >>> 6]!;
  else if (kind === 4) ty = body.types[word >>> 6]!;
  else ty = typeOfCode(body, c0)!;
  const type = typeSlotOf(ctx, ty);
  const sc = ctx.sc;
  let s0 = 4095;
  let s1 = 0;
  let s2 = 0;
  let max = type;
  if (count > 0) {
    s0 = sc.codeSlot(c0);
    if (s0 < 0) return false;
    if (count > 1) {
      s1 = sc.codeSlot(c1);
      if (s1 < 0) return false;
      if (count > 2) {
        s2 = sc.codeSlot(c2);
        if (s2 < 0) return false;
        if (kind === 3) {
          // LLVM keeps a conditional branch's condition last: [ifTrue, ifFalse, cond].
          const cond = s0;
          s0 = s1;
          s1 = s2;
          s2 = cond;
        }
      }
    }
    if (s0 > max) max = s0;
    if (s1 > max) max = s1;
    if (s2 > max) max = s2;
  }
  const out = ctx.out;
  if (kind === 5) {
    // A cast: its operand, then its target type, as `writeInstruction` writes cast-like ones.
    const target = typeSlotOf(ctx, body.types[word >>> 6]!);
    if (target > max) max = target;
    if (max < 256) {
      out.uint32((2 | (opcode << 2) | (type << 8) | (s0 << 16) | (target << 24)) >>> 0);
      return true;
    }
    out.vbr32(opcode << 2);
    writeTypeId(ctx, type);
    out.vbr32(2);
    out.vbr32(s0);
    writeTypeId(ctx, target);
    if (ctx.row.longInstructionsPadded) pad(ctx);
    return true;
  }
  switch (count) {
    case 0:
    case 1:
      if (max >= 4095) break;
      out.uint32((1 | (opcode << 2) | (type << 8) | (s0 << 20)) >>> 0);
      return true;
    case 2:
      if (max >= 256) break;
      out.uint32((2 | (opcode << 2) | (type << 8) | (s0 << 16) | (s1 << 24)) >>> 0);
      return true;
    default:
      if (max >= 64) break;
      out.uint32((3 | (opcode << 2) | (type << 8) | (s0 << 14) | (s1 << 20) | (s2 << 26)) >>> 0);
      return true;
  }
  // Format 0, as `writeInstruction` writes it (the operands already in LLVM's order).
  out.vbr32(opcode << 2);
  writeTypeId(ctx, type);
  out.vbr32(count);
  if (count > 0) out.vbr32(s0);
  if (count > 1) out.vbr32(s1);
  if (count > 2) out.vbr32(s2);
  if (ctx.row.longInstructionsPadded) pad(ctx);
  return true;
}

function calleeType(cur: Current): FunctionType {
  return (cur.typeOf(0) as PointerType).element as FunctionType;
}

/**
 * Writes the instructions of `body` (the function being written, incorporated in `ctx.sc`), in
 * order. The packed format is LLVM's choice: the fewest operands that fit, the type slot and
 * every operand field small enough; anything else is format 0.
 */
export function writeInstructions(ctx: EncodeContext, body: CompactBody): void {
  const n = body.instructionCount;
  const data = body.data;
  const operandBase = 2 * n + body.blockCount;
  const { extraAt, extras } = body;
  let nextExtra = 0;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = data[n + i]!;
    let extra: InstructionExtras | undefined;
    if (nextExtra < extraAt.length && extraAt[nextExtra] === i) extra = extras[nextExtra++];
    if (extra !== undefined || !writePlainPacked(ctx, body, operandBase, i, start, end)) {
      current.load(ctx, body, operandBase, i, start, end, extra);
      writeInstruction(ctx, current);
    }
    start = end;
  }
}

/** Writes one instruction of the graph (version 7's bodies), as `writeInstructions` writes a body's. */
export function writeGraphInstruction(ctx: ModuleEncodeContext, inst: Instruction): void {
  current.loadGraph(ctx, inst);
  writeInstruction(ctx, current);
}

function writeInstruction(ctx: ModuleEncodeContext, inst: Current): void {
  const out = ctx.out;
  const x = inst.extras;
  const isCondBr = inst.opcode === 'br' && inst.count === 3;
  // Graph order; only a conditional br differs from LLVM's order, handled where slots are packed.
  // A getelementptr's structure indices take the type the version writes (see gep-indices.ts);
  // versions 0–1 then refuse what they cannot say, before any format is chosen.
  const gepKinds: readonly GepIndexKind[] = inst.opcode === 'getelementptr' ? inst.kinds : NO_KINDS;
  if (inst.opcode === 'getelementptr' && ctx.row.restrictedGEPTypes) checkRestrictedGep(ctx, inst, gepKinds);
  let opcode = inst.opcode === 'vaarg' ? ctx.opcodes.vaArg(x.legacyVarArgs === true) : ctx.opcodes.ofCompact(inst.opcodeNumber, inst.opcode);
  if (ctx.row.signlessInstructions && inst.count === 2) checkSignless(ctx, inst.opcode, inst.typeOf(0));
  let numOperands = inst.count;
  const cc = x.callingConv ?? 0;
  const unheld = unheldCallingConvention(inst.opcode, cc);
  if (unheld !== undefined) throw new EncodeError(unheld.construct, ctx.row.version, unheld.detail);

  // Version 7's attributed load/store field (`loadStoreAlignment`), or -1.
  let memoryAttributes = -1;
  if (inst.opcode === 'call') {
    if (cc === 0) {
      if (x.isTailCall) opcode = ctx.opcodes.pseudoOf('tailCallC', 'a tail call');
    } else if (cc === FAST_CC) {
      opcode = x.isTailCall ? ctx.opcodes.pseudoOf('tailCallFastCC', 'a fastcc tail call') : ctx.opcodes.pseudoOf('callFastCC', 'a fastcc call');
    } else {
      opcode = ctx.opcodes.pseudoOf('callWithCC', `a call with calling convention ${cc}`);
    }
  } else if (inst.opcode === 'invoke') {
    if (ctx.row.invokeCarriesCallingConv) {
      // (Version 7: no invoke pseudo-opcodes; every invoke's last field is its calling convention.)
    } else if (cc === FAST_CC) opcode = ctx.opcodes.pseudoOf('invokeFastCC', 'a fastcc invoke');
    else if (cc !== 0) opcode = ctx.opcodes.pseudoOf('invokeWithCC', `an invoke with calling convention ${cc}`);
  } else if (inst.opcode === 'load' || inst.opcode === 'store') {
    if (ctx.row.loadStoreAlignment) {
      // Version 7: a load/store with an alignment or volatile is "attributed": the pseudo-opcode and a last field.
      if ((x.alignment ?? 0) !== 0 || x.isVolatile === true) {
        memoryAttributes = encodedAlignment(x.alignment ?? 0) * 2 + (x.isVolatile === true ? 1 : 0);
        opcode = ctx.opcodes.pseudoOf(inst.opcode === 'load' ? 'volatileLoad' : 'volatileStore', `an attributed ${inst.opcode}`);
      }
    } else if (x.isVolatile) {
      opcode = inst.opcode === 'load' ? ctx.opcodes.pseudoOf('volatileLoad', 'a volatile load') : ctx.opcodes.pseudoOf('volatileStore', 'a volatile store');
    }
  }
  const isCallEscape = inst.opcode === 'call' && cc !== 0 && cc !== FAST_CC;
  const isInvokeEscape = inst.opcode === 'invoke' && (ctx.row.invokeCarriesCallingConv || (cc !== 0 && cc !== FAST_CC));

  let ty: Type;
  switch (inst.opcode) {
    case 'select':
    case 'malloc':
    case 'alloca':
      ty = inst.type;
      break;
    case 'store':
      ty = inst.typeOf(1);
      break;
    case 'br':
      ty = numOperands ? inst.typeOf(numOperands === 3 ? 1 : 0) : inst.type; // LLVM's first operand: a label
      break;
    default:
      ty = numOperands ? inst.typeOf(0) : inst.type;
  }
  const type = typeSlotOf(ctx, ty);

  if ((inst.opcode === 'call' || inst.opcode === 'invoke') && calleeType(inst).isVarArg) {
    writeVarArgsCall(ctx, inst, opcode, type, cc, isCallEscape, isInvokeEscape);
    return;
  }

  const isCastLike = CAST_LIKE[inst.opcodeNumber] === 1;
  const isCmp = inst.opcode === 'icmp' || inst.opcode === 'fcmp';
  // Version 7 keeps a malloc/alloca alignment in format 0 too (LLVM 1.x's format 0 had no field for it).
  const longAlignment = ctx.row.loadStoreAlignment && (inst.opcode === 'malloc' || inst.opcode === 'alloca') ? (x.alignment ?? 0) : 0;
  if (numOperands <= 3) {
    let maxOpSlot = type;
    // s0..s2: the packed operand fields (4095 in s0 marks "no operands" in format 1).
    let s0 = 4095;
    let s1 = 0;
    let s2 = 0;
    if (numOperands > 0) s0 = operandSlot(ctx, inst, 0);
    if (numOperands > 1) s1 = operandSlot(ctx, inst, 1);
    if (numOperands > 2) s2 = operandSlot(ctx, inst, 2);
    if (isCondBr) {
      // LLVM keeps a conditional branch's condition last: [ifTrue, ifFalse, cond].
      const cond = s0;
      s0 = s1;
      s1 = s2;
      s2 = cond;
    }
    if (numOperands > 0 && s0 > maxOpSlot) maxOpSlot = s0;
    if (s1 > maxOpSlot) maxOpSlot = s1;
    if (s2 > maxOpSlot) maxOpSlot = s2;
    if (isCastLike) {
      s1 = typeSlotOf(ctx, castLikeType(inst));
      if (s1 > maxOpSlot) maxOpSlot = s1;
      numOperands++;
    } else if (inst.opcode === 'malloc' || inst.opcode === 'alloca') {
      const align = x.alignment ?? 0;
      if (align && !ctx.row.hasPackedAndAttributes) throw new EncodeError(`${inst.opcode} alignment`, ctx.row.version);
      if (align) {
        s1 = encodedAlignment(align);
        if (s1 > maxOpSlot) maxOpSlot = s1;
        numOperands = 2;
      }
    } else if (inst.opcode === 'getelementptr' && !ctx.row.restrictedGEPTypes) {
      const seq = gepKinds;
      if (numOperands > 1 && seq[1] === 'sequential') {
        s1 = gepSequentialField(ctx, s1, inst.typeOf(1));
        if (s1 > maxOpSlot) maxOpSlot = s1;
      }
      if (numOperands > 2 && seq[2] === 'sequential') {
        s2 = gepSequentialField(ctx, s2, inst.typeOf(2));
        if (s2 > maxOpSlot) maxOpSlot = s2;
      }
    } else if (isCmp) {
      s2 = predicateNumber(ctx, inst.opcode as 'icmp' | 'fcmp', x.predicate);
      if (s2 > maxOpSlot) maxOpSlot = s2;
      numOperands = 3;
    } else if (memoryAttributes >= 0) {
      if (inst.opcode === 'load') {
        s1 = memoryAttributes;
        numOperands = 2;
      } else {
        s2 = memoryAttributes;
        numOperands = 3;
      }
      if (memoryAttributes > maxOpSlot) maxOpSlot = memoryAttributes;
    } else if (isCallEscape) {
      numOperands++;
      if (numOperands <= 3) {
        const word = cc * 2 + (x.isTailCall ? 1 : 0);
        if (numOperands === 1) s0 = word;
        else if (numOperands === 2) s1 = word;
        else s2 = word;
        if (word > maxOpSlot) maxOpSlot = word;
      }
    } else if (isInvokeEscape) {
      numOperands++;
    }

    switch (numOperands) {
      case 0:
      case 1:
        if (maxOpSlot < 4095) {
          out.uint32((1 | (opcode << 2) | (type << 8) | (s0 << 20)) >>> 0);
          return;
        }
        break;
      case 2:
        if (maxOpSlot < 256) {
          out.uint32((2 | (opcode << 2) | (type << 8) | (s0 << 16) | (s1 << 24)) >>> 0);
          return;
        }
        break;
      case 3:
        if (maxOpSlot < 64) {
          out.uint32((3 | (opcode << 2) | (type << 8) | (s0 << 14) | (s1 << 20) | (s2 << 26)) >>> 0);
          return;
        }
        break;
    }
  }

  // Format 0: opcode, type, operand count, then each operand as a vbr.
  out.vbr32(opcode << 2);
  writeTypeId(ctx, type);
  const n = inst.count;
  out.vbr32(n + (isCastLike || isInvokeEscape || isCallEscape || isCmp || memoryAttributes >= 0 || longAlignment !== 0 ? 1 : 0));
  if (inst.opcode !== 'getelementptr') {
    for (let i = 0; i < n; i++) out.vbr32(operandSlot(ctx, inst, isCondBr ? (i + 1) % 3 : i));
    if (isCastLike) writeTypeId(ctx, typeSlotOf(ctx, castLikeType(inst)));
    else if (isInvokeEscape) out.vbr32(cc);
    else if (isCallEscape) out.vbr32(cc * 2 + (x.isTailCall ? 1 : 0));
    else if (isCmp) out.vbr32(predicateNumber(ctx, inst.opcode as 'icmp' | 'fcmp', x.predicate));
    else if (longAlignment !== 0) out.vbr32(encodedAlignment(longAlignment));
    else if (memoryAttributes >= 0) out.vbr32(memoryAttributes);
  } else if (ctx.row.restrictedGEPTypes) {
    for (let i = 0; i < n; i++) out.vbr32(operandSlot(ctx, inst, i));
  } else {
    const seq = gepKinds;
    out.vbr32(inst.slot(ctx, 0));
    for (let i = 1; i < n; i++) {
      const s = inst.slot(ctx, i);
      out.vbr32(seq[i] === 'sequential' ? gepSequentialField(ctx, s, inst.typeOf(i)) : s);
    }
  }
  if (ctx.row.longInstructionsPadded) pad(ctx);
}

/**
 * Versions 0–1 (LLVM 1.0–1.2) do not write an index's type: a structure index is a `ubyte` (a
 * `uint` one below 256 is written as such, see gep-indices.ts), a sequential one a `long`. LLVM
 * 1.0–1.2 also wrote `uint` sequential indices, which a reader can tell from `long` ones only
 * when the `long` plane has no value at that slot; anything else cannot be written.
 */
function checkRestrictedGep(ctx: ModuleEncodeContext, inst: Current, kinds: readonly GepIndexKind[]): void {
  for (let i = 1; i < inst.count; i++) {
    const t = inst.typeOf(i);
    if (kinds[i] !== 'sequential') {
      if (t.kind !== 'ubyte') {
        throw new EncodeError(`a getelementptr structure index of type ${t.kind}`, ctx.row.version, 'structure indices were ubyte constants before LLVM 1.3');
      }
    } else if (t.kind !== 'long') {
      // A reader takes the index for a long when the long plane has a value at its slot.
      // (From version 1 the long plane always has its implicit null at slot 0.)
      const written = ctx.sc.getPlane(ctx.sc.typeSlot(primitiveTypes.long)).length;
      const longPlane = ctx.row.explicitPrimitiveZeros ? written : Math.max(written, 1);
      if (t.kind !== 'uint' || inst.slot(ctx, i) < longPlane) {
        throw new EncodeError(
          `a getelementptr array or pointer index of type ${t.kind}`,
          ctx.row.version,
          'sequential indices were long values before LLVM 1.3',
        );
      }
    }
  }
}

/**
 * The slot of graph operand `i`: a version-0 file may have named a global through its pointer
 * reference (see `Instruction.constantRefOperands`).
 */
function operandSlot(ctx: ModuleEncodeContext, inst: Current, i: number): number {
  const refs = inst.extras.constantRefOperands;
  if (refs !== undefined && refs.includes(i)) return constantOperandSlot(ctx, inst.values[i]!);
  return inst.slot(ctx, i);
}

/** The type a cast-like instruction carries: the target type, or `vanext`'s argument type. */
function castLikeType(inst: Current): Type {
  if (inst.opcode === 'vanext') {
    if (inst.extras.argType === undefined)
      throw new EncodeError('a vanext without its argument type', inst.version, 'extras.argType is missing (verify: false let the module through)');
    return inst.extras.argType;
  }
  return inst.type;
}

function writeVarArgsCall(
  ctx: ModuleEncodeContext,
  inst: Current,
  opcode: number,
  type: number,
  cc: number,
  isCallEscape: boolean,
  isInvokeEscape: boolean,
): void {
  const out = ctx.out;
  out.vbr32(opcode << 2);
  writeTypeId(ctx, type);
  const numParams = calleeType(inst).params.length;
  const numFixed = inst.opcode === 'call' ? 1 + numParams : 3 + numParams;
  out.vbr32(2 * inst.count - numFixed + (isCallEscape || isInvokeEscape ? 1 : 0));
  for (let i = 0; i < numFixed; i++) out.vbr32(operandSlot(ctx, inst, i));
  for (let i = numFixed; i < inst.count; i++) {
    writeTypeId(ctx, typeSlotOf(ctx, inst.typeOf(i)));
    out.vbr32(operandSlot(ctx, inst, i));
  }
  if (isCallEscape) out.vbr32(cc * 2 + (inst.extras.isTailCall ? 1 : 0));
  else if (isInvokeEscape) out.vbr32(cc);
  if (ctx.row.longInstructionsPadded) pad(ctx);
}
