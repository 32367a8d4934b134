/**
 * Random modules for property tests, built with the construction API: straight-line arithmetic
 * functions over a random type (operators, operands, constants and clashing names), and random
 * type trees. Shared by the builder's and the assembler's property tests.
 */
import fc from 'fast-check';
import { ModuleBuilder, type BinaryOpcode, type CompareOpcode } from '../../src/build/index.js';
import type { Module } from '../../src/graph/module.js';
import { isFloatingPoint, isSigned, type Type } from '../../src/graph/type.js';
import type { BasicBlock, Value } from '../../src/graph/value.js';

export const TYPE_NAMES = ['sbyte', 'ubyte', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double'] as const;
export type TypeName = (typeof TYPE_NAMES)[number];

/** One step: an operation and choices of operands (indices into the values so far, or constants). */
export interface Step {
  op: 'binary' | 'shift' | 'compare-select' | 'cast-round-trip';
  which: number;
  lhs: number;
  rhs: number;
  constant: number;
  useConstant: boolean;
  name: string | undefined;
}

export const stepArb: fc.Arbitrary<Step> = fc.record({
  op: fc.constantFrom('binary' as const, 'binary' as const, 'shift' as const, 'compare-select' as const, 'cast-round-trip' as const),
  which: fc.nat(20),
  lhs: fc.nat(1000),
  rhs: fc.nat(1000),
  constant: fc.integer({ min: -1000, max: 1000 }),
  useConstant: fc.boolean(),
  // A small name pool, so names clash and the builder has to make them unique.
  name: fc.option(fc.constantFrom('t', 'x', 'sum', 'a.b', 'tmp'), { nil: undefined }),
});

/** The operators valid on `t` that every version (3, 5, 6) can write: division by signedness. */
function operatorsFor(t: Type): BinaryOpcode[] {
  if (isFloatingPoint(t)) return ['add', 'sub', 'mul', 'fdiv', 'frem'];
  return isSigned(t) ? ['add', 'sub', 'mul', 'sdiv', 'srem', 'and', 'or', 'xor'] : ['add', 'sub', 'mul', 'udiv', 'urem', 'and', 'or', 'xor'];
}

const COMPARES: CompareOpcode[] = ['seteq', 'setne', 'setle', 'setge', 'setlt', 'setgt'];

export function buildArithmetic(typeName: TypeName, otherName: TypeName, params: number, steps: readonly Step[]): Module {
  const mb = new ModuleBuilder();
  const { types: t, constants: c } = mb;
  const ty = t[typeName];
  const other = t[otherName];
  const f = mb.addFunction(
    'f',
    t.function(
      ty,
      Array.from({ length: params }, () => ty),
    ),
    {
      argNames: Array.from({ length: params }, (_, i) => (i % 2 ? 'x' : undefined)),
    },
  );
  const b = mb.builder(mb.addBlock(f, 'entry'));
  const pool: Value[] = [...f.args];
  const constant = (n: number): Value => (isFloatingPoint(ty) ? c.fp(ty, n / 8) : c.int(ty, isSigned(ty) ? n % 100 : Math.abs(n) % 100));
  for (const s of steps) {
    const lhs = pool[s.lhs % pool.length]!;
    const rhs = s.useConstant ? constant(s.constant) : pool[s.rhs % pool.length]!;
    switch (s.op) {
      case 'binary': {
        const ops = operatorsFor(ty);
        pool.push(b.binary(ops[s.which % ops.length]!, lhs, rhs, s.name));
        break;
      }
      case 'shift':
        if (isFloatingPoint(ty)) continue;
        pool.push(s.which % 2 ? b.shl(lhs, c.int(t.ubyte, s.which % 8), s.name) : b.shr(lhs, c.int(t.ubyte, s.which % 8), s.name));
        break;
      case 'compare-select': {
        const cond = b.compare(COMPARES[s.which % COMPARES.length]!, lhs, rhs, s.name);
        pool.push(b.select(cond, lhs, rhs));
        break;
      }
      case 'cast-round-trip':
        pool.push(b.cast(b.cast(lhs, other, s.name), ty));
        break;
    }
  }
  b.ret(pool[pool.length - 1]!);
  return mb.build();
}

/** A type described as data, to be built twice. */
export type TypeDesc =
  | { k: 'prim'; name: TypeName | 'bool' }
  | { k: 'pointer'; el: TypeDesc }
  | { k: 'array'; el: TypeDesc; n: number }
  | { k: 'struct'; els: TypeDesc[] }
  | { k: 'fnptr'; ret: TypeDesc; params: TypeDesc[]; va: boolean };

export const typeDescArb: fc.Arbitrary<TypeDesc> = fc.letrec<{ t: TypeDesc }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ k: fc.constant('prim' as const), name: fc.constantFrom(...TYPE_NAMES, 'bool' as const) }),
    fc.record({ k: fc.constant('pointer' as const), el: tie('t') }),
    fc.record({ k: fc.constant('array' as const), el: tie('t'), n: fc.nat(3) }),
    fc.record({ k: fc.constant('struct' as const), els: fc.array(tie('t'), { maxLength: 3 }) }),
    fc.record({ k: fc.constant('fnptr' as const), ret: tie('t'), params: fc.array(tie('t'), { maxLength: 2 }), va: fc.boolean() }),
  ),
})).t;

export function makeType(mb: ModuleBuilder, d: TypeDesc): Type {
  const t = mb.types;
  switch (d.k) {
    case 'prim':
      return t[d.name];
    case 'pointer':
      return t.pointer(makeType(mb, d.el));
    case 'array':
      return t.array(makeType(mb, d.el), d.n);
    case 'struct':
      return t.struct(d.els.map((e) => makeType(mb, e)));
    case 'fnptr': {
      // Functions take and return first-class types only: aggregates go by pointer.
      const firstClass = (x: Type): Type => (x.kind === 'struct' || x.kind === 'array' ? t.pointer(x) : x);
      return t.pointer(
        t.function(
          firstClass(makeType(mb, d.ret)),
          d.params.map((p) => firstClass(makeType(mb, p))),
          d.va,
        ),
      );
    }
  }
}

// ---- modules that reach the format's thresholds -------------------------------------------------

/**
 * Instruction kinds a {@link RichSpec} may ask for. Each is left out at a version that cannot write
 * it (see {@link kindsAt}): `select` came with version 1 (LLVM 1.2), packed types, `va_arg` and
 * `unreachable` with version 5 (LLVM 1.6+ wrote 5).
 */
export const KINDS = ['switch', 'invoke', 'gep', 'malloc', 'alloca', 'select', 'packed', 'vaarg', 'call', 'cast', 'shift', 'phi', 'load-store'] as const;
export type Kind = (typeof KINDS)[number];

/** The kinds version `version` can write. */
export function kindsAt(version: number): Kind[] {
  return KINDS.filter((k) => !((k === 'select' && version < 1) || ((k === 'packed' || k === 'vaarg') && version < 5)));
}

/**
 * Floating-point and integer values at the edges: NaN (LLVM's quiet NaN and one with a payload),
 * ±0.0, ±infinity, the smallest denormals, the largest finite values; every integer type's
 * minimum and maximum, and the values around the vbr and sign boundaries.
 */
export const EDGE_DOUBLES: readonly bigint[] = [
  0x7ff8000000000000n, // NaN
  0x7ff0000000000001n, // a signalling NaN with a payload
  0xfff8000000000000n, // -NaN
  0x8000000000000000n, // -0.0
  0x0000000000000000n,
  0x7ff0000000000000n, // +inf
  0xfff0000000000000n, // -inf
  0x0000000000000001n, // the smallest denormal
  0x000fffffffffffffn, // the largest denormal
  0x7fefffffffffffffn, // the largest finite
  0x3fb999999999999an, // 0.1, not exact in decimal
];
export const EDGE_FLOATS: readonly number[] = [
  0x7fc00000, // NaN
  0x7f800001, // a signalling NaN
  0x80000000, // -0.0
  0x7f800000, // +inf
  0xff800000, // -inf
  0x00000001, // the smallest denormal
  0x007fffff, // the largest denormal
  0x7f7fffff, // the largest finite
  0x3dcccccd, // 0.1f
];
const INT_EDGES: Record<'sbyte' | 'ubyte' | 'short' | 'ushort' | 'int' | 'uint' | 'long' | 'ulong', readonly bigint[]> = {
  sbyte: [-128n, 127n, -1n, 63n, 64n],
  ubyte: [0n, 255n, 127n, 128n],
  short: [-32768n, 32767n, -129n],
  ushort: [65535n, 16383n, 16384n],
  int: [-2147483648n, 2147483647n, -1n, 0x0fffffffn, 0x10000000n],
  uint: [4294967295n, 2147483648n, 0x1fffffn, 0x200000n],
  long: [-9223372036854775808n, 9223372036854775807n, -4294967296n, 0x7fffffffffffffn],
  ulong: [18446744073709551615n, 9223372036854775808n, 4294967296n],
};

/**
 * Names the printer must quote or escape and the assembler read back: spaces and punctuation,
 * latin1 bytes above 127, a leading digit, LLVM's own allowed `.`, `-`, `_`, a backslash (no quote: LLVM 1.9's
 * printer asserted there was none, and its lexer ends a name at one).
 */
export const NAME_POOL: readonly string[] = ['plain', 'a b', '1st', '42', 'x.y', '$d', '-m', '_u', 'caf\xe9', '\xff\xfe', 'tab\there', 'back\\slash', 'a.b.c'];

/** What a module reaching the format's thresholds holds (see {@link buildRich}). */
export interface RichSpec {
  /**
   * Length of the entry block's chains of int values and int pointers: their slot numbers pass 64,
   * 256 and 4,095 as it grows, each in turn the largest operand of a one-, two- and three-operand
   * instruction.
   */
  width: number;
  /** Distinct array types `[k x int]` allocated: type slots past 64 and 256. */
  types: number;
  /** Elements of a global `[n x int]` of distinct values (0: none): the module passes 64 KiB. */
  bigArray: number;
  /** Instruction kinds used (each where the version allows it). */
  kinds: readonly Kind[];
  /** Edge constants held by globals: indices into EDGE_DOUBLES, EDGE_FLOATS and the integers. */
  edges: readonly number[];
  /** Names given to globals and values: indices into NAME_POOL. */
  names: readonly number[];
  /** Operand choices (indices into the values so far). */
  picks: readonly number[];
}

export const richSpecArb: fc.Arbitrary<RichSpec> = fc.record({
  width: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constantFrom(62, 63, 64, 65, 250, 254, 255, 256, 257, 300)),
  types: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom(63, 64, 70, 255, 260)),
  bigArray: fc.constant(0),
  kinds: fc.uniqueArray(fc.constantFrom(...KINDS), { minLength: 1 }),
  edges: fc.array(fc.nat(200), { maxLength: 12 }),
  names: fc.array(fc.nat(NAME_POOL.length - 1), { maxLength: 8 }),
  picks: fc.array(fc.nat(100000), { minLength: 4, maxLength: 24 }),
});

/** Every kind, every edge constant and name: with `width` and `types` the thresholds to cross. */
export function everythingSpec(width: number, types: number, bigArray = 0): RichSpec {
  const edgeCount = EDGE_DOUBLES.length + EDGE_FLOATS.length + Object.values(INT_EDGES).flat().length;
  return {
    width,
    types,
    bigArray,
    kinds: KINDS,
    edges: Array.from({ length: edgeCount }, (_, i) => i),
    names: NAME_POOL.map((_, i) => i),
    picks: Array.from({ length: 24 }, (_, i) => i * 7919 + width),
  };
}

function fpBits(mb: ModuleBuilder, type: Type, bits: bigint): Value {
  const value =
    type.kind === 'float'
      ? new DataView(Uint32Array.of(Number(bits)).buffer).getFloat32(0, true)
      : new DataView(BigUint64Array.of(bits).buffer).getFloat64(0, true);
  void mb;
  return { kind: 'fp', type, value, bits } as unknown as Value;
}

/**
 * A module with the thresholds and kinds `spec` asks for, writable at `version` (kinds the version
 * lacks are left out). Globals hold the edge constants, under names from NAME_POOL; `@callee` is
 * called and invoked; `@varargs` reads its arguments with `va_arg`; `@main` computes `width` int
 * values in its entry block, then uses the kinds, reaching values across the whole pool.
 */
export function buildRich(spec: RichSpec, version = 6): Module {
  const kinds = new Set(spec.kinds.filter((k) => kindsAt(version).includes(k)));
  const mb = new ModuleBuilder();
  const { types: t, constants: c } = mb;
  let nameAt = 0;
  const nextName = (): string | undefined => (spec.names.length === 0 ? undefined : NAME_POOL[spec.names[nameAt++ % spec.names.length]!]!);

  // Edge constants, one global each (names made unique per plane by the builder).
  const intTypes = Object.keys(INT_EDGES) as (keyof typeof INT_EDGES)[];
  const ints = intTypes.flatMap((k) => INT_EDGES[k].map((v) => [k, v] as const));
  const edgeCount = EDGE_DOUBLES.length + EDGE_FLOATS.length + ints.length;
  spec.edges.forEach((e, i) => {
    const k = e % edgeCount;
    let init: Value;
    if (k < EDGE_DOUBLES.length) init = fpBits(mb, t.double, EDGE_DOUBLES[k]!);
    else if (k < EDGE_DOUBLES.length + EDGE_FLOATS.length) init = fpBits(mb, t.float, BigInt(EDGE_FLOATS[k - EDGE_DOUBLES.length]!));
    else {
      const [type, v] = ints[k - EDGE_DOUBLES.length - EDGE_FLOATS.length]!;
      init = c.int(t[type], v);
    }
    mb.addGlobal(`${nextName() ?? 'edge'}${i}`, init.type, {
      initializer: init as never,
      constant: i % 3 === 0,
      linkage: i % 4 === 1 ? 'internal' : 'external',
    });
  });
  if (spec.bigArray > 0) {
    // Distinct values (a multiplicative walk), so that the constant pool is as large as the array.
    const elements = Array.from({ length: spec.bigArray }, (_, i) => c.int(t.int, ((i * 2654435761) % 2147483647) - 1073741823));
    mb.addGlobal('big', t.array(t.int, spec.bigArray), { initializer: c.array(t.int, elements) });
  }

  const callee = mb.addFunction('callee', t.function(t.int, [t.int]), { argNames: ['n'] });
  mb.builder(mb.addBlock(callee, 'entry')).ret(callee.args[0]!);
  let vaFn: Value | undefined;
  if (kinds.has('vaarg')) {
    const sbytePP = t.pointer(t.pointer(t.sbyte));
    const vaStart = mb.addFunction('llvm.va_start', t.function(t.void, [sbytePP]));
    const vaEnd = mb.addFunction('llvm.va_end', t.function(t.void, [sbytePP]));
    const f = mb.addFunction('varargs', t.function(t.int, [t.int], true), { argNames: ['count'] });
    const b = mb.builder(mb.addBlock(f, 'entry'));
    const ap = b.alloca(t.pointer(t.sbyte), 'ap');
    b.call(vaStart, [ap]);
    const x = b.vaarg(ap, t.int, 'x');
    const y = b.vaarg(ap, t.double, 'y');
    b.call(vaEnd, [ap]);
    b.ret(b.add(x, b.cast(y, t.int)));
    vaFn = f;
  }

  const main = mb.addFunction('main', t.function(t.int, [t.int, t.int, t.bool]), { argNames: ['a', nextName(), 'c'] });
  const [a, bArg, cond] = main.args as [Value, Value, Value];
  const entry = mb.addBlock(main, 'entry');
  const b = mb.builder(entry);
  const pool: Value[] = [a, bArg];
  let pick = 0;
  const any = (): Value => pool[spec.picks[pick++ % spec.picks.length]! % pool.length]!;
  // The top of the pool: the values with the largest slot numbers, where the formats change.
  const recent = (): Value => pool[pool.length - 1 - (spec.picks[pick++ % spec.picks.length]! % Math.min(pool.length, 3))]!;
  const OPS: BinaryOpcode[] = ['add', 'sub', 'mul', 'xor', 'and', 'or'];
  // The wide part: a chain where every value in turn is the largest operand of a two-operand
  // instruction (the next link), of a three-operand one (a select) and, in the pointer chain, of
  // a one-operand one (a load), so that each format's limit (64, 256, 4,095) is met exactly.
  const chain: Value[] = [a];
  for (let i = 0; i < spec.width; i++) {
    const rhs = i % 5 === 4 ? c.int(t.int, (i * 37) % 1000) : pool[i % 2]!;
    chain.push(b.binary(OPS[i % OPS.length]!, chain[i]!, rhs, i % 7 === 0 ? nextName() : undefined));
  }
  if (kinds.has('select')) for (const x of chain) pool.push(b.select(cond, x, bArg));
  if (kinds.has('gep') || kinds.has('load-store')) {
    const pointers: Value[] = [b.alloca(t.int, { count: c.int(t.uint, spec.width + 1) })];
    for (let i = 0; i < spec.width; i++) pointers.push(b.getelementptr(pointers[i]!, [c.int(t.long, 1)]));
    for (const p of pointers) pool.push(b.load(p));
  }
  pool.push(...chain.slice(1));
  // One-, two- and three-operand instructions over the newest and oldest values.
  pool.push(b.add(recent(), pool[0]!));
  pool.push(b.cast(b.cast(recent(), t.long), t.int));
  if (kinds.has('select')) pool.push(b.select(cond, recent(), any(), nextName()), b.select(b.setlt(recent(), any()), pool[0]!, recent()));
  if (kinds.has('shift')) pool.push(b.shl(recent(), c.int(t.ubyte, 3)), b.shr(any(), c.int(t.ubyte, 31)));
  if (kinds.has('cast')) pool.push(b.cast(b.cast(b.cast(recent(), t.double), t.float), t.int), b.cast(b.cast(recent(), t.pointer(t.sbyte)), t.int));
  if (kinds.has('call')) pool.push(b.call(callee, [recent()], nextName()));
  if (vaFn !== undefined) pool.push(b.call(vaFn, [recent(), recent(), c.fp(t.double, 2.5)]));
  // Many distinct types: an alloca (and a store through a GEP) for each `[k x int]`.
  for (let k = 1; k <= spec.types; k++) {
    const p = b.alloca(t.array(t.int, k));
    if (kinds.has('gep')) b.store(recent(), b.getelementptr(p, [c.int(t.long, 0), c.int(t.long, k - 1)]));
  }
  if (kinds.has('gep')) {
    const s = t.struct([t.int, t.array(t.double, 3), t.pointer(t.int)]);
    const p = b.alloca(s, nextName());
    const field = version >= 3 ? c.int(t.uint, 1) : c.int(t.ubyte, 1);
    b.store(c.fp(t.double, -0), b.getelementptr(p, [c.int(t.long, 0), field, c.int(t.long, 2)]));
  }
  if (kinds.has('alloca') || kinds.has('load-store')) {
    const slot = b.alloca(t.int, kinds.has('alloca') ? { count: c.int(t.uint, 4), name: nextName() } : {});
    b.store(recent(), slot);
    pool.push(b.load(slot, { volatile: kinds.has('load-store') }));
  }
  if (kinds.has('malloc')) {
    const m = b.malloc(t.int, { count: b.cast(recent(), t.uint) });
    b.store(any(), m);
    pool.push(b.load(m));
    b.free(m);
    b.free(b.malloc(t.array(t.double, 2)));
  }
  if (kinds.has('packed')) {
    const v4 = t.packed(t.int, 4);
    const k = c.packed([0, 1, -1, 2147483647].map((n) => c.int(t.int, n)));
    const slot = b.alloca(v4);
    b.store(k, slot);
    const v = b.add(b.load(slot), k);
    const w = b.insertElement(v, recent(), c.int(t.uint, 2));
    pool.push(b.extractElement(w, c.int(t.uint, 2)));
  }

  // Control flow: entry → (invoke → normal) → (switch over three ways) → exit, which joins
  // them with a phi; an unreachable block where the version has `unreachable`.
  const exit = mb.addBlock(main, 'exit');
  const incoming: [Value, BasicBlock][] = [];
  let at = entry;
  let bb = b;
  if (kinds.has('invoke')) {
    const normal = mb.addBlock(main, 'normal');
    const unwind = mb.addBlock(main, 'unwind');
    pool.push(bb.invoke(callee, [recent()], normal, unwind, nextName()));
    mb.builder(unwind).unwind();
    at = normal;
    bb = mb.builder(normal);
  }
  if (kinds.has('switch')) {
    const one = mb.addBlock(main, nextName());
    const two = mb.addBlock(main);
    const sw = bb.switch(recent(), exit, [
      [c.int(t.int, 1), one],
      [c.int(t.int, -2147483648), two],
    ]);
    bb.addCase(sw, c.int(t.int, 2147483647), one);
    incoming.push([recent(), at]);
    mb.builder(one).br(exit);
    incoming.push([any(), one]);
    mb.builder(two).br(exit);
    incoming.push([c.int(t.int, 7), two]);
  } else {
    bb.br(exit);
    incoming.push([recent(), at]);
  }
  const e = mb.builder(exit);
  e.ret(kinds.has('phi') ? e.phi(t.int, incoming, nextName()) : incoming[0]![0]);
  if (version >= 5 && kinds.has('invoke')) mb.builder(mb.addBlock(main, 'never')).unreachable();
  return mb.build();
}
