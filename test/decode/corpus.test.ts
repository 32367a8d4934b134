/**
 * The decoder against every real file: each one reads without error, and the graph it builds is
 * complete (no missing operands, every instruction in a block, every block terminated).
 * Byte-for-byte faithfulness is proven by test/encode/roundtrip.test.ts (read, write back, compare).
 */
import { describe, expect, it } from 'vitest';
import { readModule } from '../../src/read.js';
import type { Module } from '../../src/graph/module.js';
import { CORPUS_PRESENT, corpusFiles, readCorpusFile, VERSION_FOLDERS, NEEDS_CORPUS } from '../support/corpus.js';

const TERMINATORS = new Set(['ret', 'br', 'switch', 'invoke', 'unwind', 'unreachable']);

/** Problems with a decoded graph, as readable strings (empty when sound). */
function graphProblems(m: Module): string[] {
  const problems: string[] = [];
  for (const f of m.functions) {
    if (!f.isDeclaration && f.blocks.length === 0) problems.push(`${f.name}: defined without blocks`);
    for (const bb of f.blocks) {
      const last = bb.instructions[bb.instructions.length - 1];
      if (!last || !TERMINATORS.has(last.opcode)) problems.push(`${f.name}: block without terminator`);
      for (const inst of bb.instructions) {
        for (let i = 0; i < inst.operands.length; i++) {
          if (inst.operands[i] === undefined) problems.push(`${f.name}: ${inst.opcode} operand ${i} missing`);
        }
      }
    }
  }
  for (const g of m.globals)
    if (g.initializer === undefined && g.linkage !== 'external' && g.linkage !== 'dllimport' && g.linkage !== 'extern_weak')
      problems.push(`global ${g.name} (${g.linkage}) without initializer`);
  return problems;
}

describe.skipIf(!CORPUS_PRESENT)('readModule over every version folder of the corpus', NEEDS_CORPUS, () => {
  for (const folder of VERSION_FOLDERS) {
    it(`reads every file of ${folder} into a complete graph`, () => {
      const files = corpusFiles(folder);
      expect(files.length).toBeGreaterThan(500);
      const failures: string[] = [];
      for (const name of files) {
        try {
          const m = readModule(readCorpusFile(folder, name));
          expect(m.source?.bytecodeVersion).toBe(Number(folder.slice(1)));
          const problems = graphProblems(m);
          if (problems.length) failures.push(`${name}: ${problems.slice(0, 3).join('; ')}`);
        } catch (e) {
          failures.push(`${name}: ${(e as Error).message}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }
});

describe.skipIf(!CORPUS_PRESENT)("historical files (LLVM's own backward-compatibility test data)", NEEDS_CORPUS, () => {
  it('reads the sound constexpr.ll.bc-13', () => {
    const m = readModule(readCorpusFile('historical', 'constexpr.ll.bc-13'));
    expect(m.source?.bytecodeVersion).toBe(3);
    expect(graphProblems(m)).toEqual([]);
  });
  for (const name of ['memcpy.ll.bc-16', 'old-intrinsics.ll.bc-16', 'signed-intrinsics.ll.bc-16', 'slow.bc-13', 'ver6.ll.bc']) {
    it(`stops on the damaged ${name} with a typed error that diagnoses a text-mode transfer`, () => {
      const bytes = readCorpusFile('historical', name);
      expect(() => readModule(bytes)).toThrowError(/text-mode/);
      expect(() => readModule(bytes)).toThrowError(expect.objectContaining({ name: 'BytecodeError' }));
    });
  }
});
