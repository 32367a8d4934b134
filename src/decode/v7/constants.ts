/**
 * Version 7's constant pool block, module or function level (r36867's ParseConstantPool): a
 * function's pool opens with its own type list; then planes of `[count][type slot]` and their
 * constants. Plane 0 (void) holds string constants (arrays of `i8`, one byte each). A constant is
 * `[n]`: 0 for a plain value of the plane's type, 1 for `undef`, 0xFFFFFFFF for inline asm, else an
 * expression of n - 1 operands (`[opcode] ([value slot][type slot])…`, then a predicate for
 * icmp/fcmp). Constants may refer to constants later in the same pool.
 *
 * The planes are read by `decode/plane-records.ts`, as every version's are.
 *
 * Why its own: a version-7 constant is read against r36867's type ids (integers of any width,
 * wider than 64 bits in words) and has `icmp`/`fcmp` predicates and twelve cast opcodes; the
 * 1.x pool (`decode/constant-pool.ts`) reads signed/unsigned primitives, the type-type plane and
 * the signless opcodes. What both share comes from the row (opcode names, block ids).
 */
import type { BinaryReader } from '../../binary/reader.js';
import { V7_FIRST_BINARY_OPCODE, V7_FIRST_DERIVED_TYPE_SLOT, V7_LAST_BINARY_OPCODE, OPCODES_V7_R36867 } from '../../format/version7.js';
import { describeType } from '../../graph/describe.js';
import { integerType, sameType, type Type } from '../../graph/type.js';
import type { Constant, ConstantExpr, Opcode, Value } from '../../graph/value.js';
import { castIsValid, checkBinaryOperands, comparisonPredicate, graphOpcode, isCastOpcodeNumber } from './rules.js';
import type { ConstantRef, V7Scope } from './scope.js';
import { readTypeList } from './types.js';
import { readPlanes } from '../plane-records.js';

const INLINE_ASM_MARK = 0xffff_ffff;
const OP = { getelementptr: 27, icmp: 40, fcmp: 41, select: 44, extractelement: 48, insertelement: 49, shufflevector: 50 } as const;

export function readConstantPoolV7(scope: V7Scope, atModule: boolean): void {
  const r: BinaryReader = scope.r;
  const limits = scope.limits;
  if (!atModule) {
    const n = r.vbr32();
    const base = V7_FIRST_DERIVED_TYPE_SLOT + scope.moduleTypes.length;
    if (n > 0) scope.setFunctionTypes(readTypeList(scope, n, base, (s, at) => scope.typeAt(s, at)));
  }
  const made: Constant[] = [];
  scope.constantRefs = new Map();
  readPlanes(r, {
    count: (n, at) => r.checkCount(n, 1, limits.maxConstantsPerPlane, 'constants in a plane', at),
    planeId: (r) => r.vbr32(),
    plane: (count, typeSlot, at) => {
      if (typeSlot === 0) return readStrings(scope, count, atModule, made);
      const t = scope.typeAt(typeSlot, at);
      for (let i = 0; i < count; i++) {
        const c = readConstant(scope, typeSlot, t, made);
        const slot = scope.define(c, typeSlot, atModule, r.pos);
        resolve(scope, typeSlot, slot, c);
      }
    },
  });
  if (scope.constantRefs.size > 0) {
    const first = scope.constantRefs.values().next().value as ConstantRef;
    r.fail(
      `${scope.constantRefs.size} constant reference(s) the pool never defines; the first is slot ${first.pending.slot} of type ${describeType(first.type)}`,
      first.pending.offset,
    );
  }
  patch(scope, made);
  scope.resolvedConstants.clear();
}

/** A constant of plane `typeSlot` has been defined at `slot`: pending references to it get it. */
function resolve(scope: V7Scope, typeSlot: number, slot: number, c: Constant): void {
  const key = `${typeSlot}:${slot}`;
  const ref = scope.constantRefs.get(key);
  if (ref === undefined) return;
  scope.constantRefs.delete(key);
  scope.resolvedConstants.set(ref, c);
}

/** Replaces the pending references in the pool's constants by what they became. */
function patch(scope: V7Scope, made: readonly Constant[]): void {
  const swap = (list: Constant[]): void => {
    for (let i = 0; i < list.length; i++) {
      const got = scope.resolvedConstants.get(list[i] as unknown as ConstantRef);
      if (got !== undefined) list[i] = got;
    }
  };
  for (const c of made) {
    if (c.kind === 'expr') swap(c.operands);
    else if (c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed') swap(c.elements);
  }
}

function readStrings(scope: V7Scope, count: number, atModule: boolean, made: Constant[]): void {
  const r: BinaryReader = scope.r;
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const typeSlot = r.vbr32();
    const t = scope.typeAt(typeSlot, at);
    if (t.kind !== 'array' || t.element !== integerType(8)) r.fail(`a string constant of type ${describeType(t)}, not an array of i8`, at);
    if (t.length > scope.limits.maxStringLength) r.fail(`a string constant of ${t.length} bytes exceeds the limit of ${scope.limits.maxStringLength}`, at);
    const bytes = r.bytesView(t.length, 'a string constant');
    const elements: Constant[] = new Array<Constant>(bytes.length);
    for (let k = 0; k < bytes.length; k++) elements[k] = { kind: 'int', type: t.element, value: BigInt((bytes[k]! << 24) >> 24) };
    const c: Constant = { kind: 'array', type: t, elements };
    made.push(c);
    const slot = scope.define(c, typeSlot, atModule, at);
    resolve(scope, typeSlot, slot, c);
  }
}

function readConstant(scope: V7Scope, typeSlot: number, t: Type, made: Constant[]): Constant {
  const r: BinaryReader = scope.r;
  const at = r.pos;
  const n = r.vbr32();
  if (n === 1) return { kind: 'undef', type: t };
  if (n === INLINE_ASM_MARK) {
    const asm = r.string('inline asm');
    const constraints = r.string('inline asm constraints');
    const flags = r.vbr32();
    if (t.kind !== 'pointer' || t.element.kind !== 'function') r.fail(`inline asm of type ${describeType(t)}, not a pointer to a function type`, at);
    if ((flags & ~1) !== 0) r.fail(`inline asm flags ${flags} (only bit 0, sideeffect, exists)`, at);
    return { kind: 'inlineasm', type: t, asm, constraints, hasSideEffects: flags === 1 };
  }
  if (n > 1) {
    const c = readExpression(scope, t, n - 1, at);
    made.push(c);
    return c;
  }
  return readPlainConstant(scope, typeSlot, t, at, made);
}

function readExpression(scope: V7Scope, t: Type, count: number, at: number): ConstantExpr {
  const r: BinaryReader = scope.r;
  r.checkCount(count, 2, scope.limits.maxOperandsPerInstruction, 'constant expression operands', at);
  const raw = r.vbr32();
  const operands: Constant[] = [];
  for (let i = 0; i < count; i++) {
    const opAt = r.pos;
    const slot = r.vbr32();
    const typeSlot = r.vbr32();
    operands.push(scope.constant(typeSlot, slot, opAt));
  }
  const name = OPCODES_V7_R36867[raw];
  const opcode: Opcode | undefined = name === undefined ? undefined : graphOpcode(name);
  const expr = (op: Opcode): ConstantExpr => ({ kind: 'expr', type: t, opcode: op, operands });
  if (count === 1) {
    if (!isCastOpcodeNumber(raw)) r.fail(`a constant expression of one operand with opcode ${raw} (${name ?? 'unknown'}); only casts have one`, at);
    if (!castIsValid(opcode!, operands[0]!.type, t)) r.fail(`invalid constant ${opcode} from ${describeType(operands[0]!.type)} to ${describeType(t)}`, at);
    return expr(opcode!);
  }
  switch (raw) {
    case OP.getelementptr:
      if (operands[0]!.type.kind !== 'pointer') r.fail(`a constant getelementptr on ${describeType(operands[0]!.type)}, not a pointer`, at);
      return expr('getelementptr');
    case OP.select:
      if (count !== 3) r.fail(`a constant select of ${count} operands (it takes 3)`, at);
      if (operands[0]!.type !== integerType(1) || !sameType(operands[1]!.type, operands[2]!.type)) r.fail('invalid constant select operands', at);
      return expr('select');
    case OP.extractelement:
      if (count !== 2 || operands[0]!.type.kind !== 'packed' || operands[1]!.type !== integerType(32)) r.fail('invalid constant extractelement operands', at);
      return expr('extractelement');
    case OP.insertelement: {
      const v = operands[0]!.type;
      if (count !== 3 || v.kind !== 'packed' || !sameType(operands[1]!.type, v.element) || operands[2]!.type !== integerType(32))
        r.fail('invalid constant insertelement operands', at);
      return expr('insertelement');
    }
    case OP.shufflevector: {
      const v = operands[0]!.type;
      const mask = operands[2]?.type;
      if (
        count !== 3 ||
        v.kind !== 'packed' ||
        !sameType(operands[1]!.type, v) ||
        mask?.kind !== 'packed' ||
        mask.element !== integerType(32) ||
        mask.length !== v.length
      ) {
        r.fail('invalid constant shufflevector operands', at);
      }
      return expr('shufflevector');
    }
    case OP.icmp:
    case OP.fcmp: {
      if (count !== 2) r.fail(`a constant ${name} of ${count} operands (it takes 2)`, at);
      const predAt = r.pos;
      const predicate = comparisonPredicate(r, raw === OP.icmp ? 'icmp' : 'fcmp', r.vbr32(), operands[0]!.type, operands[1]!.type, predAt);
      return { ...expr(raw === OP.icmp ? 'icmp' : 'fcmp'), predicate };
    }
    default:
      if (raw < V7_FIRST_BINARY_OPCODE || raw > V7_LAST_BINARY_OPCODE || count !== 2)
        r.fail(`a constant expression with opcode ${raw} (${name ?? 'unknown'}) and ${count} operands`, at);
      checkBinaryOperands(r, opcode!, operands[0]!.type, operands[1]!.type, at);
      return expr(opcode!);
  }
}

function readPlainConstant(scope: V7Scope, typeSlot: number, t: Type, at: number, made: Constant[]): Constant {
  const r: BinaryReader = scope.r;
  switch (t.kind) {
    case 'integer':
      return readInteger(scope, t.bits, t, at);
    case 'float': {
      const bits = r.float32Bits();
      FLOAT_BITS[0] = bits;
      return { kind: 'fp', type: t, value: FLOAT_VIEW[0]!, bits: BigInt(bits) };
    }
    case 'double': {
      const bits = r.float64Bits();
      DOUBLE_BITS[0] = bits;
      return { kind: 'fp', type: t, value: DOUBLE_VIEW[0]!, bits };
    }
    case 'array':
    case 'packed': {
      r.checkCount(t.length, 1, scope.limits.maxOperandsPerInstruction, `elements of a constant ${t.kind === 'array' ? 'array' : 'vector'}`, at);
      const elementSlot = scope.slotOf(t.element, at);
      const elements: Constant[] = [];
      for (let i = 0; i < t.length; i++) {
        const eAt = r.pos;
        elements.push(scope.constant(elementSlot, r.vbr32(), eAt));
      }
      const c: Constant = { kind: t.kind, type: t, elements };
      made.push(c);
      return c;
    }
    case 'struct': {
      r.checkCount(t.elements.length, 1, scope.limits.maxOperandsPerInstruction, 'elements of a constant struct', at);
      const elements: Constant[] = [];
      for (const e of t.elements) {
        const eAt = r.pos;
        elements.push(scope.constant(scope.slotOf(e, eAt), r.vbr32(), eAt));
      }
      const c: Constant = { kind: 'struct', type: t, elements };
      made.push(c);
      return c;
    }
    case 'pointer': {
      // A pointer constant names a global already defined (r36867: "Forward references are not allowed here").
      const slot = r.vbr32();
      const v: Value | undefined = scope.find(typeSlot, slot, at);
      if (v === undefined) r.fail(`a pointer constant refers to slot ${slot} of type ${describeType(t)}, which is not defined yet`, at);
      if (v.kind !== 'global' && v.kind !== 'function' && v.kind !== 'alias') r.fail(`a pointer constant refers to a ${v.kind}, not a global value`, at);
      return v;
    }
    default:
      return r.fail(`a constant of type ${describeType(t)} cannot be written in a constant pool`, at);
  }
}

/**
 * An integer constant: up to 32 bits a vbr, up to 64 bits a 64-bit vbr, wider ones a word count
 * and that many 64-bit vbrs, low word first. The file holds the zero-extended bits; the graph the
 * signed reading (docs/version7-graph.md), `i1` as a ConstantBool.
 */
function readInteger(scope: V7Scope, bits: number, t: Type, at: number): Constant {
  const r: BinaryReader = scope.r;
  let value: bigint;
  if (bits <= 32) {
    const v = r.vbr32();
    if (bits < 32 && v >= 2 ** bits) r.fail(`the integer constant ${v} does not fit in i${bits}`, at);
    value = BigInt(v);
  } else if (bits <= 64) {
    value = r.vbr64();
    if (bits < 64 && value >> BigInt(bits) !== 0n) r.fail(`the integer constant ${value} does not fit in i${bits}`, at);
  } else {
    const words = r.checkCount(r.vbr32(), 1, Math.ceil(scope.limits.maxIntegerBits / 64) + 1, 'words of an integer constant', at);
    // Built from hex digits, not by shifting word after word (quadratic for a wide constant).
    const hex: string[] = new Array<string>(words);
    for (let i = 0; i < words; i++) hex[i] = r.vbr64().toString(16).padStart(16, '0');
    value = words === 0 ? 0n : BigInt.asUintN(bits, BigInt('0x' + hex.reverse().join(''))); // LLVM's APInt keeps the low `bits` bits
  }
  if (bits === 1) return { kind: 'bool', type: t, value: value !== 0n };
  return { kind: 'int', type: t, value: BigInt.asIntN(bits, value) };
}

const FLOAT_BITS = new Uint32Array(1);
const FLOAT_VIEW = new Float32Array(FLOAT_BITS.buffer);
const DOUBLE_BITS = new BigUint64Array(1);
const DOUBLE_VIEW = new Float64Array(DOUBLE_BITS.buffer);
