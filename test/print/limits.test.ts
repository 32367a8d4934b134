/**
 * A damaged module too large or too deeply nested to print ends in a `PrintError`, never a stack
 * overflow or a crash of the process: a type whose text would double at every level of nesting,
 * and a chain of constant expressions deeper than the call stack.
 */
import { describe, expect, it } from 'vitest';
import type { Type } from '../../src/graph/type.js';
import type { Constant } from '../../src/graph/value.js';
import { MAX_TYPE_TEXT, PrintError, printModule } from '../../src/print/index.js';
import { emptyModule, global, P, ptr } from '../encode/helpers.js';

describe('printer limits', () => {
  it('refuses a type whose text would exceed MAX_TYPE_TEXT (it once aborted the process)', () => {
    const m = emptyModule();
    let t: Type = P.int;
    for (let i = 0; i < 40; i++) t = { kind: 'struct', elements: [t, t] }; // 2^40 ints
    m.globals.push(global(t, undefined, 'g'));
    for (const syntax of ['1.9', 'native'] as const) {
      expect(() => printModule(m, { syntax })).toThrow(new PrintError(`a type's text would exceed ${MAX_TYPE_TEXT} characters`));
    }
  });

  it('reports constant expressions nested deeper than the call stack as a PrintError', () => {
    const m = emptyModule();
    const x = global(P.int, undefined, 'x');
    let c: Constant = x;
    for (let i = 0; i < 100_000; i++) c = { kind: 'expr', type: ptr(P.int), opcode: 'cast', operands: [c] };
    m.globals.push(x, global(ptr(P.int), c, 'deep'));
    expect(() => printModule(m)).toThrow(new PrintError('the module cannot be printed: it nests too deeply (the call stack ran out)'));
  });
});
