/**
 * The ConstantPool block (docs/format.md §9), at module or function level: function-local types
 * (v3+), type-type planes (v0–v1), the strings plane (v1+) and planes of constants, including
 * constant expressions that refer forward to constants later in the same pool. The planes are
 * read by `plane-records.ts`, each constant and string by `constant-record.ts`, as every
 * version's are: what they mean in the 1.x graph is here.
 */
import type { BinaryReader } from '../binary/reader.js';
import { decodeOpcode, resolveSignless } from '../format/format-table.js';
import { isFloatingPoint, isSigned, primitiveTypes as P, type Type } from '../graph/type.js';
import { OPCODE_FACTS, type OpcodeFacts } from '../graph/opcodes.js';
import type { Constant, Opcode, Value } from '../graph/value.js';
import { describeType, type ModuleContext } from './context.js';
import { TYPE_TYPE, readTypeId, type TypeTable } from './types.js';
import { readPlanes } from './plane-records.js';
import { readConstantRecord, readStringRecords, type ConstantReading, type ConstantTexts, type StringReading } from './constant-record.js';
import { GraphConstantReading } from './graph-constants.js';

/** Where a pool's constants go and how slots are looked up, module or function level. */
export interface ValueScope {
  readonly types: TypeTable;
  /** The table the pool's own type definitions are added to (a function's, made on first use). */
  typesToDefine(): TypeTable;
  lookup(t: Type, slot: number): Value | undefined;
  define(t: Type, v: Value): void;
  /** Makes types defined in this pool known to `pointerTo` for this scope. */
  registerTypes(added: readonly Type[]): void;
}

/** A reference to a constant not resolved until the whole pool is read. */
interface Fixup {
  readonly target: Constant[];
  readonly index: number;
  readonly type: Type;
  readonly slot: number;
  readonly offset: number;
}

export function readConstantPool(ctx: ModuleContext, scope: ValueScope, isFunctionPool: boolean): void {
  const r: BinaryReader = ctx.r;
  const { row, limits } = ctx;
  const fixups: Fixup[] = [];
  if (isFunctionPool && !row.typeDerivedFromValue) {
    // v2+: a function's own types come first, before any plane.
    const n = r.vbr32();
    if (n > 0) scope.registerTypes(scope.typesToDefine().readDefinitions(r, row, limits, n));
  }
  let sawPlane = false;
  const constants = new PoolConstantReading(ctx, scope, fixups);
  readPlanes(r, {
    planeId: (r) => readTypeId(r, row),
    plane: (count, planeId, at) => {
      if (planeId === TYPE_TYPE) {
        scope.registerTypes(scope.typesToDefine().readDefinitions(r, row, limits, count));
        return;
      }
      r.checkCount(count, 1, limits.maxConstantsPerPlane, 'constants in a plane', at);
      if (planeId === 0) {
        if (!row.hasStringsPlane || sawPlane || isFunctionPool)
          r.fail('a constant plane of type void (the strings plane) is only allowed first in a module pool', at);
        readStringRecords(r, count, new StringsReading(ctx, scope));
        sawPlane = true;
        return;
      }
      sawPlane = true;
      const type = scope.types.at(r, planeId, at);
      constants.setType(type);
      for (let i = 0; i < count; i++) scope.define(type, readConstantRecord(r, row, constants));
    },
  });
  for (const f of fixups) {
    const v = scope.lookup(f.type, f.slot);
    if (v === undefined) r.fail(`constant refers to slot ${f.slot} of type ${describeType(f.type)}, which is not defined`, f.offset);
    if (!isConstantValue(v)) r.fail(`constant refers to a ${v.kind}, which is not a constant`, f.offset);
    f.target[f.index] = v;
  }
  if (fixups.length) rejectSelfContainingConstants(ctx, fixups);
}

/**
 * A constant may refer forward within its pool, so a damaged file can make one contain itself
 * (`{ %c }` whose element is itself), which no printer or writer could walk. Such cycles run only
 * through aggregates and expressions (a global ends a path), so a depth-first search from each
 * constant that had references finds them. Iterative: no recursion however deep the nesting.
 */
function rejectSelfContainingConstants(ctx: ModuleContext, fixups: readonly Fixup[]): void {
  const r: BinaryReader = ctx.r;
  const state = new Map<Constant[], 1 | 2>(); // 1: on the current path, 2: done
  const childrenOf = (c: Value | undefined): Constant[] | undefined =>
    c === undefined ? undefined : c.kind === 'expr' ? c.operands : c.kind === 'array' || c.kind === 'struct' || c.kind === 'packed' ? c.elements : undefined;
  for (const root of fixups) {
    if (state.has(root.target)) continue;
    const stack: { list: Constant[]; next: number }[] = [{ list: root.target, next: 0 }];
    state.set(root.target, 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (top.next >= top.list.length) {
        state.set(top.list, 2);
        stack.pop();
        continue;
      }
      const kids = childrenOf(top.list[top.next++]);
      if (kids === undefined) continue;
      const s = state.get(kids);
      if (s === 1) r.fail('a constant contains itself (its elements or operands lead back to it)', root.offset);
      if (s === undefined) {
        state.set(kids, 1);
        stack.push({ list: kids, next: 0 });
      }
    }
  }
}

export function isConstantValue(v: Value): v is Constant {
  return v.kind !== 'argument' && v.kind !== 'block' && v.kind !== 'instruction';
}

/** Strings plane (v1+): each string an array of sbyte or ubyte, its type first. */
class StringsReading implements StringReading {
  readonly texts = TEXTS;
  private type: ArrayType | undefined;
  /** One element constant per byte value and element type, shared by the plane's strings: a
   * string of a million bytes made a million objects (and as many BigInts) otherwise. */
  private readonly elementsByType = new Map<Type, Constant[]>();

  constructor(
    private readonly ctx: ModuleContext,
    private readonly scope: ValueScope,
  ) {}

  typeId(r: BinaryReader): number {
    return readTypeId(r, this.ctx.row);
  }

  length(typeId: number, at: number): number {
    const r: BinaryReader = this.ctx.r;
    const t = this.scope.types.at(r, typeId, at);
    if (t.kind !== 'array' || (t.element.kind !== 'sbyte' && t.element.kind !== 'ubyte')) {
      r.fail(`a string constant of type ${describeType(t)}, not an array of sbyte or ubyte`, at);
    }
    if (t.length > this.ctx.limits.maxStringLength)
      r.fail(`a string constant of ${t.length} bytes exceeds the limit of ${this.ctx.limits.maxStringLength}`, at);
    this.type = t;
    return t.length;
  }

  string(bytes: Uint8Array): void {
    const t = this.type!;
    const el = t.element;
    const signed = el.kind === 'sbyte';
    let byByte = this.elementsByType.get(el);
    if (byByte === undefined) this.elementsByType.set(el, (byByte = new Array<Constant>(256)));
    const elements = new Array<Constant>(bytes.length);
    for (let j = 0; j < bytes.length; j++) {
      const b = bytes[j]!;
      elements[j] = byByte[b] ??= { kind: 'int', type: el, value: BigInt(signed && b > 127 ? b - 256 : b) };
    }
    this.scope.define(t, { kind: 'array', type: t, elements });
  }
}

/** What a truncated field of a 1.x constant is called in the reader's messages. */
const TEXTS: ConstantTexts = { float: 'a 32-bit word', asm: 'an inline asm string', constraints: 'inline asm constraints', string: 'a string constant' };

/** The constants of a 1.x pool, as the graph builder reads them (decode/constant-record.ts). */
class PoolConstantReading extends GraphConstantReading implements ConstantReading<Constant> {
  readonly texts = TEXTS;
  private operands: Constant[] = [];
  private firstType: Type | undefined;
  private elements: Constant[] = [];
  private at = 0;

  constructor(
    private readonly ctx: ModuleContext,
    private readonly scope: ValueScope,
    private readonly fixups: Fixup[],
  ) {
    super(P.void);
  }

  inlineAsmBegins(at: number): void {
    const type = this.type;
    if (type.kind !== 'pointer' || type.element.kind !== 'function')
      this.ctx.r.fail(`inline asm of type ${describeType(type)}, not a pointer to a function`, at);
  }

  inlineAsm(asm: string, constraints: string, flags: number, at: number): Constant {
    if (flags > 1) this.ctx.r.fail(`inline asm flags ${flags} (only bit 0, side effects, exists)`, at);
    return { kind: 'inlineasm', type: this.type, asm, constraints, hasSideEffects: flags === 1 } as Constant;
  }

  expressionOpcode(_raw: number, count: number, at: number): void {
    this.ctx.r.checkCount(count, 2, this.ctx.limits.maxOperandsPerInstruction, 'constant expression operands', at);
    this.operands = new Array<Constant>(count);
    this.firstType = undefined;
    this.at = at;
  }

  operandType(r: BinaryReader): number {
    return readTypeId(r, this.ctx.row);
  }

  operand(i: number, slot: number, typeId: number): void {
    const t = this.scope.types.at(this.ctx.r, typeId);
    if (i === 0) this.firstType = t;
    this.fixups.push({ target: this.operands, index: i, type: t, slot, offset: this.at });
  }

  expression(raw: number, count: number, _predicate: number, _predicateAt: number, at: number): Constant {
    const r: BinaryReader = this.ctx.r;
    const operands = this.operands;
    const decoded = decodeOpcode(this.ctx.row, raw, true);
    if (decoded.kind !== 'instruction') r.fail(`unknown constant expression opcode ${raw}`, at);
    let name = decoded.name;
    if (name === 'div' || name === 'rem') {
      const firstType = this.firstType;
      const el = firstType && firstType.kind === 'packed' ? firstType.element : firstType;
      name = resolveSignless(name, el && isFloatingPoint(el) ? 'float' : el && isSigned(el) ? 'signed' : 'unsigned');
    }
    const opcode = name as Opcode;
    const facts = OPCODE_FACTS[opcode] as OpcodeFacts | undefined;
    if (!facts?.constantExpression) r.fail(`${name} cannot be a constant expression`, at);
    // The operand count the opcode's facts fix (getelementptr's is a list of at least one).
    if (count < facts.minOperands || count > facts.maxOperands) r.fail(`constant expression ${name} with ${count} operand(s)`, at);
    return { kind: 'expr', type: this.type, opcode, operands };
  }

  outOfRange(value: number | bigint, at: number): never {
    const type = this.type;
    if (type.kind === 'bool') return this.ctx.r.fail(`boolean constant ${value} is neither 0 nor 1`, at);
    return this.ctx.r.fail(`constant ${value} does not fit in ${type.kind}`, at);
  }

  smallInteger(value: number): Constant {
    return { kind: 'bool', type: this.type, value: value === 1 } as Constant;
  }

  integer(value: bigint): Constant {
    return { kind: 'int', type: this.type, value };
  }

  aggregate(count: number, at: number): void {
    this.ctx.r.checkCount(count, 1, this.ctx.limits.maxConstantsPerPlane, `elements of a ${this.type.kind} constant`, at);
    this.elements = new Array<Constant>(count);
    this.at = at;
  }

  element(i: number, slot: number): void {
    const type = this.type as AggregateType;
    const et = type.kind === 'struct' ? type.elements[i]! : type.element;
    this.fixups.push({ target: this.elements, index: i, type: et, slot, offset: this.at });
  }

  aggregateEnd(): Constant {
    return { kind: this.type.kind, type: this.type, elements: this.elements } as Constant;
  }

  pointer(slot: number, at: number): Constant {
    // The old "constant pointer reference": a global value already defined.
    const v = this.scope.lookup(this.type, slot);
    if (v === undefined || (v.kind !== 'global' && v.kind !== 'function'))
      this.ctx.r.fail(`pointer constant refers to slot ${slot}, which is not a global value`, at);
    return v;
  }

  noValue(at: number): never {
    return this.ctx.r.fail(`a constant of type ${describeType(this.type)} cannot be written in a constant pool`, at);
  }
}

type ArrayType = Extract<Type, { kind: 'array' }>;
type AggregateType = Extract<Type, { kind: 'array' | 'packed' | 'struct' }>;
