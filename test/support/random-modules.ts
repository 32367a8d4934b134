/**
 * Random modules for property tests, built with the construction API: straight-line arithmetic
 * functions over a random type (operators, operands, constants and clashing names), and random
 * type trees. Shared by the builder's and the assembler's property tests.
 */
import fc from 'fast-check';
import { ModuleBuilder, type BinaryOpcode, type CompareOpcode } from '../../src/build/index.js';
import type { Module } from '../../src/graph/module.js';
import { isFloatingPoint, isSigned, type Type } from '../../src/graph/type.js';
import type { Value } from '../../src/graph/value.js';

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
  const f = mb.addFunction('f', t.function(ty, Array.from({ length: params }, () => ty)), {
    argNames: Array.from({ length: params }, (_, i) => (i % 2 ? 'x' : undefined)),
  });
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
      return t.pointer(t.function(firstClass(makeType(mb, d.ret)), d.params.map((p) => firstClass(makeType(mb, p))), d.va));
    }
  }
}

