/**
 * The ConstantPool block (docs/format.md §9), at module or function level: function-local types
 * (v3+), type-type planes (v0–v1), the strings plane (v1+) and planes of constants, including
 * constant expressions that refer forward to constants later in the same pool.
 */
import type { BinaryReader } from '../binary/reader.js';
import { decodeOpcode, resolveSignless } from '../format/format-table.js';
import { isFloatingPoint, isSigned, type Type } from '../graph/type.js';
import type { Constant, Opcode, Value } from '../graph/value.js';
import { describeType, type ModuleContext } from './context.js';
import { TYPE_TYPE, readTypeId, type TypeTable } from './types.js';
import { readPlanes } from './plane-records.js';

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

/** The vbr that announces inline asm instead of an expression operand count (v5+). */
const INLINE_ASM_MARK = 0xffff_ffff;

const UNSIGNED_BITS: Partial<Record<Type['kind'], bigint>> = { ubyte: 8n, ushort: 16n, uint: 32n, ulong: 64n };
const SIGNED_BITS: Partial<Record<Type['kind'], bigint>> = { sbyte: 8n, short: 16n, int: 32n, long: 64n };

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
        readStrings(ctx, scope, count);
        sawPlane = true;
        return;
      }
      sawPlane = true;
      const type = scope.types.at(r, planeId, at);
      for (let i = 0; i < count; i++) scope.define(type, readConstant(ctx, scope, type, fixups));
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

function readStrings(ctx: ModuleContext, scope: ValueScope, count: number): void {
  const r: BinaryReader = ctx.r;
  const elementsByType = new Map<Type, Constant[]>();
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const t = scope.types.at(r, readTypeId(r, ctx.row), at);
    if (t.kind !== 'array' || (t.element.kind !== 'sbyte' && t.element.kind !== 'ubyte')) {
      r.fail(`a string constant of type ${describeType(t)}, not an array of sbyte or ubyte`, at);
    }
    if (t.length > ctx.limits.maxStringLength) r.fail(`a string constant of ${t.length} bytes exceeds the limit of ${ctx.limits.maxStringLength}`, at);
    const bytes = r.bytesView(t.length, 'a string constant');
    const el = t.element;
    const signed = el.kind === 'sbyte';
    // One element constant per byte value, shared by the plane's strings of that element type: a
    // string of a million bytes made a million objects (and as many BigInts) otherwise.
    let byByte = elementsByType.get(el);
    if (byByte === undefined) elementsByType.set(el, (byByte = new Array<Constant>(256)));
    const elements = new Array<Constant>(bytes.length);
    for (let j = 0; j < bytes.length; j++) {
      const b = bytes[j]!;
      elements[j] = byByte[b] ??= { kind: 'int', type: el, value: BigInt(signed && b > 127 ? b - 256 : b) };
    }
    scope.define(t, { kind: 'array', type: t, elements });
  }
}

function readConstant(ctx: ModuleContext, scope: ValueScope, type: Type, fixups: Fixup[]): Constant {
  const r: BinaryReader = ctx.r;
  const { row } = ctx;
  const at = r.pos;
  const n = r.vbr32();
  if (n !== 0) {
    if (!row.noUndefValue) {
      if (n === 1) return { kind: 'undef', type };
      if (n === INLINE_ASM_MARK) {
        if (type.kind !== 'pointer' || type.element.kind !== 'function') r.fail(`inline asm of type ${describeType(type)}, not a pointer to a function`, at);
        const asm = r.string('an inline asm string');
        const constraints = r.string('inline asm constraints');
        const flags = r.vbr32();
        if (flags > 1) r.fail(`inline asm flags ${flags} (only bit 0, side effects, exists)`, at);
        return { kind: 'inlineasm', type, asm, constraints, hasSideEffects: flags === 1 };
      }
    }
    return readExpression(ctx, scope, type, row.constantExprCountPlusOne ? n - 1 : n, at, fixups);
  }
  switch (type.kind) {
    case 'bool': {
      const v = r.vbr32();
      if (v > 1) r.fail(`boolean constant ${v} is neither 0 nor 1`, at);
      return { kind: 'bool', type, value: v === 1 };
    }
    case 'ubyte':
    case 'ushort':
    case 'uint':
    case 'ulong': {
      const v = r.vbr64();
      if (v >> UNSIGNED_BITS[type.kind]! !== 0n) r.fail(`constant ${v} does not fit in ${type.kind}`, at);
      return { kind: 'int', type, value: v };
    }
    case 'sbyte':
    case 'short':
    case 'int':
    case 'long': {
      const v = r.svbr64();
      const bits = SIGNED_BITS[type.kind]!;
      if (v >= 1n << (bits - 1n) || v < -(1n << (bits - 1n))) r.fail(`constant ${v} does not fit in ${type.kind}`, at);
      return { kind: 'int', type, value: v };
    }
    case 'float': {
      const bits = r.uint32();
      FLOAT_BITS[0] = bits;
      return { kind: 'fp', type, value: FLOAT_VIEW[0]!, bits: BigInt(bits) };
    }
    case 'double': {
      const bits = r.float64Bits();
      DOUBLE_BITS[0] = bits;
      return { kind: 'fp', type, value: DOUBLE_VIEW[0]!, bits };
    }
    case 'array':
    case 'packed':
    case 'struct': {
      const count = type.kind === 'struct' ? type.elements.length : type.length;
      r.checkCount(count, 1, ctx.limits.maxConstantsPerPlane, `elements of a ${type.kind} constant`, at);
      const elements = new Array<Constant>(count);
      for (let i = 0; i < count; i++) {
        const et = type.kind === 'struct' ? type.elements[i]! : type.element;
        const slot = r.vbr32();
        fixups.push({ target: elements, index: i, type: et, slot, offset: at });
      }
      return { kind: type.kind, type, elements } as Constant;
    }
    case 'pointer': {
      // The old "constant pointer reference": a global value already defined.
      const slot = r.vbr32();
      const v = scope.lookup(type, slot);
      if (v === undefined || (v.kind !== 'global' && v.kind !== 'function')) r.fail(`pointer constant refers to slot ${slot}, which is not a global value`, at);
      return v;
    }
    default:
      return r.fail(`a constant of type ${describeType(type)} cannot be written in a constant pool`, at);
  }
}

const FLOAT_BITS = new Uint32Array(1);
const FLOAT_VIEW = new Float32Array(FLOAT_BITS.buffer);
const DOUBLE_BITS = new BigUint64Array(1);
const DOUBLE_VIEW = new Float64Array(DOUBLE_BITS.buffer);

/** How many operands each constant-expression opcode takes (`undefined`: any count ≥ 1). */
const EXPRESSION_ARITY: Partial<Record<Opcode, number>> = {
  cast: 1,
  select: 3,
  extractelement: 2,
  insertelement: 3,
  shufflevector: 3,
};

function readExpression(ctx: ModuleContext, scope: ValueScope, type: Type, count: number, at: number, fixups: Fixup[]): Constant {
  const r: BinaryReader = ctx.r;
  const { row } = ctx;
  const raw = r.vbr32();
  r.checkCount(count, 2, ctx.limits.maxOperandsPerInstruction, 'constant expression operands', at);
  const operands = new Array<Constant>(count);
  let firstType: Type | undefined;
  for (let i = 0; i < count; i++) {
    const slot = r.vbr32();
    const t = scope.types.at(r, readTypeId(r, row));
    if (i === 0) firstType = t;
    fixups.push({ target: operands, index: i, type: t, slot, offset: at });
  }
  const decoded = decodeOpcode(row, raw, true);
  if (decoded.kind !== 'instruction') r.fail(`unknown constant expression opcode ${raw}`, at);
  let name = decoded.name;
  if (name === 'div' || name === 'rem') {
    const el = firstType && firstType.kind === 'packed' ? firstType.element : firstType;
    name = resolveSignless(name, el && isFloatingPoint(el) ? 'float' : el && isSigned(el) ? 'signed' : 'unsigned');
  }
  const opcode = name as Opcode;
  if (!CONSTANT_EXPRESSION_OPCODES.has(opcode)) r.fail(`${name} cannot be a constant expression`, at);
  const arity = EXPRESSION_ARITY[opcode] ?? (opcode === 'getelementptr' ? undefined : 2);
  if (count === 0 || (arity !== undefined && count !== arity)) r.fail(`constant expression ${name} with ${count} operand(s)`, at);
  return { kind: 'expr', type, opcode, operands };
}

const CONSTANT_EXPRESSION_OPCODES: ReadonlySet<Opcode> = new Set<Opcode>([
  'add',
  'sub',
  'mul',
  'udiv',
  'sdiv',
  'fdiv',
  'urem',
  'srem',
  'frem',
  'and',
  'or',
  'xor',
  'seteq',
  'setne',
  'setle',
  'setge',
  'setlt',
  'setgt',
  'shl',
  'shr',
  'getelementptr',
  'cast',
  'select',
  'extractelement',
  'insertelement',
  'shufflevector',
]);
