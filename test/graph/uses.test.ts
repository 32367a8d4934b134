/** collectUses: the users of each value, derived from operands in one pass. */
import { describe, expect, it } from 'vitest';
import { collectUses } from '../../src/graph/uses.js';
import { readModule } from '../../src/read.js';
import { CORPUS_PRESENT, readCorpusFile, NEEDS_CORPUS } from '../support/corpus.js';

describe.skipIf(!CORPUS_PRESENT)('collectUses', NEEDS_CORPUS, () => {
  it('finds every call of a function and every use of an instruction', () => {
    const m = readModule(readCorpusFile('v6', 'Large__big-bf.bc'));
    const uses = collectUses(m);
    const putchar = m.functions.find((f) => f.name === 'putchar')!;
    const calls = uses.get(putchar) ?? [];
    expect(calls.length).toBeGreaterThan(0);
    for (const u of calls) expect(u.user.kind === 'instruction' && u.user.opcode === 'call' && u.index === 0).toBe(true);
    // Every instruction operand is recorded exactly once among its value's uses.
    let operands = 0;
    for (const f of m.functions) for (const bb of f.blocks) for (const i of bb.instructions) operands += i.operands.length;
    let recorded = 0;
    for (const list of uses.values()) recorded += list.filter((u) => u.user.kind === 'instruction').length;
    expect(recorded).toBe(operands);
  });
});
