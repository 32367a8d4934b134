/**
 * A read body keeps its extras' positions, its symbol table's layout and the codes it names as
 * numbers after its own (src/decode/read-body.ts): they read back as the lists the compact form
 * promises, consistent with the objects the body materializes into, and bodies that share lists
 * with the previous one stay independent.
 */
import { describe, expect, it } from 'vitest';
import { writeModule } from '../../src/encode/write.js';
import { readModule } from '../../src/read.js';
import { compactBodyOf, TAG_BLOCK, TAG_INSTRUCTION, TAG_VALUE } from '../../src/graph/compact-body.js';
import { syntheticModule } from '../../tools/synthetic-module.js';

const read = (functions: number) => readModule(writeModule(syntheticModule(functions), { bytecodeVersion: 6, compression: 'none' }));

describe('a read body', () => {
  it('gives extraAt, nameCodes and layout consistent with its materialized objects', () => {
    const m = read(3);
    for (const f of m.functions) {
      const body = compactBodyOf(f)!;
      expect(body).toBeDefined();
      const layout = body.layout!;
      expect(layout.valuePlanes.map((p) => p.codes.length).reduce((a, b) => a + b, 0)).toBe(body.nameCodes.length + f.args.length);
      expect(body.nameCodes.every((c) => (c & 3) === TAG_INSTRUCTION || (c & 3) === TAG_BLOCK)).toBe(true);
      expect(body.names.length).toBe(body.nameCodes.length);
      expect(body.extraAt.length).toBe(body.extras.length);
      const codes = layout.valuePlanes.flatMap((p) => p.codes);
      const blocks = f.blocks;
      const instructions = blocks.flatMap((b) => b.instructions);
      const named = codes.filter((c) => (c & 3) !== TAG_VALUE).map((c) => ((c & 3) === TAG_BLOCK ? blocks[c >>> 2]! : instructions[c >>> 2]!).name);
      expect(named).toEqual(body.names);
      const valueOf = (c: number): unknown => ((c & 3) === TAG_VALUE ? body.values[c >>> 2] : (c & 3) === TAG_BLOCK ? blocks[c >>> 2] : instructions[c >>> 2]);
      expect(f.layout!.valuePlanes.map((p) => p.values)).toEqual(layout.valuePlanes.map((p) => p.codes.map(valueOf)));
      expect(f.layout!.valuePlanes.map((p) => p.type)).toEqual(layout.valuePlanes.map((p) => p.type));
      for (let e = 0; e < body.extraAt.length; e++) expect(instructions[body.extraAt[e]!]).toMatchObject(body.extras[e]!);
    }
  });

  it('keeps bodies apart when they share lists with the previous one', () => {
    const m = read(3);
    const [, second, third] = m.functions;
    expect(compactBodyOf(second!)!.names).toBe(compactBodyOf(third!)!.names);
    second!.blocks[0]!.name = 'renamed';
    expect(third!.blocks[0]!.name).toBe('entry');
    expect(compactBodyOf(third!)).toBeUndefined();
    const again = readModule(writeModule(m, { bytecodeVersion: 6, compression: 'none' }));
    expect(again.functions.map((f) => f.blocks[0]!.name)).toEqual(['entry', 'renamed', 'entry']);
  });
});
