/**
 * The type builder interns types (equal types are one object, as the writer and printer need),
 * the constant builder computes exact values and bits, and a built module is plain data.
 */
import { describe, expect, it } from 'vitest';
import { ModuleBuilder } from '../../src/build/index.js';
import { primitiveTypes } from '../../src/graph/type.js';
import { expectModule, llvm } from './helpers.js';

describe('types', () => {
  it('primitive types are the shared singletons', () => {
    const { types: t } = new ModuleBuilder();
    expect(t.int).toBe(primitiveTypes.int);
    expect(t.label).toBe(primitiveTypes.label);
  });

  it('structurally equal derived types are the same object', () => {
    const { types: t } = new ModuleBuilder();
    expect(t.pointer(t.int)).toBe(t.pointer(t.int));
    expect(t.pointer(t.pointer(t.sbyte))).toBe(t.pointer(t.pointer(t.sbyte)));
    expect(t.array(t.int, 4)).toBe(t.array(t.int, 4));
    expect(t.array(t.int, 4)).not.toBe(t.array(t.int, 5));
    expect(t.array(t.int, 4)).not.toBe(t.packed(t.int, 4));
    expect(t.function(t.int, [t.int], true)).toBe(t.function(t.int, [t.int], true));
    expect(t.function(t.int, [t.int], true)).not.toBe(t.function(t.int, [t.int]));
    expect(t.struct([t.int, t.pointer(t.int)])).toBe(t.struct([t.int, t.pointer(t.int)]));
    expect(t.struct([])).toBe(t.struct([]));
  });

  it('opaque types are each distinct', () => {
    const { types: t } = new ModuleBuilder();
    const a = t.opaque();
    const b = t.opaque();
    expect(a).not.toBe(b);
    expect(t.pointer(a)).not.toBe(t.pointer(b));
    expect(t.pointer(a)).toBe(t.pointer(a));
  });

  it('a non-recursive named struct becomes the interned struct of its shape', () => {
    const mb = new ModuleBuilder();
    const t = mb.types;
    const pair = mb.namedStruct('pair', () => [t.int, t.int]);
    expect(t.struct([t.int, t.int])).toBe(pair);
  });

  it('module.types lists the derived types made, in order', () => {
    const mb = new ModuleBuilder();
    const t = mb.types;
    const p = t.pointer(t.int);
    const a = t.array(p, 2);
    expect(mb.build().types).toEqual([p, a]);
  });
});

describe('constants', () => {
  const { types: t, constants: c } = new ModuleBuilder();

  it('integers hold exact values, signed types signed ones', () => {
    expect(c.int(t.sbyte, -128).value).toBe(-128n);
    expect(c.int(t.ulong, 2n ** 64n - 1n).value).toBe(2n ** 64n - 1n);
    expect(c.int(t.long, -(2n ** 63n)).value).toBe(-(2n ** 63n));
  });

  it('floating-point constants carry their IEEE bits', () => {
    expect(c.fp(t.float, 1.5).bits).toBe(0x3fc00000n);
    expect(c.fp(t.double, 0.1).bits).toBe(0x3fb999999999999an);
    expect(c.fp(t.float, 0.1).value).toBe(Math.fround(0.1));
    expect(c.fp(t.double, -0).bits).toBe(0x8000000000000000n);
    expect(c.fp(t.float, Infinity).bits).toBe(0x7f800000n);
  });

  it('zero gives the null value of each kind of type', () => {
    expect(c.zero(t.bool)).toEqual({ kind: 'bool', type: t.bool, value: false });
    expect(c.zero(t.uint)).toEqual({ kind: 'int', type: t.uint, value: 0n });
    expect(c.zero(t.pointer(t.int)).kind).toBe('null');
    expect(c.zero(t.array(t.int, 3)).kind).toBe('zeroinitializer');
  });

  it('strings are sbyte arrays of UTF-8 bytes, NUL-terminated unless asked not to be', () => {
    const s = c.string('é!');
    expect(s.type).toBe(t.array(t.sbyte, 4));
    expect(s.elements.map((e) => (e.kind === 'int' ? e.value : undefined))).toEqual([-61n, -87n, 33n, 0n]);
    expect(c.string('ab', false).type).toBe(t.array(t.sbyte, 2));
    expect(c.string(new Uint8Array([255])).elements[0]).toEqual({ kind: 'int', type: t.sbyte, value: -1n });
  });

  it('constant expressions compute their types', () => {
    const mb = new ModuleBuilder();
    const g = mb.addGlobal('g', mb.types.array(mb.types.int, 3));
    const { types: tt, constants: cc } = mb;
    expect(cc.getelementptr(g, [cc.int(tt.long, 0), cc.int(tt.long, 2)]).type).toBe(tt.pointer(tt.int));
    expect(cc.compare('setlt', cc.int(tt.int, 1), cc.int(tt.int, 2)).type).toBe(tt.bool);
    const v = cc.packed([cc.fp(tt.float, 1), cc.fp(tt.float, 2)]);
    expect(cc.compare('seteq', v, v).type).toBe(tt.packed(tt.bool, 2));
  });
});

describe('a module of constant initializers', () => {
  it('prints as LLVM 1.9 did and survives versions 6 and 5', () => {
    const mb = new ModuleBuilder();
    const { types: t, constants: c } = mb;
    const pair = mb.nameType('pair', t.struct([t.int, t.double]));
    const g = mb.addGlobal('g', t.int, { initializer: c.int(t.int, 7) });
    mb.addGlobal('next', t.pointer(t.int), { initializer: c.getelementptr(g, [c.int(t.long, 1)]) });
    mb.addGlobal('addr', t.long, { initializer: c.add(c.cast(g, t.long), c.int(t.long, 4)) });
    mb.addGlobal('arr', t.array(t.int, 2), { initializer: c.array(t.int, [c.int(t.int, 1), c.int(t.int, -2)]), constant: true });
    mb.addGlobal('p', pair, { initializer: c.struct([c.int(t.int, 3), c.fp(t.double, 2.5)], pair) });
    mb.addGlobal('z', pair, { initializer: c.zero(pair), linkage: 'weak' });
    mb.addGlobal('ext', t.float);
    // A global whose initializer refers to the global itself: add it, then set the initializer.
    const self = mb.addGlobal('self', t.pointer(t.pointer(t.sbyte)), { linkage: 'internal', section: 'data' });
    mb.setInitializer(self, c.cast(self, self.valueType));

    expectModule(
      mb.build(),
      llvm(`
; ModuleID = '<stdin>'
|%pair = type { int, double }
%g = global int 7||; <int*> [#uses=2]
%next = global int* getelementptr (int* %g, long 1)||; <int**> [#uses=0]
%addr = global long add (long cast (int* %g to long), long 4)||; <long*> [#uses=0]
%arr = constant [2 x int] [ int 1, int -2 ]||; <[2 x int]*> [#uses=0]
%p = global %pair { int 3, double 2.500000e+00 }||; <%pair*> [#uses=0]
%z = weak global %pair zeroinitializer||; <%pair*> [#uses=0]
%ext = external global float||; <float*> [#uses=0]
%self = internal global sbyte** cast (sbyte*** %self to sbyte**), section "data"||; <sbyte***> [#uses=1]

implementation   ; Functions:
`),
      [6, 5],
    );
  });
});

describe('mutually recursive structs', () => {
  it('are two shells whose bodies point to each other', () => {
    const mb = new ModuleBuilder();
    const t = mb.types;
    const a = mb.namedStruct('a');
    const b = mb.namedStruct('b');
    mb.setBody(a, [t.pointer(b)]);
    mb.setBody(b, [t.pointer(a), t.int]);
    mb.addGlobal('root', a, { initializer: mb.constants.zero(a) });

    expectModule(
      mb.build(),
      llvm(`
; ModuleID = '<stdin>'
|%a = type { %b* }
|%b = type { %a*, int }
%root = global %a zeroinitializer||; <%a*> [#uses=0]

implementation   ; Functions:
`),
    );
  });
});

describe('the built module', () => {
  it('is plain data: no class instances anywhere in the graph', () => {
    const mb = new ModuleBuilder();
    const { types: t, constants: c } = mb;
    const f = mb.addFunction('f', t.function(t.int, [t.int]), { argNames: ['x'] });
    const b = mb.builder(mb.addBlock(f, 'entry'));
    b.ret(b.mul(f.args[0]!, c.int(t.int, 3), 'y'));
    mb.nameType(
      'list',
      mb.namedStruct('node', (s) => [t.pointer(s)]),
    );
    const m = mb.build();
    const seen = new Set<object>();
    const walk = (v: unknown): void => {
      if (typeof v !== 'object' || v === null || seen.has(v)) return;
      seen.add(v);
      if (v instanceof Map) {
        expect(v).toBe(m.typeNames); // the one Map the graph has
        for (const [k, x] of v) walk(k), walk(x);
        return;
      }
      const proto = Object.getPrototypeOf(v);
      expect(proto === Object.prototype || proto === Array.prototype).toBe(true);
      for (const x of Object.values(v)) walk(x);
    };
    walk(m);
    expect(seen.size).toBeGreaterThan(10);
  });
});
