/**
 * The module pass finds each operand's value by position (a whole search of a small body, a short
 * backward scan, a map of far values placed by one walk over the body) and falls back to a module-wide map when a body uses a
 * value it does not define. These tests drive every path and check the counts and numbers.
 */
import { describe, expect, it } from 'vitest';
import type { Module } from '../../src/graph/module.js';
import type { Instruction, Value } from '../../src/graph/value.js';
import { printModule } from '../../src/print/index.js';
import { block, emptyModule, fnType, func, inst, int, P } from '../encode/helpers.js';

/** `n` adds in two blocks; add k uses add k-d (add k-1 for k < d), plus a phi and back edges. */
function farModule(n: number, d: number): { m: Module; uses: number[] } {
  const m = emptyModule();
  const f = func(fnType(P.int, [P.int]), 'f');
  const adds: Instruction[] = [];
  const uses = new Array<number>(n).fill(0);
  const b0 = block([]);
  const b1 = block([]);
  for (let k = 0; k < n; k++) {
    const op: Value = k === 0 ? f.args[0]! : adds[k >= d ? k - d : k - 1]!;
    if (k > 0) uses[k >= d ? k - d : k - 1]!++;
    const i = inst('add', P.int, [op, int(P.int, k)]);
    adds.push(i);
    (k < n / 2 ? b0 : b1).instructions.push(i);
  }
  // A phi at the top of b1 reaching forward to the last add and back to the first.
  b1.instructions.unshift(inst('phi', P.int, [adds[n - 1]!, b1, adds[0]!, b0]));
  uses[n - 1]!++;
  uses[0]!++;
  b0.instructions.push(inst('br', P.void, [b1]));
  b1.instructions.push(inst('br', P.void, [{ kind: 'bool', type: P.bool, value: true }, b1, b0]));
  f.blocks.push(b0, b1);
  f.isDeclaration = false;
  m.functions.push(f);
  return { m, uses };
}

function addUseCounts(text: string): number[] {
  return [...text.matchAll(/\tadd int [^\n]*\[#uses=(\d+)\]/g)].map((x) => Number(x[1]));
}

describe('operand lookup paths', () => {
  it('counts near, far and forward uses in a large body', () => {
    const { m, uses } = farModule(3000, 1000);
    const text = printModule(m);
    expect(addUseCounts(text)).toEqual(uses);
    expect(text).toContain('\tphi int [ %3001, %1 ], [ %1, %0 ]\t\t; <int>:1501 [#uses=0]\n');
    expect(text).toContain('\n; <label>:1\t\t; preds = %1, %0\n');
  });

  it('counts uses found by the short backward scan', () => {
    const { m, uses } = farModule(500, 8);
    expect(addUseCounts(printModule(m))).toEqual(uses);
  });

  it('follows a body that uses values of other functions (bad graph) as before', () => {
    const m = emptyModule();
    const f = func(fnType(P.int, [P.int]), 'f');
    const g = func(fnType(P.int, [P.int]), 'g');
    const h = func(fnType(P.int, []), 'h');
    const x = inst('add', P.int, [f.args[0]!, int(P.int, 1)]);
    f.blocks.push(block([x, inst('ret', P.void, [x])]));
    const y = inst('mul', P.int, [x, g.args[0]!]);
    const orphan = inst('sub', P.int, [int(P.int, 1), int(P.int, 2)]);
    g.blocks.push(block([y, inst('add', P.int, [orphan, y]), inst('ret', P.void, [y])]));
    h.blocks.push(block([inst('ret', P.void, [y])]));
    for (const fn of [f, g, h]) fn.isDeclaration = false;
    m.functions.push(h, f, g);
    expect(printModule(m)).toBe(
      [
        "; ModuleID = '<stdin>'",
        '',
        'implementation   ; Functions:',
        '',
        'int %h() {',
        '\tret int %<badref>',
        '}',
        '',
        'int %f(int) {',
        '\tadd int %0, 1\t\t; <int>:1 [#uses=2]',
        '\tret int %1',
        '}',
        '',
        'int %g(int) {',
        '\tmul int %1, %0\t\t; <int>:1 [#uses=3]',
        '\tadd int %<badref>, %1\t\t; <int>:2 [#uses=0]',
        '\tret int %1',
        '}',
        '',
      ].join('\n'),
    );
  });
});
