/**
 * Printing version-7 modules as r36867's `llvm-dis` did (LLVM 2.0 syntax). The whole v7 corpus is
 * compared in corpus.test.ts; here each rule of that revision's writer is shown on its own: on
 * a module built by hand (always) and on corpus files that exhibit it (skipped, saying so, when
 * the corpus is absent).
 */
import { describe, expect, it } from 'vitest';
import { integerType, primitiveTypes, type FunctionType, type PointerType, type StructType, type Type } from '../../src/graph/type.js';
import type { Module } from '../../src/graph/module.js';
import type { Argument, BasicBlock, Function, GlobalVariable, Instruction } from '../../src/graph/value.js';
import { printFunction, printInstruction, printModule, slotNumberOf } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { CORPUS_PRESENT, CORPUS_SKIP_REASON, NEEDS_CORPUS, corpusFiles, readCorpusFile, readCorpusText } from '../support/corpus.js';

const i32 = integerType(32);
const i1 = integerType(1);
const ptr = (element: PointerType['element']): PointerType => ({ kind: 'pointer', element });

/**
 * A small version-7 module: a named struct type, an unnamed and a named global, a declaration with
 * parameter attributes, and a definition with an unnamed argument, an unnamed block and values.
 */
function sampleModule(): { module: Module; fn: Function; add: Instruction; cmp: Instruction; arg: Argument; exit: BasicBlock } {
  const pair: StructType = { kind: 'struct', elements: [i32, i32] };
  const unnamed: GlobalVariable = {
    kind: 'global',
    type: ptr(i32),
    valueType: i32,
    linkage: 'internal',
    isConstant: false,
    initializer: { kind: 'int', type: i32, value: -1n },
    alignment: 0,
  };
  const named: GlobalVariable = {
    kind: 'global',
    type: ptr(pair),
    valueType: pair,
    name: 'p',
    linkage: 'external',
    isConstant: true,
    initializer: { kind: 'zeroinitializer', type: pair },
    alignment: 4,
    visibility: 'hidden',
    isThreadLocal: true,
  };
  const declType: FunctionType = {
    kind: 'function',
    returnType: i32,
    params: [i32],
    isVarArg: true,
    paramAttributes: [
      { index: 0, attributes: 1 },
      { index: 1, attributes: 2 },
    ],
  };
  const decl: Function = {
    kind: 'function',
    type: ptr(declType),
    functionType: declType,
    name: 'ext',
    linkage: 'external',
    callingConv: 0,
    alignment: 0,
    isDeclaration: true,
    args: [],
    blocks: [],
  };
  const fnType: FunctionType = { kind: 'function', returnType: i32, params: [i32], isVarArg: false };
  const arg: Argument = { kind: 'argument', type: i32, index: 0 };
  const exit: BasicBlock = { kind: 'block', type: primitiveTypes.label, instructions: [] };
  const entry: BasicBlock = { kind: 'block', type: primitiveTypes.label, name: 'entry', instructions: [] };
  const load: Instruction = { kind: 'instruction', opcode: 'load', type: i32, operands: [unnamed], alignment: 4 };
  const add: Instruction = { kind: 'instruction', opcode: 'add', type: i32, operands: [arg, load], name: 'sum' };
  const cmp: Instruction = { kind: 'instruction', opcode: 'icmp', predicate: 'slt', type: i1, operands: [add, { kind: 'int', type: i32, value: 0n }] };
  const br: Instruction = { kind: 'instruction', opcode: 'br', type: primitiveTypes.void, operands: [cmp, exit, exit] };
  entry.instructions.push(load, add, cmp, br);
  const call: Instruction = {
    kind: 'instruction',
    opcode: 'call',
    type: i32,
    isTailCall: true,
    name: 'r',
    operands: [decl, add, { kind: 'expr', opcode: 'ptrtoint', type: i32, operands: [named] }],
  };
  const ret: Instruction = { kind: 'instruction', opcode: 'ret', type: primitiveTypes.void, operands: [call] };
  exit.instructions.push(call, ret);
  const fn: Function = {
    kind: 'function',
    type: ptr(fnType),
    functionType: fnType,
    name: 'f',
    linkage: 'internal',
    callingConv: 8,
    alignment: 0,
    isDeclaration: false,
    args: [arg],
    blocks: [entry, exit],
  };
  const module: Module = {
    kind: 'module',
    endianness: 'any',
    pointerSize: 'any',
    targetTriple: 'i686-pc-linux-gnu',
    inlineAsm: '',
    dependentLibraries: [],
    types: [i1, i32, pair],
    typeNames: new Map<string, Type>([
      ['pair', pair],
      ['word', i32],
    ]),
    globals: [unnamed, named],
    functions: [decl, fn],
    aliases: [],
    dataLayout: 'e-p:32:32',
  };
  return { module, fn, add, cmp, arg, exit };
}

describe('a version-7 module in LLVM 2.0 syntax', () => {
  const EXPECTED = [
    "; ModuleID = '<stdin>'",
    'target datalayout = "e-p:32:32"',
    'target triple = "i686-pc-linux-gnu"',
    // The type table with a leading tab; an integer type prints as iN even where it is named.
    '\t%pair = type { i32, i32 }',
    '\t%word = type i32',
    // An unnamed global prints no name: its number `@N` is in the comment; linkage, visibility,
    // thread_local, alignment.
    'internal global i32 -1\t\t; <i32*>:0 [#uses=1]',
    '@p = hidden thread_local constant %pair zeroinitializer, align 4\t\t; <%pair*> [#uses=1]',
    '',
    // Parameter attributes are each followed by a space, as LLVM built their text.
    'declare i32 @ext(i32 sext , ...) zext ',
    '',
    // An unnamed argument prints no name; an unnamed block is `; <label>:N` in the function's one counter.
    'define internal fastcc i32 @f(i32) {',
    'entry:',
    // An unnamed value likewise: `%N` only in its comment (and where it is used).
    '\tload i32* @0, align 4\t\t; <i32>:1 [#uses=1]',
    '\t%sum = add i32 %0, %1\t\t; <i32> [#uses=2]',
    '\ticmp slt i32 %sum, 0\t\t; <i1>:2 [#uses=1]',
    '\tbr i1 %2, label %3, label %3',
    '',
    '; <label>:3\t\t; preds = %entry, %entry',
    '\t%r = tail call i32 (i32 sext , ...) zext * @ext( i32 %sum sext , i32 ptrtoint (%pair* @p to i32) ) zext \t\t; <i32> [#uses=1]',
    '\tret i32 %r',
    '}',
    '',
  ].join('\n');

  it('prints what r36867 llvm-dis printed: @globals, %locals, one counter per scope, define/declare, unnamed values numbered only in comments', () => {
    expect(printModule(sampleModule().module)).toBe(EXPECTED);
  });

  it('has one syntax: the default and native printings are the same text', () => {
    const { module } = sampleModule();
    expect(printModule(module, { syntax: 'native' })).toBe(printModule(module));
  });

  it('prints a function, an instruction and slot numbers as the whole listing does', () => {
    const { module, fn, add, cmp, arg, exit } = sampleModule();
    expect(printFunction(module, fn)).toBe(EXPECTED.slice(EXPECTED.indexOf('\ndefine')));
    expect(printInstruction(module, fn, add)).toBe('%sum = add i32 %0, %1');
    expect(printInstruction(module, fn, cmp)).toBe('icmp slt i32 %sum, 0');
    expect(slotNumberOf(module, arg, fn)).toBe(0);
    expect(slotNumberOf(module, exit, fn)).toBe(3);
    expect(slotNumberOf(module, module.globals[0]!)).toBe(0);
  });

  it('quotes a name that needs it: `@"…"` for a global, `"…"` without a sigil for a local', () => {
    const { module, fn, add } = sampleModule();
    fn.name = 'a b';
    add.name = '1x';
    const text = printModule(module);
    expect(text).toContain('define internal fastcc i32 @"a b"(i32) {');
    expect(text).toContain('\t"1x" = add i32 %0, %1');
  });
});

describe.skipIf(!CORPUS_PRESENT)('version-7 corpus files that show a rule (corpus)', NEEDS_CORPUS, () => {
  if (!CORPUS_PRESENT) console.warn(CORPUS_SKIP_REASON);
  const printed = (name: string): { got: string; want: string | undefined } => ({
    got: printModule(readModule(readCorpusFile('v7', name))),
    want: readCorpusText('v7', name, '.dis.ll'),
  });

  it('aliases: after the globals, a blank line first; a bitcast aliasee with two spaces before it', () => {
    const { got, want } = printed('Feature__aliases.bc');
    expect(got).toBe(want);
    expect(got).toMatch(/^@A = alias {2}bitcast \(/m);
    expect(got).toMatch(/^@bar_f = alias weak %FunTy\* @foo_f/m);
  });

  it('recursive types print as LLVM cached them: a type printed once keeps that text (`{ \\2*, i32 }*`)', () => {
    const { got, want } = printed('Feature__globalvars.bc');
    expect(got).toBe(want);
    expect(got).toContain('; <{ \\2*, i32 }*>');
  });

  it('a named primitive type still prints by its description', () => {
    const { got, want } = printed('Feature__opaquetypes.bc');
    expect(got).toBe(want);
    expect(got).toContain('%TyA = type { float, %TyB* }');
  });

  it('parameter attributes on calls and in function types keep their trailing spaces', () => {
    const name = corpusFiles('v7').find((n) => / zext \*/.test(readCorpusText('v7', n, '.dis.ll') ?? ''));
    expect(name).toBeDefined();
    const { got, want } = printed(name!);
    expect(got).toBe(want);
  });
});
