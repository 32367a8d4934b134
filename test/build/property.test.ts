/**
 * Property: any straight-line arithmetic function built with the API (random types, operators,
 * operands, constants and names, including clashing names) verifies, and survives writing and
 * reading back at versions 6, 5, 3 and 1 (0 for type trees): the same text, and the same bytes when written again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModuleBuilder, type BinaryOpcode, type CompareOpcode } from '../../src/build/index.js';
import { writeModule } from '../../src/encode/write.js';
import { verifyModule } from '../../src/encode/verify.js';
import type { Module } from '../../src/graph/module.js';
import { isFloatingPoint, isSigned, type Type } from '../../src/graph/type.js';
import type { Value } from '../../src/graph/value.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';

const TYPE_NAMES = ['sbyte', 'ubyte', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'float', 'double'] as const;
type TypeName = (typeof TYPE_NAMES)[number];

/** One step: an operation and choices of operands (indices into the values so far, or constants). */
interface Step {
  op: 'binary' | 'shift' | 'compare-select' | 'cast-round-trip';
  which: number;
  lhs: number;
  rhs: number;
  constant: number;
  useConstant: boolean;
  name: string | undefined;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
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

function build(typeName: TypeName, otherName: TypeName, params: number, steps: readonly Step[]): Module {
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

describe('straight-line arithmetic built with the API', () => {
  it('always verifies and round-trips through write/read at versions 6, 5, 3 and 1 (0 has no select)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TYPE_NAMES),
        fc.constantFrom(...TYPE_NAMES),
        fc.integer({ min: 1, max: 4 }),
        fc.array(stepArb, { maxLength: 40 }),
        (typeName, otherName, params, steps) => {
          const m = build(typeName, otherName, params, steps);
          expect(verifyModule(m)).toEqual([]);
          const text = printModule(m);
          for (const version of [6, 5, 3, 1]) {
            const bytes = writeModule(m, { bytecodeVersion: version, compression: 'none' });
            const back = readModule(bytes);
            expect(printModule(back)).toBe(text);
            expect(writeModule(back, { bytecodeVersion: version, compression: 'none' })).toEqual(bytes);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** A type described as data, to be built twice. */
type TypeDesc =
  | { k: 'prim'; name: TypeName | 'bool' }
  | { k: 'pointer'; el: TypeDesc }
  | { k: 'array'; el: TypeDesc; n: number }
  | { k: 'struct'; els: TypeDesc[] }
  | { k: 'fnptr'; ret: TypeDesc; params: TypeDesc[]; va: boolean };

const typeDescArb: fc.Arbitrary<TypeDesc> = fc.letrec<{ t: TypeDesc }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ k: fc.constant('prim' as const), name: fc.constantFrom(...TYPE_NAMES, 'bool' as const) }),
    fc.record({ k: fc.constant('pointer' as const), el: tie('t') }),
    fc.record({ k: fc.constant('array' as const), el: tie('t'), n: fc.nat(3) }),
    fc.record({ k: fc.constant('struct' as const), els: fc.array(tie('t'), { maxLength: 3 }) }),
    fc.record({ k: fc.constant('fnptr' as const), ret: tie('t'), params: fc.array(tie('t'), { maxLength: 2 }), va: fc.boolean() }),
  ),
})).t;

function makeType(mb: ModuleBuilder, d: TypeDesc): Type {
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

describe('types built with the API', () => {
  it('are interned (built twice: the same object) and a zero global of each round-trips', () => {
    fc.assert(
      fc.property(fc.array(typeDescArb, { minLength: 1, maxLength: 4 }), (descs) => {
        const mb = new ModuleBuilder();
        descs.forEach((d, i) => {
          const ty = makeType(mb, d);
          expect(makeType(mb, d)).toBe(ty);
          mb.addGlobal(`g${i}`, ty, { initializer: mb.constants.zero(ty) });
        });
        const m = mb.build();
        const text = printModule(m);
        for (const version of [6, 5, 3, 1, 0]) {
          const bytes = writeModule(m, { bytecodeVersion: version, compression: 'none' });
          expect(printModule(readModule(bytes))).toBe(text);
        }
      }),
      { numRuns: 150 },
    );
  });
});
