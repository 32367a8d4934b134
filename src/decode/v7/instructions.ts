/**
 * Version 7's instruction list (r36867's ParseInstructionList and ParseInstruction): basic blocks
 * run from one terminator to the next; each instruction is one 32-bit word holding its opcode,
 * type slot and one to three small operands (the low two bits say how many), or, when those bits
 * are 0, a vbr opcode word, type slot, operand count and operands. The opcode numbers are
 * `OPCODES_V7_R36867`; 58–63 are call/load/store variants (`PSEUDO_OPCODES_V7`).
 *
 * Operands are slots of the instruction's type plane unless the instruction says otherwise (a
 * condition is an `i1`, a size or vector index an `i32`, a call argument has its parameter's
 * type, …). Values used before their definition become forward references, replaced when the
 * function is complete (function-body.ts).
 *
 * The record (word or VBRs) is read by `decode/instruction-record.ts`, as the analyzer reads it.
 *
 * Why its own: operands are typed by r36867's rules (conditions `i1`, indices `i32`/`i64` by one
 * bit, casts by target type, comparisons with a predicate field), where 1.x's reader
 * (`decode/instructions.ts`) resolves signless opcodes by operand type. The opcode classes are
 * the shared table's (`graph/opcodes.ts`).
 */
import type { BinaryReader } from '../../binary/reader.js';
import { OPCODES_V7_R36867, V7_FIRST_BINARY_OPCODE, V7_FIXED_TYPE_SLOTS as FIXED, V7_LAST_BINARY_OPCODE } from '../../format/version7.js';
import { describeType } from '../../graph/describe.js';
import { isTerminatorOpcode } from '../../graph/opcodes.js';
import { integerType, primitiveTypes as P, sameType, type PackedType, type Type } from '../../graph/type.js';
import { heldCallingConvention, type BasicBlock, type Constant, type Instruction, type Opcode, type Value } from '../../graph/value.js';
import { UnsupportedVersionError } from '../../format/version-word.js';
import { castIsValid, checkBinaryOperands, comparisonPredicate, graphOpcode, isCastOpcodeNumber } from './rules.js';
import type { V7Scope } from './scope.js';
import { readInstructionInto, type InstructionFields } from '../instruction-record.js';

/**
 * The basic blocks of one function. A block an instruction names before the list reaches it (a
 * forward branch) waits in `pending` until its turn, so that a damaged branch to block 10,000,000
 * costs one entry, not ten million blocks; `unreachedBlock` tells whether one was never reached.
 */
export class BlockTable {
  readonly blocks: BasicBlock[] = [];
  private readonly pending = new Map<number, BasicBlock>();
  constructor(private readonly scope: V7Scope) {}

  /** Block `id`, as an operand names it. */
  get(id: number, offset: number): BasicBlock {
    if (id < this.blocks.length) return this.blocks[id]!;
    let b = this.pending.get(id);
    if (b === undefined) {
      if (id >= this.scope.limits.maxBasicBlocksPerFunction)
        this.scope.r.fail(`basic block ${id} exceeds the limit of ${this.scope.limits.maxBasicBlocksPerFunction} blocks`, offset);
      b = { kind: 'block', type: P.label, instructions: [] };
      this.pending.set(id, b);
    }
    return b;
  }

  /** The next block of the list (the one a forward branch may already have named). */
  next(offset: number): BasicBlock {
    const id = this.blocks.length;
    if (id >= this.scope.limits.maxBasicBlocksPerFunction)
      this.scope.r.fail(`more than the limit of ${this.scope.limits.maxBasicBlocksPerFunction} basic blocks in one function`, offset);
    const b = this.pending.get(id) ?? { kind: 'block', type: P.label, instructions: [] };
    this.pending.delete(id);
    this.blocks.push(b);
    return b;
  }

  /** The lowest block id an instruction named that the function never reached, if any. */
  unreachedBlock(): number | undefined {
    let lowest: number | undefined;
    for (const id of this.pending.keys()) if (lowest === undefined || id < lowest) lowest = id;
    return lowest;
  }
}

/** Reads the InstructionList block into `blocks`; returns how many blocks it held. */
export function readInstructionList(scope: V7Scope, blocks: BlockTable): number {
  const r: BinaryReader = scope.r;
  let count = 0;
  let instructions = 0;
  while (!r.atEnd()) {
    const block = blocks.next(r.pos);
    count++;
    let terminated = false;
    while (!r.atEnd() && !terminated) {
      if (++instructions > scope.limits.maxInstructionsPerFunction)
        r.fail(`more than the limit of ${scope.limits.maxInstructionsPerFunction} instructions in one function`);
      const inst = readInstruction(scope, blocks);
      block.instructions.push(inst);
      terminated = isTerminatorOpcode(inst.opcode);
    }
    if (!terminated) r.fail('the last basic block has no terminator');
  }
  return count;
}

/** The record every instruction is read into (decode/instruction-record.ts): one for the whole read. */
const FIELDS: InstructionFields = { at: 0, format: 0, opcode: 0, typeSlot: 0, operands: [] };

function readInstruction(scope: V7Scope, blocks: BlockTable): Instruction {
  const r: BinaryReader = scope.r;
  readInstructionInto(r, scope.operandCountCheck, FIELDS);
  const at = FIELDS.at;
  const inst = decode(scope, blocks, FIELDS.opcode, FIELDS.typeSlot, FIELDS.operands, at);
  // The instruction takes the next slot of its result type's plane (void instructions too, in plane 0).
  scope.define(inst, inst.type === P.void ? 0 : scope.slotOf(inst.type, at), false, at);
  return inst;
}

function decode(scope: V7Scope, blocks: BlockTable, opcode: number, typeSlot: number, ops: number[], at: number): Instruction {
  const r: BinaryReader = scope.r;
  const type = scope.typeAt(typeSlot, at);
  const v = (slot: number, plane: number = typeSlot): Value => {
    if (plane === 3 || plane === 0) r.fail(`an operand of type ${plane === 0 ? 'void' : 'label'} where a value is expected`, at);
    return scope.value(plane, slot, at);
  };
  const typed = (slot: number, t: Type): Value => v(slot, scope.slotOf(t, at));
  const block = (id: number): BasicBlock => blocks.get(id, at);
  const make = (op: Opcode, resultType: Type, operands: Value[], extra?: Partial<Instruction>): Instruction => {
    const inst: Instruction = { kind: 'instruction', opcode: op, type: resultType, operands };
    return extra === undefined ? inst : Object.assign(inst, extra);
  };
  const need = (ok: boolean, what: string): void => {
    if (!ok) r.fail(`invalid ${what} instruction (${ops.length} operand(s), type ${describeType(type)})`, at);
  };
  const i1 = integerType(1);
  const i32 = integerType(32);

  if (opcode >= V7_FIRST_BINARY_OPCODE && opcode <= V7_LAST_BINARY_OPCODE && ops.length === 2) {
    const op = graphOpcode(OPCODES_V7_R36867[opcode]!);
    const a = v(ops[0]!);
    const b = v(ops[1]!);
    checkBinaryOperands(r, op, a.type, b.type, at);
    return make(op, type, [a, b]);
  }
  if (isCastOpcodeNumber(opcode)) {
    const op = graphOpcode(OPCODES_V7_R36867[opcode]!);
    need(ops.length === 2, op);
    const value = v(ops[0]!);
    const to = scope.typeAt(ops[1]!, at);
    if (!castIsValid(op, value.type, to)) r.fail(`invalid ${op} from ${describeType(value.type)} to ${describeType(to)}`, at);
    return make(op, to, [value]);
  }
  switch (opcode) {
    case 1: // ret
      need(ops.length <= 1, 'ret');
      return make('ret', P.void, ops.length === 0 ? [] : [v(ops[0]!)]);
    case 2: // br
      if (ops.length === 1) return make('br', P.void, [block(ops[0]!)]);
      need(ops.length === 3, 'br');
      return make('br', P.void, [v(ops[2]!, FIXED.int1), block(ops[0]!), block(ops[1]!)]);
    case 3: {
      // switch
      need(ops.length >= 2 && ops.length % 2 === 0, 'switch');
      const operands: Value[] = [v(ops[0]!), block(ops[1]!)];
      for (let i = 2; i < ops.length; i += 2) {
        const c = scope.find(typeSlot, ops[i]!, at);
        if (c === undefined || (c.kind !== 'int' && c.kind !== 'bool')) r.fail('a switch case value that is not an integer constant', at);
        operands.push(c, block(ops[i + 1]!));
      }
      return make('switch', P.void, operands);
    }
    case 4:
      return invoke(scope, blocks, type, typeSlot, ops, at);
    case 5:
    case 6:
      need(ops.length === 0, opcode === 5 ? 'unwind' : 'unreachable');
      return make(opcode === 5 ? 'unwind' : 'unreachable', P.void, []);
    case 22: // malloc
    case 24: {
      // alloca
      const op = opcode === 22 ? 'malloc' : 'alloca';
      need(ops.length >= 1 && ops.length <= 2 && type.kind === 'pointer', op);
      const alignment = ops.length === 2 ? alignmentOf(scope, ops[1]!, at) : 0;
      const size = v(ops[0]!, FIXED.int32);
      requireType(scope, size, i32, `the size of ${op}`, at);
      return make(op, type, [size], { allocatedType: (type as { element: Type }).element, alignment });
    }
    case 23: // free
      need(ops.length === 1 && type.kind === 'pointer', 'free');
      return make('free', P.void, [v(ops[0]!)]);
    case 25: // load
    case 62: {
      if (opcode === 62 && ops.length === 1) earlierVolatile(scope, 'load', at);
      need(ops.length === (opcode === 25 ? 1 : 2) && type.kind === 'pointer', 'load');
      const ptr = v(ops[0]!);
      const element = (type as { element: Type }).element;
      if (opcode === 25) return make('load', element, [ptr]);
      const flags = ops[1]!;
      return make('load', element, [ptr], { isVolatile: (flags & 1) !== 0, alignment: alignmentOf(scope, flags >>> 1, at) });
    }
    case 26: // store
    case 63: {
      if (opcode === 63 && ops.length === 2) earlierVolatile(scope, 'store', at);
      need(ops.length === (opcode === 26 ? 2 : 3) && type.kind === 'pointer', 'store');
      const ptr = v(ops[1]!);
      const value = typed(ops[0]!, (type as { element: Type }).element);
      if (opcode === 26) return make('store', P.void, [value, ptr]);
      const flags = ops[2]!;
      return make('store', P.void, [value, ptr], { isVolatile: (flags & 1) !== 0, alignment: alignmentOf(scope, flags >>> 1, at) });
    }
    case 27:
      return getelementptr(scope, type, typeSlot, ops, at);
    case 40: // icmp
    case 41: {
      // fcmp
      const op = opcode === 40 ? 'icmp' : 'fcmp';
      need(ops.length === 3, op);
      const a = v(ops[0]!);
      const b = v(ops[1]!);
      const predicate = comparisonPredicate(r, op, ops[2]!, a.type, b.type, at);
      return make(op, i1, [a, b], { predicate });
    }
    case 42: {
      // phi
      need(ops.length > 0 && ops.length % 2 === 0, 'phi');
      const operands: Value[] = [];
      for (let i = 0; i < ops.length; i += 2) operands.push(v(ops[i]!), block(ops[i + 1]!));
      return make('phi', type, operands);
    }
    case 43:
    case 58:
    case 59:
    case 60:
    case 61:
      return call(scope, type, typeSlot, opcode, ops, at);
    case 44: // select
      need(ops.length === 3, 'select');
      return make('select', type, [v(ops[0]!, FIXED.int1), v(ops[1]!), v(ops[2]!)]);
    case 47: // va_arg
      need(ops.length === 2, 'va_arg');
      return make('vaarg', scope.typeAt(ops[1]!, at), [v(ops[0]!)]);
    case 48: {
      // extractelement
      need(ops.length === 2, 'extractelement');
      const vec = v(ops[0]!);
      const index = v(ops[1]!, FIXED.int32);
      if (vec.type.kind !== 'packed' || index.type !== i32) r.fail('invalid extractelement operands', at);
      return make('extractelement', (vec.type as PackedType).element, [vec, index]);
    }
    case 49: {
      // insertelement
      need(ops.length === 3 && type.kind === 'packed', 'insertelement');
      const vec = v(ops[0]!);
      const element = typed(ops[1]!, (type as PackedType).element);
      const index = v(ops[2]!, FIXED.int32);
      if (!sameType(vec.type, type) || index.type !== i32) r.fail('invalid insertelement operands', at);
      return make('insertelement', type, [vec, element, index]);
    }
    case 50: {
      // shufflevector
      need(ops.length === 3 && type.kind === 'packed', 'shufflevector');
      const vt = type as PackedType;
      const maskType: PackedType = { kind: 'packed', element: i32, length: vt.length };
      return make('shufflevector', type, [v(ops[0]!), v(ops[1]!), typed(ops[2]!, maskType)]);
    }
    default:
      return r.fail(
        `unknown instruction opcode ${opcode}${OPCODES_V7_R36867[opcode] ? ` (${OPCODES_V7_R36867[opcode]} with ${ops.length} operand(s))` : ''}`,
        at,
      );
  }
}

/** The callee's function type, checked as r36867 did ("Call to non function pointer value!"). */
function calleeType(scope: V7Scope, callee: Value, what: string, at: number) {
  const t = callee.type;
  if (t.kind !== 'pointer' || t.element.kind !== 'function') return scope.r.fail(`${what} of a ${describeType(t)}, not a pointer to a function`, at);
  return t.element;
}

/** Fixed arguments by parameter type, then (varargs) type-slot/value pairs. */
function callArguments(scope: V7Scope, fnType: { params: Type[]; isVarArg: boolean }, ops: readonly number[], what: string, at: number): Value[] {
  const r: BinaryReader = scope.r;
  const n = fnType.params.length;
  if (fnType.isVarArg ? ops.length < n || (ops.length - n) % 2 !== 0 : ops.length !== n) {
    r.fail(`invalid ${what}: ${ops.length} argument operand(s) for a function type of ${n} parameter(s)${fnType.isVarArg ? ' and varargs' : ''}`, at);
  }
  const args: Value[] = [];
  for (let i = 0; i < n; i++) args.push(scope.value(scope.slotOf(fnType.params[i]!, at), ops[i]!, at));
  for (let i = n; i < ops.length; i += 2) {
    if (ops[i] === 3 || ops[i] === 0) r.fail(`a ${what} argument of type ${ops[i] === 0 ? 'void' : 'label'}`, at);
    args.push(scope.value(ops[i]!, ops[i + 1]!, at));
  }
  return args;
}

function call(scope: V7Scope, type: Type, typeSlot: number, opcode: number, ops: number[], at: number): Instruction {
  const r: BinaryReader = scope.r;
  if (ops.length === 0) r.fail('a call without a callee', at);
  let callingConv = 0;
  let isTailCall = opcode === 59 || opcode === 61;
  let rest = ops.slice(1);
  if (opcode === 58) {
    if (ops.length < 2) r.fail('a call with a calling-convention operand but no room for it', at);
    const cc = ops[ops.length - 1]!;
    isTailCall = (cc & 1) !== 0;
    callingConv = heldCallingConvention('call', cc >>> 1);
    rest = ops.slice(1, -1);
  } else if (opcode === 59 || opcode === 60) {
    callingConv = 8; // fastcc
  }
  if (typeSlot === 3 || typeSlot === 0) r.fail('a callee of type void or label', at);
  const callee = scope.value(typeSlot, ops[0]!, at);
  const fnType = calleeType(scope, callee, 'a call', at);
  void type;
  const args = callArguments(scope, fnType, rest, 'call', at);
  const inst: Instruction = { kind: 'instruction', opcode: 'call', type: fnType.returnType, operands: [callee, ...args] };
  if (callingConv !== 0) inst.callingConv = callingConv;
  if (isTailCall) inst.isTailCall = true;
  return inst;
}

function invoke(scope: V7Scope, blocks: BlockTable, type: Type, typeSlot: number, ops: number[], at: number): Instruction {
  const r: BinaryReader = scope.r;
  // callee, normal, unwind, arguments…, calling convention
  if (ops.length < 4) r.fail(`invalid invoke instruction (${ops.length} operands; it needs a callee, two destinations and a calling convention)`, at);
  if (typeSlot === 3 || typeSlot === 0) r.fail('a callee of type void or label', at);
  const callee = scope.value(typeSlot, ops[0]!, at);
  const fnType = calleeType(scope, callee, 'an invoke', at);
  void type;
  const callingConv = heldCallingConvention('invoke', ops[ops.length - 1]!);
  const normal = blocks.get(ops[1]!, at);
  const unwind = blocks.get(ops[2]!, at);
  const args = callArguments(scope, fnType, ops.slice(3, -1), 'invoke', at);
  const inst: Instruction = { kind: 'instruction', opcode: 'invoke', type: fnType.returnType, operands: [callee, normal, unwind, ...args] };
  if (callingConv !== 0) inst.callingConv = callingConv;
  return inst;
}

function getelementptr(scope: V7Scope, type: Type, typeSlot: number, ops: number[], at: number): Instruction {
  const r: BinaryReader = scope.r;
  if (ops.length === 0 || type.kind !== 'pointer') r.fail(`invalid getelementptr instruction (type ${describeType(type)})`, at);
  const base = scope.value(typeSlot, ops[0]!, at);
  const indices: Value[] = [];
  let current: Type = type;
  for (let i = 1; i < ops.length; i++) {
    const raw = ops[i]!;
    let index: Value;
    if (current.kind === 'struct') {
      index = scope.value(FIXED.int32, raw, at);
      const field = index.kind === 'int' && index.type === integerType(32) ? Number(index.value) : -1;
      if (field < 0 || field >= current.elements.length)
        r.fail(`a getelementptr struct index that is not a constant field number of ${describeType(current)}`, at);
      indices.push(index);
      current = current.elements[field]!;
      continue;
    }
    // Only the first index may step over a pointer (GetElementPtrInst::getIndexedType).
    if ((current.kind !== 'pointer' || i !== 1) && current.kind !== 'array' && current.kind !== 'packed')
      r.fail(`a getelementptr index into ${describeType(current)}`, at);
    // Sequential indices: the low bit says i32 (0) or i64 (1).
    index = scope.value(raw & 1 ? FIXED.int64 : FIXED.int32, raw >>> 1, at);
    if (index.type !== integerType(raw & 1 ? 64 : 32)) r.fail(`a getelementptr index of type ${describeType(index.type)}`, at);
    current = (current as { element: Type }).element;
    indices.push(index);
  }
  const resultElement = ops.length === 1 ? (type as { element: Type }).element : current;
  const result = scope.canonical({ kind: 'pointer', element: resultElement }, at);
  return { kind: 'instruction', opcode: 'getelementptr', type: result, operands: [base, ...indices] };
}

/**
 * Until 2007-04-21, opcodes 62/63 were a plain volatile load/store, without the flags operand
 * r36867 reads (alignment and volatility): the operand count shows the earlier stage.
 */
function earlierVolatile(scope: V7Scope, what: string, at: number): never {
  throw new UnsupportedVersionError(
    { version: 7, layout: 'bare', flags: 0 },
    at,
    scope.r.blockPath,
    `a volatile ${what} without the alignment operand (opcode ${what === 'load' ? 62 : 63}): written by LLVM trunk before 2007-04-22, an earlier version-7 stage than the one read here (r36867's attributed ${what}); it is not supported`,
  );
}

function requireType(scope: V7Scope, value: Value, t: Type, what: string, at: number): void {
  if (value.type !== t) scope.r.fail(`${what} has type ${describeType(value.type)}, not ${describeType(t)}`, at);
}

/** r36867's alignment operands hold log2(alignment) + 1 (0: none). */
function alignmentOf(scope: V7Scope, field: number, at: number): number {
  if (field > 31) scope.r.fail(`alignment field ${field} (at most 31: alignments up to 2^30)`, at);
  return field === 0 ? 0 : 2 ** (field - 1);
}

export type { Constant };
