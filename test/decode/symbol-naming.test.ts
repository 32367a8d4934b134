/**
 * Names that clash in a symbol table (a damaged or made-up file: LLVM's writer never wrote one)
 * are named as LLVM 1.9's reader named them (src/decode/symbol-naming.ts): in file order, unique
 * per type within the function's or the module's table, a clashing name followed by the table's
 * one counter, a renamed value giving up its old name. Each file is made by rewriting the symbol
 * table of a module we assembled; where LLVM 1.9's `llvm-dis` is at hand, its listing of the same
 * file is the reference, else the listing stated here.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { analyzeBytes } from '../../src/analyze/index.js';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import type { BlockNode } from '../../src/analyze/index.js';
import { vbr } from '../support/assemble.js';
import { PlaneNameFilter, SymbolNaming } from '../../src/decode/symbol-naming.js';
import { primitiveTypes } from '../../src/graph/type.js';

import { LLVM19, needs } from '../support/tools.js';

/** One plane of a symbol table: its type id and its (slot, name) entries. */
interface Plane {
  typeId: number;
  entries: [slot: number, name: string][];
}

/** A version-6 symbol table's body: no named types, then `planes`. */
function tableBody(planes: Plane[]): number[] {
  const out = [...vbr(0)];
  for (const p of planes) {
    out.push(...vbr(p.entries.length), ...vbr(p.typeId));
    for (const [slot, name] of p.entries) out.push(...vbr(slot), ...vbr(name.length), ...Buffer.from(name, 'latin1'));
  }
  return out;
}

/** The planes of a version-6 symbol table's body (see `tableBody`). */
function planesOf(body: Uint8Array): Plane[] {
  let at = 0;
  const next = (): number => {
    let n = 0;
    let shift = 1;
    for (;;) {
      const b = body[at++]!;
      n += (b & 0x7f) * shift;
      if (b < 0x80) return n;
      shift *= 128;
    }
  };
  expect(next()).toBe(0); // no named types
  const planes: Plane[] = [];
  while (at < body.length) {
    const count = next();
    const plane: Plane = { typeId: next(), entries: [] };
    for (let i = 0; i < count; i++) {
      const slot = next();
      const length = next();
      plane.entries.push([slot, Buffer.from(body.subarray(at, at + length)).toString('latin1')]);
      at += length;
    }
    planes.push(plane);
  }
  return planes;
}

/** `text` assembled (version 6, uncompressed). */
const assembled = (text: string): Uint8Array => writeModule(parseAssembly(text), { bytecodeVersion: 6, compression: 'none' });

/** The module block, and its first function block with a body (if any). */
function blocksOf(bytes: Uint8Array): { module: BlockNode; fn: BlockNode | undefined } {
  const module = analyzeBytes(bytes).blocks[0]!;
  return { module, fn: module.children.find((c) => c.kind === 'function') };
}

const tableIn = (block: BlockNode): BlockNode => block.children.find((c) => c.kind === 'symbolTable')!;
const bodyOf = (bytes: Uint8Array, b: BlockNode): Uint8Array => bytes.subarray(b.offset + b.headerSize, b.offset + b.headerSize + b.bodySize);

/**
 * `bytes` with the symbol table of `owner` (the module block, or a function block within it)
 * replaced by the tables `tables`, and the sizes of the blocks around it made to fit.
 */
function withTables(bytes: Uint8Array, owner: BlockNode, enclosing: BlockNode[], tables: Plane[][]): Uint8Array {
  const old = tableIn(owner);
  const shortHeader = (body: number[]): number[] => {
    const word = ((body.length << 5) | old.id) >>> 0;
    return [word & 0xff, (word >>> 8) & 0xff, (word >>> 16) & 0xff, word >>> 24];
  };
  expect(old.headerSize).toBe(4);
  const replacement = tables.flatMap((t) => {
    const body = tableBody(t);
    return [...shortHeader(body), ...body];
  });
  const end = old.offset + old.headerSize + old.bodySize;
  const out = new Uint8Array(bytes.length - (end - old.offset) + replacement.length);
  out.set(bytes.subarray(0, old.offset));
  out.set(replacement, old.offset);
  out.set(bytes.subarray(end), old.offset + replacement.length);
  const grown = replacement.length - (end - old.offset);
  const view = new DataView(out.buffer);
  for (const b of enclosing) {
    if (b.headerSize === 8) view.setUint32(b.offset + 4, view.getUint32(b.offset + 4, true) + grown, true);
    else {
      const word = view.getUint32(b.offset, true);
      view.setUint32(b.offset, ((((word >>> 5) + grown) << 5) | (word & 31)) >>> 0, true);
    }
  }
  return out;
}

/** `bytes` with its first function's symbol table replaced by `tables` (made from its own planes). */
function withFunctionTables(bytes: Uint8Array, edit: (planes: Plane[]) => Plane[][]): Uint8Array {
  const { module, fn } = blocksOf(bytes);
  return withTables(bytes, fn!, [module, fn!], edit(planesOf(bodyOf(bytes, tableIn(fn!)))));
}

/** `bytes` with its module symbol table replaced by `tables` (made from its own planes). */
function withModuleTables(bytes: Uint8Array, edit: (planes: Plane[]) => Plane[][]): Uint8Array {
  const { module } = blocksOf(bytes);
  return withTables(bytes, module, [module], edit(planesOf(bodyOf(bytes, tableIn(module)))));
}

/** Our listing of `bytes` (LLVM 1.9's of every case is compared with it in 'against llvm-dis' below). */
function listing(bytes: Uint8Array): string {
  const ours = printModule(readModule(bytes));
  // The same names once the body is made into objects, and after writing and reading back.
  const materialized = readModule(bytes);
  for (const f of materialized.functions) void f.blocks.length;
  expect(printModule(materialized)).toBe(ours);
  expect(printModule(readModule(writeModule(readModule(bytes), { bytecodeVersion: 6, compression: 'none' })))).toBe(ours);
  return ours;
}

/** The lines of `text` that define or use a local name (`%…`), without their comments. */
const bodyLines = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => /^\t|^[A-Za-z0-9_.]+:|^int %f/.test(l))
    .map((l) => l.replace(/\t\t;.*$/, '').trim());

const F = assembled(`implementation
int %f(int %a) {
entry:
	%x = add int %a, 1
	br label %next
next:
	%y = mul int %x, 2
	%w = sub int %y, 2
	ret int %w
}
`);

/** The entries of `plane` with their names replaced by `names`, in order. */
const renamed = (plane: Plane, names: Record<string, string>): Plane => ({
  ...plane,
  entries: plane.entries.map(([slot, name]) => [slot, names[name] ?? name]),
});
/** The plane of `planes` that names `name`. */
const planeNaming = (planes: Plane[], name: string): Plane => planes.find((p) => p.entries.some(([, n]) => n === name))!;

/** Two globals of one type, both used. */
const GLOBALS = assembled(
  '%g = global int 1\n%h = global int 2\nimplementation\nint %f() {\nentry:\n\t%v = load int* %g\n\t%w = load int* %h\n\t%s = add int %v, %w\n\tret int %s\n}\n',
);

/** The modules of the clash tests below: F, or a module with its symbol tables edited. */
const CASES = {
  noClash: () => F,
  twice: () => withFunctionTables(F, (planes) => [planes.map((p) => (p === planeNaming(planes, 'w') ? renamed(p, { w: 'x' }) : p))]),
  acrossNames: () =>
    withFunctionTables(F, (planes) => [planes.map((p) => (p === planeNaming(planes, 'w') ? renamed(p, { a: 'v', w: 'v', x: 'u', y: 'u' }) : p))]),
  blocks: () => withFunctionTables(F, (planes) => [planes.map((p) => (p === planeNaming(planes, 'next') ? renamed(p, { next: 'entry' }) : p))]),
  secondPlane: () =>
    withFunctionTables(F, (planes) => {
      const ints = planeNaming(planes, 'x');
      const [first, ...rest] = ints.entries;
      // a, then (w, x, y) in a plane of their own, with w renamed a.
      const split = [{ ...ints, entries: [first!] }, renamed({ ...ints, entries: rest }, { w: 'a' })];
      return [planes.flatMap((p) => (p === ints ? split : [p]))];
    }),
  givesUp: () =>
    withFunctionTables(F, (planes) => {
      const ints = planeNaming(planes, 'x');
      const xSlot = ints.entries.find(([, n]) => n === 'x')![0];
      return [
        planes.map((p) =>
          p === ints ? { ...p, entries: [...p.entries.filter(([, n]) => n !== 'w'), [xSlot, 'q'], [p.entries.find(([, n]) => n === 'w')![0], 'x']] } : p,
        ),
      ];
    }),
  secondTable: () => withFunctionTables(F, (planes) => [planes, planes.map((p) => renamed(p, { x: 'y', y: 'x' }))]),
  moduleValueInFunctionTable: () =>
    (() => {
      const bytes = assembled(
        '%g = global int 1\nimplementation\nint %f() {\nentry:\n\t%v = load int* %g\n\tret int %v\n}\nint %h() {\nentry:\n\t%w = call int %f()\n\tret int %w\n}\n',
      );
      const { module, fn } = blocksOf(bytes);
      const functionsPlane = planesOf(bodyOf(bytes, tableIn(module))).find((p) => p.entries.some(([, n]) => n === 'h'))!;
      const slotOf = (name: string): number => functionsPlane.entries.find(([, n]) => n === name)![0];
      const late: Plane = {
        typeId: functionsPlane.typeId,
        entries: [
          [slotOf('h'), 'f'],
          [slotOf('f'), 'late'],
        ],
      };
      return withTables(bytes, fn!, [module, fn!], [[...planesOf(bodyOf(bytes, tableIn(fn!))), late]]);
    })(),
  secondModuleTable: () => withModuleTables(GLOBALS, (planes) => [planes, planes.map((p) => renamed(p, { g: 'h' }))]),
  globalClash: () => withModuleTables(GLOBALS, (planes) => [planes.map((p) => renamed(p, { h: 'g' }))]),
} satisfies Record<string, () => Uint8Array>;

describe('names that clash in a symbol table', () => {
  it('keeps names as they are when nothing clashes (what LLVM wrote)', () => {
    expect(bodyLines(listing(CASES.noClash()))).toEqual([
      'int %f(int %a) {',
      'entry:',
      '%x = add int %a, 1',
      'br label %next',
      'next:',
      '%y = mul int %x, 2',
      '%w = sub int %y, 2',
      'ret int %w',
    ]);
  });

  it('gives a name met twice in a plane the table counter: the later entry is renamed', () => {
    // The int plane lists a, w, x, y (LLVM's map order); w is renamed x: x (sub) then x (add).
    expect(bodyLines(listing(CASES.twice()))).toEqual([
      'int %f(int %a) {',
      'entry:',
      '%x1 = add int %a, 1',
      'br label %next',
      'next:',
      '%y = mul int %x1, 2',
      '%x = sub int %y, 2',
      'ret int %x',
    ]);
  });

  it('counts on across names: one counter per table, not per name', () => {
    expect(bodyLines(listing(CASES.acrossNames()))).toEqual([
      'int %f(int %v) {',
      'entry:',
      '%u = add int %v, 1',
      'br label %next',
      'next:',
      '%u2 = mul int %u, 2',
      '%v1 = sub int %u2, 2',
      'ret int %v1',
    ]);
  });

  it('renames blocks that clash in the label plane', () => {
    expect(bodyLines(listing(CASES.blocks()))).toEqual([
      'int %f(int %a) {',
      'entry:',
      '%x = add int %a, 1',
      'br label %entry1',
      'entry1:',
      '%y = mul int %x, 2',
      '%w = sub int %y, 2',
      'ret int %w',
    ]);
  });

  it('treats a second plane of the same type as the same names', () => {
    expect(bodyLines(listing(CASES.secondPlane()))).toEqual([
      'int %f(int %a) {',
      'entry:',
      '%x = add int %a, 1',
      'br label %next',
      'next:',
      '%y = mul int %x, 2',
      '%a1 = sub int %y, 2',
      'ret int %a1',
    ]);
  });

  it('lets a value renamed within the table give its old name up', () => {
    // x is named x, then renamed q; then w takes x, which is free again.
    expect(bodyLines(listing(CASES.givesUp()))).toEqual([
      'int %f(int %a) {',
      'entry:',
      '%q = add int %a, 1',
      'br label %next',
      'next:',
      '%y = mul int %q, 2',
      '%x = sub int %y, 2',
      'ret int %x',
    ]);
  });

  it("names by a second table in turn, from the first one's names", () => {
    // The second table swaps x and y, in the first one's entry order: the add, named y while
    // the mul still holds y, gets y1; the mul then takes x, which the add has given up.
    const lines = bodyLines(listing(CASES.secondTable()));
    expect(lines).toEqual([
      'int %f(int %a) {',
      'entry:',
      '%y1 = add int %a, 1',
      'br label %next',
      'next:',
      '%x = mul int %y1, 2',
      '%w = sub int %x, 2',
      'ret int %w',
    ]);
  });

  it("names a module value a function's table names after the module's table, as LLVM read bodies last", () => {
    // The module's plane of `int ()*` names %f and %h; the first body's table names %f `late`, and
    // %h `f`, which %f still holds when that entry is read: `f1`.
    const text = listing(CASES.moduleValueInFunctionTable());
    expect(text).toContain('int %late() {');
    expect(text).toContain('int %f1() {');
    expect(text).toContain('call int %late( )');
  });

  it("names by a second module table in turn, from the first one's names", () => {
    // The second table names %g `h`, which %h still holds: `h1`.
    const text = listing(CASES.secondModuleTable());
    expect(text).toContain('%h1 = global int 1');
    expect(text).toContain('%h = global int 2');
  });

  it("renames a global that clashes in the module's table", () => {
    const text = listing(CASES.globalClash());
    expect(text).toContain('%g = global int 1');
    expect(text).toContain('%g1 = global int 2');
    expect(text).toContain('load int* %g1');
  });
});

describe("names that clash in a symbol table, against LLVM 1.9's llvm-dis", needs(LLVM19), () => {
  for (const [name, bytes] of Object.entries(CASES)) {
    it(`${name}: llvm-dis prints the module as we do, byte for byte`, () => {
      const input = bytes();
      expect(printModule(readModule(input))).toBe(execFileSync(LLVM19.path('llvm-dis'), { input }).toString('latin1'));
    });
  }
});

describe('the clash check of a plane (PlaneNameFilter)', () => {
  const hash = (name: string): number => {
    // Any hash serves for correctness; a poor one (many equal) tests the probing.
    return name.length;
  };

  it('finds a repeated name among names whose hashes collide', () => {
    const filter = new PlaneNameFilter();
    filter.beginPlane(3);
    expect(filter.repeats('ab', hash('ab'))).toBe(false);
    expect(filter.repeats('cd', hash('cd'))).toBe(false);
    expect(filter.repeats('ab', hash('ab'))).toBe(true);
    expect(filter.repeats('cd', hash('cd'))).toBe(true);
    expect(filter.repeats('ef', hash('ef'))).toBe(false);
  });

  it('starts every plane empty, small or large', () => {
    const filter = new PlaneNameFilter();
    for (const count of [2, 5000, 2, 600_000, 2]) {
      filter.beginPlane(count);
      expect(filter.repeats('x', 1)).toBe(false);
      expect(filter.repeats('y', 1)).toBe(false);
      expect(filter.repeats('x', 1)).toBe(true);
    }
  });

  it('takes a plane of many names', () => {
    const filter = new PlaneNameFilter();
    filter.beginPlane(3000);
    for (let i = 0; i < 3000; i++) expect(filter.repeats(`n${i}`, (i * 2654435761) & 0x3fffffff)).toBe(false);
    expect(filter.repeats('n1234', (1234 * 2654435761) & 0x3fffffff)).toBe(true);
  });
});

describe('LLVM naming (SymbolNaming)', () => {
  const int = primitiveTypes.int;
  const uint = primitiveTypes.uint;

  it('keeps names unique per type, not across types', () => {
    const n = new SymbolNaming<string>();
    expect(n.name('a', int, 'x')).toBe('x');
    expect(n.name('b', uint, 'x')).toBe('x');
    expect(n.name('c', int, 'x')).toBe('x1');
  });

  it('counts past names already taken, one counter for the table', () => {
    const n = new SymbolNaming<string>();
    n.name('a', int, 'x');
    n.name('b', int, 'x1');
    expect(n.name('c', int, 'x')).toBe('x2');
    expect(n.name('d', int, 'y')).toBe('y');
    expect(n.name('e', int, 'y')).toBe('y3');
  });

  it('frees a name when its value is renamed or unnamed, and leaves a value named as it is', () => {
    const n = new SymbolNaming<string>();
    n.name('a', int, 'x');
    expect(n.name('a', int, 'x')).toBe('x');
    n.name('a', int, 'y');
    expect(n.name('b', int, 'x')).toBe('x');
    expect(n.name('b', int, '')).toBe('');
    expect(n.name('c', int, 'x')).toBe('x');
  });
});
