/**
 * What a module or an input can cause, reached through the public API, is an error of the family
 * (`LlvmBytecodeError`), of the class that names the consumer refusing it, never a bare `Error`,
 * `RangeError` or `TypeError` (issue 32, item 4). One case per site that used to throw bare.
 */
import { describe, expect, it } from 'vitest';
import {
  ArchiveError,
  BytecodeError,
  EncodeError,
  InvalidModuleError,
  LlvmBytecodeError,
  PrintError,
  printModule,
  writeArchive,
  writeModule,
} from '../../src/index.js';
import { wrapContainer } from '../../src/subpaths/container.js';
import type { Module } from '../../src/graph/module.js';
import type { Type } from '../../src/graph/type.js';
import type { Constant, Instruction, Value } from '../../src/graph/value.js';
import { block, emptyModule, fnType, func, global, inst, int, P, ptr } from '../encode/helpers.js';

/** What `f` throws (failing the test when it returns). */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

/** `f` throws an error of the family, of class `cls`, whose message matches `message`. */
function refuses(f: () => unknown, cls: abstract new (...args: never[]) => Error, message: RegExp): void {
  const e = thrown(f);
  expect(e).toBeInstanceOf(LlvmBytecodeError);
  expect(e).toBeInstanceOf(cls);
  expect((e as Error).message).toMatch(message);
}

/** A module with one defined function `f(params…)` whose body is `body(args)` then `ret void`. */
function withBody(params: Type[], body: (args: Value[]) => Instruction[]): Module {
  const m = emptyModule();
  const f = func(fnType(P.void, params), 'f');
  f.blocks = [block([...body(f.args), inst('ret', P.void, [])])];
  f.isDeclaration = false;
  m.functions.push(f);
  return m;
}

describe('the writer (binary/writer, encode/) refuses what a module holds with an EncodeError', () => {
  it('a name with a character a bytecode string cannot hold (above U+00FF)', () => {
    const m = emptyModule();
    m.globals.push(global(P.int, int(P.int, 1), 'g\u0101'));
    refuses(() => writeModule(m, { verify: false }), EncodeError, /U\+0101/);
  });

  it('an instruction missing an operand, the verifier switched off', () => {
    const m = withBody([ptr(P.int)], ([p]) => [inst('store', P.void, [p!])]);
    refuses(() => writeModule(m, { verify: false }), EncodeError, /a store instruction without its operand 1/);
  });

  it('a getelementptr whose sequential index is not an integer, the verifier switched off', () => {
    const arr: Type = { kind: 'array', element: P.int, length: 4 };
    const m = withBody([ptr(arr), P.float], ([p, x]) => [inst('getelementptr', ptr(P.int), [p!, int(P.uint, 0), x!])]);
    refuses(() => writeModule(m, { verify: false, bytecodeVersion: 3 }), EncodeError, /getelementptr index of type float/);
  });

  it('a vanext without its argument type, the verifier switched off', () => {
    const valist = ptr(P.sbyte);
    const m = withBody([valist], ([v]) => [inst('vanext', valist, [v!])]);
    refuses(() => writeModule(m, { verify: false, bytecodeVersion: 3 }), EncodeError, /vanext without its argument type/);
  });

  it('an instruction whose opcode does not exist, the verifier switched off, is an invalid module', () => {
    const m = withBody([P.int], ([a]) => [inst('frobnicate' as Instruction['opcode'], P.int, [a!, a!])]);
    refuses(() => writeModule(m, { verify: false }), InvalidModuleError, /unknown opcode 'frobnicate'/);
  });
});

describe('the container and the archive writer', () => {
  it('wrapContainer of bytes that are not an llvm stream is a BytecodeError at offset 0', () => {
    const e = thrown(() => wrapContainer(Uint8Array.of(1, 2, 3, 4, 5), 'zlib'));
    expect(e).toBeInstanceOf(BytecodeError);
    expect((e as BytecodeError).position).toEqual({ kind: 'bytes', offset: 0, blockPath: [] });
  });

  it('wrapContainer with a compression that does not exist is a misuse of the call: a TypeError', () => {
    expect(() => wrapContainer(Uint8Array.of(0x6c, 0x6c, 0x76, 0x6d), 'lzma' as 'zlib')).toThrow(TypeError);
  });

  it('an archive with more members than maxArchiveMembers', () => {
    const members = [1, 2, 3].map((i) => ({ name: `m${i}.txt`, data: Uint8Array.of(i) }));
    refuses(() => writeArchive(members, { limits: { maxArchiveMembers: 2 } }), ArchiveError, /3 members exceed maxArchiveMembers \(2\)/);
  });

  it('a member name longer than maxArchiveNameLength names the member', () => {
    refuses(
      () => writeArchive([{ name: 'x'.repeat(40), data: Uint8Array.of(1) }], { limits: { maxArchiveNameLength: 16 } }),
      ArchiveError,
      /maxArchiveNameLength \(16\).*member #0/,
    );
  });
});

describe('the printer refuses a graph it cannot print with a PrintError, not a BytecodeError', () => {
  it('a constant that contains itself', () => {
    const m = emptyModule();
    const st: Type = { kind: 'struct', elements: [ptr(P.int)] };
    const self = { kind: 'struct', type: st, elements: [] as Constant[] } as Constant & { elements: Constant[] };
    const cast: Constant = { kind: 'expr', type: ptr(P.int), opcode: 'cast', operands: [self] };
    self.elements.push(cast);
    m.globals.push(global(st, self, 'g'));
    const e = thrown(() => printModule(m));
    expect(e).toBeInstanceOf(PrintError);
    expect(e).not.toBeInstanceOf(BytecodeError);
    expect((e as PrintError).position).toBeUndefined();
  });
});
