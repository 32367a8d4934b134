/**
 * Version 7's constant pool block, module or function level (r36867's ParseConstantPool): a
 * function's pool opens with its own type list; then planes of `[count][type slot]` and their
 * constants. Plane 0 (void) holds string constants (arrays of `i8`, one byte each). A constant is
 * `[n]`: 0 for a plain value of the plane's type, 1 for `undef`, 0xFFFFFFFF for inline asm, else an
 * expression of n - 1 operands (`[opcode] ([value slot][type slot])…`, then a predicate for
 * icmp/fcmp). Constants may refer to constants later in the same pool.
 *
 * The planes are read by `decode/plane-records.ts` and each constant and string by
 * `decode/constant-record.ts`, as every version's are; what is here is what they mean.
 *
 * Why its own: what a version-7 constant means is r36867's (integers of any width, held signed;
 * `i1` a ConstantBool; casts checked by source and target type; `icmp`/`fcmp` predicates; a
 * forward reference resolved by `type slot:slot` at the end of the pool, in `V7Scope`'s value
 * planes), where the 1.x pool (`decode/constant-pool.ts`) builds signed/unsigned primitives,
 * resolves the signless opcodes by operand type and patches forward references by fixups over
 * the 1.x value planes.
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
import { readConstantRecord, readStringRecords, type ConstantReading, type ConstantTexts, type StringReading } from '../constant-record.js';
import { GraphConstantReading } from '../graph-constants.js';
import { formatFor, type FormatRow } from '../../format/format-table.js';

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
  const constants = new PoolConstantReading(scope, made);
  readPlanes(r, {
    count: (n, at) => r.checkCount(n, 1, limits.maxConstantsPerPlane, 'constants in a plane', at),
    planeId: (r) => r.vbr32(),
    plane: (count, typeSlot, at) => {
      if (typeSlot === 0) return readStringRecords(r, count, new StringsReading(scope, atModule, made));
      constants.setPlane(typeSlot, scope.typeAt(typeSlot, at));
      for (let i = 0; i < count; i++) {
        const c = readConstantRecord(r, V7_ROW, constants);
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

/** Version 7's row: what the shared constant reader asks of it (the undef and asm marks, the compare opcodes). */
const V7_ROW: FormatRow = formatFor(7)!;

/** What a truncated field of a version-7 constant is called in the reader's messages. */
const TEXTS: ConstantTexts = { float: 'a 32-bit word', asm: 'inline asm', constraints: 'inline asm constraints', string: 'a string constant' };

/** Plane 0's strings: arrays of `i8`, one byte each. */
class StringsReading implements StringReading {
  readonly texts = TEXTS;
  private type: Extract<Type, { kind: 'array' }> | undefined;

  constructor(
    private readonly scope: V7Scope,
    private readonly atModule: boolean,
    private readonly made: Constant[],
  ) {}

  typeId(r: BinaryReader): number {
    return r.vbr32();
  }

  length(typeSlot: number, at: number): number {
    const r: BinaryReader = this.scope.r;
    const limits = this.scope.limits;
    const t = this.scope.typeAt(typeSlot, at);
    if (t.kind !== 'array' || t.element !== integerType(8)) return r.fail(`a string constant of type ${describeType(t)}, not an array of i8`, at);
    if (t.length > limits.maxStringLength) r.fail(`a string constant of ${t.length} bytes exceeds the limit of ${limits.maxStringLength}`, at);
    this.type = t;
    return t.length;
  }

  string(bytes: Uint8Array, typeSlot: number, at: number): void {
    const t = this.type!;
    const elements: Constant[] = new Array<Constant>(bytes.length);
    for (let k = 0; k < bytes.length; k++) elements[k] = { kind: 'int', type: t.element, value: BigInt((bytes[k]! << 24) >> 24) };
    const c: Constant = { kind: 'array', type: t, elements };
    this.made.push(c);
    const slot = this.scope.define(c, typeSlot, this.atModule, at);
    resolve(this.scope, typeSlot, slot, c);
  }
}

/** The constants of a version-7 pool, as the graph builder reads them (decode/constant-record.ts). */
class PoolConstantReading extends GraphConstantReading implements ConstantReading<Constant> {
  readonly texts = TEXTS;
  private typeSlot = 0;
  private operands: Constant[] = [];
  private elements: Constant[] = [];
  private elementSlot = 0;

  constructor(
    private readonly scope: V7Scope,
    private readonly made: Constant[],
  ) {
    super(integerType(1));
  }

  /** The plane's type (at `typeSlot`): how its values are laid out. */
  setPlane(typeSlot: number, t: Type): void {
    this.setType(t);
    this.typeSlot = typeSlot;
  }

  inlineAsm(asm: string, constraints: string, flags: number, at: number): Constant {
    const r: BinaryReader = this.scope.r;
    const t = this.type;
    if (t.kind !== 'pointer' || t.element.kind !== 'function') r.fail(`inline asm of type ${describeType(t)}, not a pointer to a function type`, at);
    if ((flags & ~1) !== 0) r.fail(`inline asm flags ${flags} (only bit 0, sideeffect, exists)`, at);
    return { kind: 'inlineasm', type: t, asm, constraints, hasSideEffects: flags === 1 } as Constant;
  }

  expressionCount(count: number, at: number): void {
    this.scope.r.checkCount(count, 2, this.scope.limits.maxOperandsPerInstruction, 'constant expression operands', at);
    this.operands = [];
  }

  operandType(r: BinaryReader): number {
    return r.vbr32();
  }

  operand(_i: number, slot: number, typeSlot: number, at: number): void {
    this.operands.push(this.scope.constant(typeSlot, slot, at));
  }

  /** A cast's operand, and a comparison's operand count, are checked before a predicate is read. */
  expressionOperands(raw: number, count: number, at: number): void {
    const r = this.scope.r;
    const name = OPCODES_V7_R36867[raw];
    if (count === 1) {
      const opcode = name === undefined ? undefined : graphOpcode(name);
      if (!isCastOpcodeNumber(raw)) r.fail(`a constant expression of one operand with opcode ${raw} (${name ?? 'unknown'}); only casts have one`, at);
      const from = this.operands[0]!.type;
      if (!castIsValid(opcode!, from, this.type)) r.fail(`invalid constant ${opcode} from ${describeType(from)} to ${describeType(this.type)}`, at);
    } else if ((raw === OP.icmp || raw === OP.fcmp) && count !== 2) r.fail(`a constant ${name} of ${count} operands (it takes 2)`, at);
  }

  expression(raw: number, count: number, predicate: number, predicateAt: number, at: number): Constant {
    const c = readExpression(this.scope, this.type, raw, count, this.operands, predicate, predicateAt, at);
    this.made.push(c);
    return c;
  }

  outOfRange(value: number | bigint, at: number): never {
    return this.scope.r.fail(`the integer constant ${value} does not fit in i${this.bits}`, at);
  }

  smallInteger(value: number): Constant {
    return integerConstant(this.type, this.bits, BigInt(value));
  }

  integer(value: bigint): Constant {
    return integerConstant(this.type, this.bits, value);
  }

  wordCount(n: number, at: number): number {
    return this.scope.r.checkCount(n, 1, Math.ceil(this.scope.limits.maxIntegerBits / 64) + 1, 'words of an integer constant', at);
  }

  /** Built from hex digits, not by shifting word after word (quadratic for a wide constant). */
  wideInteger(words: readonly bigint[]): Constant {
    const hex = words.map((w) => w.toString(16).padStart(16, '0'));
    // LLVM's APInt keeps the low `bits` bits.
    const value = words.length === 0 ? 0n : BigInt.asUintN(this.bits, BigInt('0x' + hex.reverse().join('')));
    return integerConstant(this.type, this.bits, value);
  }

  aggregate(count: number, at: number): void {
    const t = this.type as Extract<Type, { kind: 'array' | 'packed' | 'struct' }>;
    const what = t.kind === 'struct' ? 'elements of a constant struct' : `elements of a constant ${t.kind === 'array' ? 'array' : 'vector'}`;
    this.scope.r.checkCount(count, 1, this.scope.limits.maxOperandsPerInstruction, what, at);
    if (t.kind !== 'struct') this.elementSlot = this.scope.slotOf(t.element, at);
    this.elements = [];
  }

  elementBegins(i: number, at: number): void {
    const t = this.type;
    if (t.kind === 'struct') this.elementSlot = this.scope.slotOf(t.elements[i]!, at);
  }

  element(_i: number, slot: number, at: number): void {
    this.elements.push(this.scope.constant(this.elementSlot, slot, at));
  }

  aggregateEnd(): Constant {
    const c = { kind: this.type.kind, type: this.type, elements: this.elements } as Constant;
    this.made.push(c);
    return c;
  }

  pointer(slot: number, at: number): Constant {
    // A pointer constant names a global already defined (r36867: "Forward references are not allowed here").
    const r: BinaryReader = this.scope.r;
    const v: Value | undefined = this.scope.find(this.typeSlot, slot, at);
    if (v === undefined) r.fail(`a pointer constant refers to slot ${slot} of type ${describeType(this.type)}, which is not defined yet`, at);
    if (v.kind !== 'global' && v.kind !== 'function' && v.kind !== 'alias') r.fail(`a pointer constant refers to a ${v.kind}, not a global value`, at);
    return v;
  }

  noValue(at: number): never {
    return this.scope.r.fail(`a constant of type ${describeType(this.type)} cannot be written in a constant pool`, at);
  }
}

/**
 * An expression whose operands are read: checked as r36867 checked it (a cast's operand and a
 * comparison's count were checked before its predicate was read, `expressionOperands`).
 */
function readExpression(
  scope: V7Scope,
  t: Type,
  raw: number,
  count: number,
  operands: Constant[],
  predicate: number,
  predicateAt: number,
  at: number,
): ConstantExpr {
  const r: BinaryReader = scope.r;
  const name = OPCODES_V7_R36867[raw];
  const opcode: Opcode | undefined = name === undefined ? undefined : graphOpcode(name);
  const expr = (op: Opcode): ConstantExpr => ({ kind: 'expr', type: t, opcode: op, operands });
  if (count === 1) return expr(opcode!);
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
      const op = raw === OP.icmp ? 'icmp' : 'fcmp';
      return { ...expr(op), predicate: comparisonPredicate(r, op, predicate, operands[0]!.type, operands[1]!.type, predicateAt) };
    }
    default:
      if (raw < V7_FIRST_BINARY_OPCODE || raw > V7_LAST_BINARY_OPCODE || count !== 2)
        r.fail(`a constant expression with opcode ${raw} (${name ?? 'unknown'}) and ${count} operands`, at);
      checkBinaryOperands(r, opcode!, operands[0]!.type, operands[1]!.type, at);
      return expr(opcode!);
  }
}

/**
 * An integer constant as the graph holds it: the file holds the zero-extended bits (up to 32 bits
 * a vbr, up to 64 a 64-bit vbr, wider ones in words); the graph the signed reading
 * (docs/version7-graph.md), `i1` as a ConstantBool.
 */
function integerConstant(t: Type, bits: number, value: bigint): Constant {
  if (bits === 1) return { kind: 'bool', type: t, value: value !== 0n } as Constant;
  return { kind: 'int', type: t, value: BigInt.asIntN(bits, value) } as Constant;
}
