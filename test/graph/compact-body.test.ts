/**
 * Function bodies are decoded (and checked) by `readModule`, held compactly, and become graph
 * objects the first time `blocks` or `layout` is read: callers see the same module as ever.
 */
import { describe, expect, it } from 'vitest';
import { isBodyCompact, OPCODE_NUMBER, OPCODES } from '../../src/graph/compact-body.js';
import { writeModule } from '../../src/encode/write.js';
import type { Function, Instruction, Value } from '../../src/graph/value.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { syntheticModule } from '../../tools/synthetic-module.js';
import { CORPUS_PRESENT, NEEDS_CORPUS, readCorpusFile } from '../support/corpus.js';

const bytes = writeModule(syntheticModule(3), { bytecodeVersion: 6, compression: 'none' });
const bodies = (fns: Function[]): Function[] => fns.filter((f) => !f.isDeclaration);

describe('compact function bodies', () => {
  it('stay compact until their blocks are read, then are ordinary objects', () => {
    const m = readModule(bytes);
    const [f, g] = bodies(m.functions);
    expect(isBodyCompact(f!)).toBe(true);
    const blocks = f!.blocks;
    expect(isBodyCompact(f!)).toBe(false);
    expect(isBodyCompact(g!)).toBe(true);
    expect(f!.blocks).toBe(blocks); // materialized once
    expect(Object.getOwnPropertyDescriptor(f, 'blocks')).toMatchObject({ enumerable: true });
    expect(Object.keys(g!)).toContain('blocks');
    expect({ ...f! }.blocks).toBe(blocks);
  });

  it('give every operand the object it names: instructions and blocks of the same function', () => {
    const m = readModule(bytes);
    for (const f of bodies(m.functions)) {
      const own = new Set<Value>(f.blocks.flatMap((b) => [b, ...b.instructions]));
      for (const b of f.blocks) {
        for (const inst of b.instructions) {
          for (const op of inst.operands) {
            expect(op).toBeDefined();
            if (op.kind === 'instruction' || op.kind === 'block') expect(own.has(op)).toBe(true);
            if (op.kind === 'argument') expect(f.args).toContain(op);
          }
        }
      }
    }
  });

  it('name instructions and blocks from the symbol table, with the layout pointing at the same objects', () => {
    const m = readModule(bytes);
    const f = bodies(m.functions)[1]!;
    const layoutValues = f.layout!.valuePlanes.flatMap((p) => p.values);
    expect(f.blocks.map((b) => b.name)).toEqual(['entry', 'loop', 'odd', 'next', 'exit']);
    const named = f.blocks.flatMap((b) => b.instructions).filter((i) => i.name !== undefined);
    expect(named.map((i) => i.name)).toContain('i');
    for (const v of named) expect(layoutValues).toContain(v);
    for (const b of f.blocks) expect(layoutValues).toContain(b);
  });

  it('materialize on first access to layout as well', () => {
    const m = readModule(bytes);
    const f = bodies(m.functions)[0]!;
    const layout = f.layout!;
    expect(isBodyCompact(f)).toBe(false);
    const first = f.blocks[0]!;
    expect(layout.valuePlanes.some((p) => p.values.includes(first))).toBe(true);
  });

  it('accept a new body assigned before the old one was read', () => {
    const m = readModule(bytes);
    const f = bodies(m.functions)[0]!;
    const g = bodies(m.functions)[1]!;
    f.blocks = g.blocks;
    expect(f.blocks).toBe(g.blocks);
    expect(isBodyCompact(f)).toBe(false);
  });

  it('keep the extra fields of calls, allocations and the like', () => {
    const m = readModule(bytes);
    const calls: Instruction[] = bodies(m.functions)
      .flatMap((f) => f.blocks.flatMap((b) => b.instructions))
      .filter((i) => i.opcode === 'call');
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(c).toMatchObject({ callingConv: 0, isTailCall: false });
  });

  it('write back byte for byte', () => {
    expect(writeModule(readModule(bytes), { bytecodeVersion: 6, compression: 'none' })).toEqual(bytes);
  });
});

describe('names shared between functions', () => {
  it('are one string for the same bytes, and stay right when different names share a hash slot', () => {
    const m = readModule(bytes);
    const [f, g] = bodies(m.functions);
    expect(f!.blocks[0]!.name).toBe('entry');
    expect(g!.blocks[0]!.name).toBe('entry');
    const names = new Set(m.functions.flatMap((fn) => fn.blocks.flatMap((b) => [b.name, ...b.instructions.map((i) => i.name)])));
    expect(names).toEqual(new Set(syntheticModule(3).functions.flatMap((fn) => fn.blocks.flatMap((b) => [b.name, ...b.instructions.map((i) => i.name)]))));
  });
});

describe.skipIf(!CORPUS_PRESENT)('compact bodies of real files', NEEDS_CORPUS, () => {
  it('print the same whichever function is materialized first', () => {
    const file = readCorpusFile('v6', 'Transforms__InstCombine__cast.bc');
    const inOrder = printModule(readModule(file));
    const m = readModule(file);
    for (const f of [...m.functions].reverse()) void f.blocks;
    expect(printModule(m)).toBe(inOrder);
  });
});

describe('NameInterner', () => {
  it('returns equal names as one string and never confuses different bytes', async () => {
    const { NameInterner } = await import('../../src/decode/name-interner.js');
    const names = new NameInterner();
    const enc = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
    const a = enc('tmp.1');
    expect(names.name(a, 0, a.length)).toBe('tmp.1');
    expect(names.name(enc('tmp.1'), 0, 5)).toBe('tmp.1');
    for (let i = 0; i < 20000; i++) {
      const s = `v${i}\xff`;
      const got = names.name(enc(s), 0, s.length);
      expect(got).toBe(s);
    }
    const long = 'x'.repeat(100);
    expect(names.name(enc(long), 0, 100)).toBe(long);
  });
});

describe('the compact bodies’ opcode numbers', () => {
  it('number every opcode once, 0 to n - 1, with the numbers of versions 0–6 first (the Op enum the reader switches on)', () => {
    expect(OPCODES.length).toBe(Object.keys(OPCODE_NUMBER).length);
    OPCODES.forEach((op, n) => expect(OPCODE_NUMBER[op], op).toBe(n));
    expect([OPCODE_NUMBER.ret, OPCODE_NUMBER.unreachable, OPCODE_NUMBER.shufflevector, OPCODE_NUMBER.bitcast]).toEqual([0, 5, 42, 58]);
  });
});
