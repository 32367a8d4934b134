import type { BinaryReader } from '../binary/reader.js';
/**
 * The InstructionList block (docs/format.md §11): the four encodings, operands by instruction,
 * pseudo-opcodes for calling conventions, tail calls and volatile memory access, and the upgrades
 * every version needs to reach the graph's opcodes (div/rem by operand type).
 */
import { decodeOpcode, normalizeTypeId, resolveSignless, type OpcodeName } from '../format/format-table.js';
import { isFloatingPoint, isSigned, primitiveTypes as P, type FunctionType, type Type } from '../graph/type.js';
import type { Instruction, Opcode } from '../graph/value.js';
import { describeType } from './context.js';
import type { FunctionScope } from './function-scope.js';
import { readTypeId, TYPE_TYPE } from './types.js';

/** Format-1 operand value meaning "no operand". */
const NO_OPERAND = 4095;
/** Fast calling convention number. */
const FAST_CC = 8;
/** v2+ sequential getelementptr index types, by the two low bits of the operand. */
const GEP_INDEX_TYPES: readonly Type[] = [P.uint, P.int, P.ulong, P.long];

const TERMINATORS: ReadonlySet<string> = new Set(['ret', 'br', 'switch', 'invoke', 'unwind', 'unreachable']);
const BINARY: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'udiv', 'sdiv', 'fdiv', 'urem', 'srem', 'frem', 'and', 'or', 'xor']);
const SETCC: ReadonlySet<string> = new Set(['seteq', 'setne', 'setle', 'setge', 'setlt', 'setgt']);

/**
 * Reads instructions until the block ends. With `oneBlock` (the LLVM 1.0 BasicBlock block) the
 * whole list is one basic block; otherwise a block ends after each terminator.
 */
export function readInstructions(s: FunctionScope, oneBlock: boolean): void {
  const r: BinaryReader = s.r;
  const limit = s.ctx.limits.maxInstructionsPerFunction;
  let current = s.block(s.completedBlocks, r.pos);
  const raw: number[] = [];
  while (!r.atEnd()) {
    const at = r.pos;
    if (++s.instructionCount > limit) r.fail(`more than the limit of ${limit} instructions in one function`, at);
    const inst = readInstruction(s, raw, at);
    current.instructions.push(inst);
    if (!oneBlock && TERMINATORS.has(inst.opcode)) {
      s.completedBlocks++;
      if (!r.atEnd()) current = s.block(s.completedBlocks, r.pos);
    }
  }
  if (oneBlock) {
    if (current.instructions.length === 0) r.fail('empty basic block');
    s.completedBlocks++;
  } else if (current.instructions.length > 0 && !TERMINATORS.has(current.instructions[current.instructions.length - 1]!.opcode)) {
    r.fail('the instruction list ends inside a basic block (its last instruction is not a terminator)');
  }
}

/** Reads one instruction's opcode, type id and raw operand numbers (into `raw`). */
function readEncoding(s: FunctionScope, raw: number[]): { opcode: number; typeId: number } {
  const r: BinaryReader = s.r;
  const row = s.ctx.row;
  raw.length = 0;
  const start = r.pos;
  const w = r.uint32();
  const norm = (id: number): number => {
    const n = normalizeTypeId(row, id);
    return n === 'typeType' ? TYPE_TYPE : n;
  };
  switch (w & 3) {
    case 1: {
      const op = w >>> 20;
      if (op !== NO_OPERAND) raw.push(op);
      return { opcode: (w >>> 2) & 63, typeId: norm((w >>> 8) & 4095) };
    }
    case 2:
      raw.push((w >>> 16) & 255, w >>> 24);
      return { opcode: (w >>> 2) & 63, typeId: norm((w >>> 8) & 255) };
    case 3:
      raw.push((w >>> 14) & 63, (w >>> 20) & 63, w >>> 26);
      return { opcode: (w >>> 2) & 63, typeId: norm((w >>> 8) & 63) };
    default: {
      r.pos = start;
      const opcode = r.vbr32() >>> 2;
      const typeId = readTypeId(r, row);
      const n = r.checkCount(r.vbr32(), 1, s.ctx.limits.maxOperandsPerInstruction, 'instruction operands', start);
      for (let i = 0; i < n; i++) raw.push(r.vbr32());
      if (row.longInstructionsPadded) r.align32();
      return { opcode, typeId };
    }
  }
}

function readInstruction(s: FunctionScope, raw: number[], at: number): Instruction {
  const r: BinaryReader = s.r;
  const row = s.ctx.row;
  const { opcode: code, typeId } = readEncoding(s, raw);
  const T = s.types.at(r, typeId, at);
  const decoded = decodeOpcode(row, code, false);
  const inst: Instruction = { kind: 'instruction', opcode: 'ret', type: P.void, operands: [] };
  let name: OpcodeName;
  let callingConv = 0;
  let tail = false;
  let hasCallingConv = false;
  if (decoded.kind === 'pseudo') {
    hasCallingConv = true;
    switch (decoded.pseudo) {
      case 'invokeWithCC':
        name = 'invoke';
        if (raw.length === 0) r.fail('invoke without its calling-convention operand', at);
        callingConv = raw.pop()!;
        break;
      case 'invokeFastCC':
        name = 'invoke';
        callingConv = FAST_CC;
        break;
      case 'callWithCC': {
        name = 'call';
        if (raw.length === 0) r.fail('call without its calling-convention operand', at);
        const x = raw.pop()!;
        callingConv = x >>> 1;
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
        inst.isVolatile = true;
        hasCallingConv = false;
        break;
      default:
        name = 'store';
        inst.isVolatile = true;
        hasCallingConv = false;
    }
  } else if (decoded.kind === 'instruction') {
    name = decoded.name;
  } else {
    return r.fail(`unknown instruction opcode ${code}`, at);
  }

  if (name === 'div' || name === 'rem') {
    // Versions 0–5 have one signless div/rem; the operand type picks the 1.9 opcode.
    const el = T.kind === 'packed' ? T.element : T;
    name = resolveSignless(name, isFloatingPoint(el) ? 'float' : isSigned(el) ? 'signed' : 'unsigned');
  }
  const need = (n: number): void => {
    if (raw.length !== n) r.fail(`${name} with ${raw.length} operand(s), expected ${n}`, at);
  };
  const value = (index: number, t: Type, slot: number): void => s.operand(inst, index, t, slot, at);
  const label = (index: number, slot: number): void => {
    inst.operands[index] = s.block(slot, at);
  };
  const elementOf = (t: Type, what: string): Type => {
    if (t.kind !== 'pointer' && t.kind !== 'packed') r.fail(`${what} of type ${describeType(t)}`, at);
    return t.element;
  };
  const typeOperand = (id: number): Type => {
    const n = normalizeTypeId(row, id);
    return s.types.at(r, n === 'typeType' ? TYPE_TYPE : n, at);
  };

  let result: Type = T;
  switch (name) {
    case 'ret':
      result = P.void;
      if (raw.length > 1) need(1);
      if (raw.length === 1) value(0, T, raw[0]!);
      break;
    case 'br':
      result = P.void;
      if (raw.length === 1) label(0, raw[0]!);
      else {
        need(3);
        value(0, P.bool, raw[2]!);
        label(1, raw[0]!);
        label(2, raw[1]!);
      }
      break;
    case 'switch':
      result = P.void;
      if (raw.length < 2 || raw.length % 2 !== 0) r.fail(`switch with ${raw.length} operands`, at);
      value(0, T, raw[0]!);
      label(1, raw[1]!);
      for (let i = 2; i < raw.length; i += 2) {
        value(i, T, raw[i]!);
        label(i + 1, raw[i + 1]!);
      }
      break;
    case 'unwind':
    case 'unreachable':
      need(0);
      result = P.void;
      break;
    case 'call':
    case 'invoke': {
      if (T.kind !== 'pointer' || T.element.kind !== 'function') r.fail(`${name} of a value of type ${describeType(T)}, not a pointer to a function`, at);
      const ft = T.element as FunctionType;
      result = ft.returnType;
      inst.callingConv = callingConv;
      if (name === 'call') inst.isTailCall = tail;
      const fixed = name === 'invoke' ? 3 : 1;
      if (raw.length < fixed + ft.params.length) r.fail(`${name} with ${raw.length - fixed} argument(s) of a function taking ${ft.params.length}`, at);
      value(0, T, raw[0]!);
      if (name === 'invoke') {
        label(1, raw[1]!);
        label(2, raw[2]!);
      }
      let i = fixed;
      for (const pt of ft.params) {
        value(i, pt, raw[i]!);
        i++;
      }
      if (ft.isVarArg) {
        // Varargs: the extra arguments come as (type id, slot) pairs.
        if ((raw.length - i) % 2 !== 0) r.fail(`${name} of a varargs function with an odd number of extra operands`, at);
        let index = i;
        for (; i < raw.length; i += 2) value(index++, typeOperand(raw[i]!), raw[i + 1]!);
      } else if (i !== raw.length) {
        r.fail(`${name} with ${raw.length - fixed} argument(s) of a function taking ${ft.params.length}`, at);
      }
      break;
    }
    case 'malloc':
    case 'alloca':
      if (T.kind !== 'pointer') r.fail(`${name} of type ${describeType(T)}, not a pointer`, at);
      if (raw.length !== 1 && raw.length !== 2) need(1);
      inst.allocatedType = T.element;
      value(0, P.uint, raw[0]!);
      inst.alignment = 0;
      if (raw.length === 2) {
        if (!row.hasPackedAndAttributes) r.fail(`${name} with an alignment operand in version ${row.version}`, at);
        if (raw[1]! > 30) r.fail(`${name} alignment 2^${raw[1]! - 1} is too large`, at);
        inst.alignment = raw[1]! === 0 ? 0 : 2 ** (raw[1]! - 1);
      }
      break;
    case 'free':
      need(1);
      if (T.kind !== 'pointer') r.fail(`free of type ${describeType(T)}`, at);
      result = P.void;
      value(0, T, raw[0]!);
      break;
    case 'load':
      need(1);
      if (T.kind !== 'pointer') r.fail(`load from type ${describeType(T)}`, at);
      result = T.element;
      value(0, T, raw[0]!);
      break;
    case 'store':
      need(2);
      if (T.kind !== 'pointer') r.fail(`store to type ${describeType(T)}`, at);
      result = P.void;
      value(0, T.element, raw[0]!);
      value(1, T, raw[1]!);
      break;
    case 'getelementptr': {
      if (raw.length < 1) need(1);
      if (T.kind !== 'pointer') r.fail(`getelementptr on type ${describeType(T)}`, at);
      value(0, T, raw[0]!);
      let cur: Type = T;
      for (let i = 1; i < raw.length; i++) {
        const x = raw[i]!;
        if (cur.kind === 'struct') {
          const fieldType = row.restrictedGEPTypes ? P.ubyte : P.uint;
          value(i, fieldType, x);
          const c = inst.operands[i];
          if (c === undefined || c.kind !== 'int') r.fail('getelementptr structure index is not a constant', at);
          const field = Number(c.value);
          if (field >= cur.elements.length) r.fail(`getelementptr index ${field} of a structure with ${cur.elements.length} fields`, at);
          cur = cur.elements[field]!;
        } else if (cur.kind === 'pointer' || cur.kind === 'array' || cur.kind === 'packed') {
          if (i > 1 && cur.kind === 'pointer') r.fail('getelementptr indexes through a pointer', at);
          if (row.restrictedGEPTypes) value(i, restrictedSequentialIndexType(s, x), x);
          else value(i, GEP_INDEX_TYPES[x & 3]!, x >>> 2);
          cur = cur.element;
        } else {
          r.fail(`getelementptr indexes into type ${describeType(cur)}`, at);
        }
      }
      result = raw.length === 1 ? T : s.pointerTo(cur);
      break;
    }
    case 'phi':
      if (raw.length === 0 || raw.length % 2 !== 0) r.fail(`phi with ${raw.length} operands`, at);
      for (let i = 0; i < raw.length; i += 2) {
        value(i, T, raw[i]!);
        label(i + 1, raw[i + 1]!);
      }
      break;
    case 'cast':
      need(2);
      value(0, T, raw[0]!);
      result = typeOperand(raw[1]!);
      break;
    case 'vaarg':
    case 'va_arg':
      need(2);
      value(0, T, raw[0]!);
      result = typeOperand(raw[1]!);
      if (name === 'vaarg') inst.legacyVarArgs = true;
      name = 'vaarg';
      break;
    case 'vanext':
      need(2);
      value(0, T, raw[0]!);
      inst.argType = typeOperand(raw[1]!);
      break;
    case 'shl':
    case 'shr':
      need(2);
      value(0, T, raw[0]!);
      value(1, P.ubyte, raw[1]!);
      break;
    case 'select':
      need(3);
      value(0, P.bool, raw[0]!);
      value(1, T, raw[1]!);
      value(2, T, raw[2]!);
      break;
    case 'extractelement':
      need(2);
      result = elementOf(T, 'extractelement');
      value(0, T, raw[0]!);
      value(1, P.uint, raw[1]!);
      break;
    case 'insertelement':
      need(3);
      value(0, T, raw[0]!);
      value(1, elementOf(T, 'insertelement'), raw[1]!);
      value(2, P.uint, raw[2]!);
      break;
    case 'shufflevector': {
      need(3);
      if (T.kind !== 'packed') r.fail(`shufflevector of type ${describeType(T)}`, at);
      value(0, T, raw[0]!);
      value(1, T, raw[1]!);
      value(2, maskTypeFor(s, T.length, at), raw[2]!);
      break;
    }
    default:
      if (SETCC.has(name)) {
        need(2);
        result = P.bool;
        value(0, T, raw[0]!);
        value(1, T, raw[1]!);
      } else if (BINARY.has(name)) {
        need(2);
        value(0, T, raw[0]!);
        value(1, T, raw[1]!);
      } else {
        r.fail(`instruction ${name} cannot appear in a function body`, at);
      }
  }
  if (hasCallingConv && name !== 'call' && name !== 'invoke') r.fail('calling-convention pseudo-opcode on a non-call', at);
  inst.opcode = name as Opcode;
  inst.type = result;
  if (result.kind !== 'void') s.plane(result).push(inst);
  return inst;
}

/** The `<n x uint>` type of a shufflevector mask, which the file must define (its plane holds the mask). */
function maskTypeFor(s: FunctionScope, length: number, at: number): Type {
  for (const t of s.types.types) if (t.kind === 'packed' && t.element === P.uint && t.length === length) return t;
  return s.r.fail(`shufflevector needs a mask of type <${length} x uint>, which the file does not define`, at);
}

/**
 * Versions 0–1 do not say a sequential index's type: LLVM's readers assumed `long`. But LLVM 1.0
 * and 1.1 still assembled `uint` indices from older sources and wrote their `uint` slots, which
 * their own readers then failed on (v0 Transforms__GCSE__2002-05-14-OperandSwap). When the `long`
 * plane has no such slot and the `uint` plane does, the index can only have been a `uint`.
 */
function restrictedSequentialIndexType(s: FunctionScope, slot: number): Type {
  if (slot < s.plane(P.long).length) return P.long;
  return slot < s.plane(P.uint).length ? P.uint : P.long;
}
