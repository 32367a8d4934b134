import { describe, expect, it } from 'vitest';
import { SlotCalculator } from '../../src/encode/slot-calculator.js';
import { writeStream } from '../../src/encode/module-block.js';
import type { StructType, PointerType } from '../../src/graph/type.js';
import { block, emptyModule, fnType, func, global, hex, inst, int, P, ptr } from './helpers.js';

describe('SlotCalculator: type numbering', () => {
  it('numbers a type before the types inside it, which follow in post order', () => {
    // %t = type { A, A },  A = { A*, %t }  (Assembler__2002-04-04-PureVirtMethCall2)
    const t: StructType = { kind: 'struct', elements: [] };
    const a: StructType = { kind: 'struct', elements: [] };
    const aPtr: PointerType = ptr(a);
    a.elements.push(aPtr, t);
    t.elements.push(a, a);
    const m = emptyModule();
    m.typeNames.set('t', t);
    const sc = new SlotCalculator(m);
    expect(sc.types.slice(13)).toEqual([t, aPtr, a]);
    expect(sc.typeSlot(t)).toBe(13);
    expect(hex(writeStream(m, 6))).toBe('6c6c766d' + '01000000220000006c66010000030e0f0f00100f0e0e0d00c5000000000000000000840000000' + '10d0174');
  });

  it('gives primitives their LLVM type ids and names them in the symbol table (Assembler__2002-12-15-GlobalResolve)', () => {
    const m = emptyModule();
    m.typeNames.set('T', P.int);
    const x = global(ptr(P.int), undefined, 'X');
    m.globals.push(x);
    const sc = new SlotCalculator(m);
    expect(sc.typeSlot(P.int)).toBe(7);
    expect(sc.typeSlot(x.type)).toBe(13);
    expect(sc.slotOf(x)).toBe(1); // slot 0 of a pointer plane is its implicit null
    expect(hex(writeStream(m, 6))).toBe('6c6c766d' + '01000000230000006ca600000002100e100705010000a0030000000000002401000001070154010d010158');
  });

  it('writes a recursive function type through its pointer (Assembler__2003-06-30-RecursiveTypeProblem)', () => {
    const ft = fnType(P.void, []);
    const p = ptr(ft);
    ft.params.push(p);
    const m = emptyModule();
    m.typeNames.set('MidFnTy', ft);
    expect(hex(writeStream(m, 6))).toBe('6c6c766d' + '01000000240000006ce6000000020d00010e100dc500000000000000000044010000010d074d6964466e5479');
  });
});

describe('SlotCalculator: values', () => {
  it('puts every constant a function uses into the module planes, after the globals', () => {
    const m = emptyModule();
    const g = global(P.int, int(P.int, 7), 'g');
    m.globals.push(g);
    const ft = fnType(P.int, [P.int]);
    const f = func(ft, 'f', []);
    const add = inst('add', P.int, [f.args[0]!, int(P.int, 5)]);
    const ret = inst('ret', P.void, [add]);
    f.blocks.push(block([add, ret]));
    f.isDeclaration = false;
    m.functions.push(f);
    const sc = new SlotCalculator(m);
    // int plane: implicit null, the initializer 7, then 5 (used by f)
    // (Module-level planes hold values; a function's own instructions and blocks are numbers, its body's value codes.)
    expect(sc.table[7]!.map((v) => (typeof v === 'number' ? 'local' : v.kind === 'int' ? v.value : v.kind))).toEqual([0n, 7n, 5n]);
    // A second `int 5` object is the same constant.
    expect(sc.slotOf(int(P.int, 5))).toBe(2);
    expect(sc.slotOf(int(P.int, 0))).toBe(0);
  });

  it('numbers arguments, then blocks and instructions while a function is incorporated, and forgets them after', () => {
    const m = emptyModule();
    const ft = fnType(P.int, [P.int, P.int]);
    const f = func(ft, 'f', []);
    const add = inst('add', P.int, [f.args[0]!, f.args[1]!]);
    const ret = inst('ret', P.void, [add]);
    const bb = block([add, ret]);
    f.blocks.push(bb);
    f.isDeclaration = false;
    m.functions.push(f);
    const sc = new SlotCalculator(m);
    sc.incorporateFunction(f);
    expect([sc.slotOf(f.args[0]!), sc.slotOf(f.args[1]!), sc.slotOf(add), sc.slotOf(bb)]).toEqual([1, 2, 3, 0]);
    sc.purgeFunction();
    expect(sc.slotOf(add)).toBe(-1);
    // As in LLVM, the plane keeps the implicit null it gained when the function's values moved in.
    expect(sc.table[7]!.map((v) => (typeof v === 'number' ? 'local' : v.kind))).toEqual(['int']);
  });

  it('writes a small function with a conditional branch in LLVM operand order', () => {
    const m = emptyModule();
    const ft = fnType(P.void, [P.bool]);
    const f = func(ft, undefined, []);
    const b1 = block([]);
    const b2 = block([]);
    const b0 = block([inst('br', P.void, [f.args[0]!, b1, b2])]);
    b1.instructions.push(inst('br', P.void, [b2]));
    b2.instructions.push(inst('ret', P.void, []));
    f.blocks.push(b0, b1, b2);
    f.isDeclaration = false;
    m.functions.push(f);
    const bytes = writeStream(m, 6);
    // br ifTrue=1, ifFalse=2, cond=arg slot 1 → format 3: 3 | 2<<2 | label(12)<<8 | 1<<14 | 2<<20 | 1<<26
    const word = (3 | (2 << 2) | (12 << 8) | (1 << 14) | (2 << 20) | (1 << 26)) >>> 0;
    const le = [word & 255, (word >>> 8) & 255, (word >>> 16) & 255, word >>> 24];
    expect(hex(bytes)).toContain(Buffer.from(le).toString('hex'));
  });
});

describe('SlotCalculator: compaction tables', () => {
  /** f(int %x) adds each of `n` distinct int constants to %x; returns the module, f and the adds. */
  function addsOfConstants(n: number) {
    const m = emptyModule();
    const f = func(fnType(P.void, [P.int]), 'f', []);
    const adds = Array.from({ length: n }, (_, i) => inst('add', P.int, [f.args[0]!, int(P.int, i + 1)]));
    f.blocks.push(block([...adds, inst('ret', P.void, [])]));
    f.isDeclaration = false;
    m.functions.push(f);
    return { m, f, adds };
  }

  it('prunes every plane that stays below 64 entries when merged, leaving no compaction table', () => {
    const { m, f, adds } = addsOfConstants(3);
    const sc = new SlotCalculator(m);
    sc.incorporateFunction(f);
    expect(sc.compactionTableIsEmpty()).toBe(true);
    // Function values follow the module's constants in the global int plane.
    expect(sc.slotOf(f.args[0]!)).toBe(4);
    expect(sc.slotOf(adds[0]!)).toBe(5);
  });

  it('keeps a plane compacted when merging would reach 64 entries, numbering locals after its module part', () => {
    const { m, f, adds } = addsOfConstants(70);
    const sc = new SlotCalculator(m);
    sc.incorporateFunction(f);
    expect(sc.compactionTableIsEmpty()).toBe(false);
    expect(sc.compactionTypes).toEqual([]); // fewer than 64 first-class types: types stay global
    expect(sc.getModuleLevel(7)).toBe(71); // null + 70 constants
    expect(sc.slotOf(f.args[0]!)).toBe(71);
    expect(sc.slotOf(adds[69]!)).toBe(141);
    // The compaction block lists the 70 constants' global slots after a count/plane header.
    const bytes = writeStream(m, 6);
    const header = hex(new Uint8Array([0x9b, 0x02, 0x07])); // vbr(70 << 2 | 3), plane 7
    expect(hex(bytes)).toContain('00' + header + '0102030405');
  });
});
