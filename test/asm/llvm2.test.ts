/**
 * LLVM 2.0-development text (r36867's grammar, the last `llvm-as` to write bytecode: version 7):
 * the hand-written files of `test/asm/grammar-2.0` against r36867's own `llvm-as` and `llvm-dis`
 * (skipped, saying so, without them), and what the assembler makes of such text, checked on the
 * graph: types, attributes, visibility, aliases, numbering, folding, errors, dialect detection.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AssemblyError, detectDialect, dialectForVersion, isLlvm2Text, parseAssembly } from '../../src/asm/index.js';
import { run } from '../../src/cli/run.js';
import { EncodeError } from '../../src/encode/encode-error.js';
import { writeModule } from '../../src/encode/write.js';
import { integerType, type FunctionType } from '../../src/graph/type.js';
import type { Constant, GlobalVariable, Instruction } from '../../src/graph/value.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { sameBytesInOrderOf } from '../../tools/plane-order.js';
import { memoryIo } from '../cli/memory-io.js';
import { needs, R36867 } from '../support/tools.js';

const GRAMMAR = join(dirname(fileURLToPath(import.meta.url)), 'grammar-2.0');
const FILES = readdirSync(GRAMMAR)
  .filter((f) => f.endsWith('.ll'))
  .sort();
const source = (file: string): string => readFileSync(join(GRAMMAR, file), 'latin1');
const assemble = (text: string) => parseAssembly(text, { dialect: '2.0' });
const write7 = (text: string): Uint8Array => writeModule(assemble(text), { bytecodeVersion: 7, verify: false });

/** What r36867 made of a text: its bytes and its listing. */
function r36867(text: string): { bytes: Buffer; listing: string } {
  const bytes = execFileSync(R36867.path('llvm-as'), ['-f', '-o', '-'], { input: text, stdio: ['pipe', 'pipe', 'pipe'] });
  const listing = execFileSync(R36867.path('llvm-dis'), ['-f', '-o', '-'], { input: bytes, stdio: ['pipe', 'pipe', 'pipe'] }).toString('latin1');
  return { bytes, listing };
}

/** Files known to differ from r36867, and why (none today). */
const KNOWN_DIFFERENCES = new Set<string>([]);

describe("hand-written LLVM 2.0 files assemble as r36867's llvm-as assembled them", needs(R36867), () => {
  for (const file of FILES) {
    const check = KNOWN_DIFFERENCES.has(file) ? it.fails : it;
    check(`${file}: prints as llvm-dis printed llvm-as's file, and gives its bytes (symbol-table plane order aside)`, () => {
      const text = source(file);
      const theirs = r36867(text);
      const m = assemble(text);
      expect(printModule(m)).toBe(theirs.listing);
      // r36867 ordered symbol-table planes by heap address: the same bytes in its order, or equal.
      const ours = Buffer.from(writeModule(m, { bytecodeVersion: 7, verify: false }));
      expect(ours.equals(theirs.bytes) || sameBytesInOrderOf(m, new Uint8Array(theirs.bytes), { bytecodeVersion: 7, verify: false })).toBe(true);
    });
  }
});

describe('hand-written LLVM 2.0 files assemble, print and read back the same', () => {
  for (const file of FILES) {
    it(`${file}: its listing assembles to itself, and the written file reads back to it`, () => {
      const listing = printModule(assemble(source(file)));
      expect(printModule(assemble(listing))).toBe(listing);
      expect(printModule(readModule(write7(listing)))).toBe(listing);
    });
  }
});

describe('the LLVM 2.0 dialect is told by its own words', () => {
  it("'define', an '@' name or an iN type says 2.0; 1.x text and text with none of them does not", () => {
    expect(detectDialect('define void @f() {\n  ret void\n}\n')).toBe('2.0');
    expect(detectDialect('@g = global float 1.0\n')).toBe('2.0');
    expect(detectDialect('%T = type { i32 }\n')).toBe('2.0');
    expect(detectDialect('%g = global int 1\n')).toBe('1.9');
    expect(detectDialect('; define @x i32 in a comment\n%s = global [3 x sbyte] c"i32"\n')).toBe('1.9');
    expect(isLlvm2Text('declare void %f(int)\n')).toBe(false);
  });

  it('whatever version is asked for, 2.0 text is 2.0; 1.x text asked to become version 7 is read as 1.9', () => {
    expect([0, 3, 6, 7].map((v) => dialectForVersion('@g = global i32 0\n', v))).toEqual(['2.0', '2.0', '2.0', '2.0']);
    expect(dialectForVersion('%g = global int 0\n', 7)).toBe('1.9');
  });
});

describe('what LLVM 2.0 text means in the graph', () => {
  const m = assemble(source('module.ll'));
  const global = (name: string): GlobalVariable => m.globals.find((g) => g.name === name)!;

  it('gives integer types as iN, packed structures, the data layout, triple, libraries and module asm', () => {
    expect(m.typeNames.get('packed')).toMatchObject({ kind: 'struct', isPacked: true, elements: [integerType(8), integerType(32)] });
    expect(m.dataLayout).toBe('e-p:32:32');
    expect(m.targetTriple).toBe('i686-pc-linux-gnu');
    expect(m.dependentLibraries).toEqual(['m', 'c']);
    expect(m.inlineAsm).toBe('nop');
  });

  it('keeps linkage, visibility, thread_local, section and alignment of globals', () => {
    expect(global('counter')).toMatchObject({ linkage: 'internal', alignment: 4 });
    expect(global('tls').isThreadLocal).toBe(true);
    expect(global('hidden_const')).toMatchObject({ visibility: 'hidden', isConstant: true, section: 'rodata' });
    expect(global('ext').linkage).toBe('external');
    expect(global('ext').initializer).toBeUndefined();
  });

  it('makes aliases of globals and of bitcasts of them', () => {
    expect(m.aliases!.map((a) => [a.name, a.linkage, a.aliasee.kind])).toEqual([
      ['weakfn_alias', 'weak', 'function'],
      ['cast_alias', 'external', 'expr'],
    ]);
  });

  it('puts parameter and function attributes on the function type (index 0: the result)', () => {
    const f = assemble(source('instructions.ll')).functions.find((fn) => fn.name === 'wide')!;
    expect((f.functionType as FunctionType).paramAttributes).toEqual([
      { index: 1, attributes: 1 },
      { index: 2, attributes: 2 },
    ]);
    expect(f).toMatchObject({ linkage: 'internal', callingConv: 8 });
  });

  it('keeps predicates, alignment and volatility on instructions', () => {
    const fns = assemble(source('instructions.ll')).functions;
    const insts = fns.flatMap((f) => f.blocks.flatMap((b) => b.instructions));
    const named = (n: string): Instruction => insts.find((i) => i.name === n)!;
    expect(named('c')).toMatchObject({ opcode: 'icmp', predicate: 'ult', type: integerType(1) });
    expect(named('d')).toMatchObject({ opcode: 'fcmp', predicate: 'oge' });
    expect(named('x')).toMatchObject({ opcode: 'load', isVolatile: true, alignment: 4 });
    expect(named('a')).toMatchObject({ opcode: 'alloca', alignment: 16 });
    expect(named('t')).toMatchObject({ opcode: 'trunc', type: integerType(32) });
  });

  it('numbers unnamed values per function over arguments, blocks and instructions, and globals per module', () => {
    const n = assemble(source('numbered.ll'));
    const f = n.functions[0]!;
    // %0 the argument, %1 the entry block, %2 the add, %3 the second block, %4 the call.
    expect(f.blocks.length).toBe(2);
    const call = f.blocks[1]!.instructions[0]!;
    expect(call.operands[1]).toBe(f.blocks[0]!.instructions[0]);
    expect(f.blocks[1]!.instructions[1]!.operands[0]).toBe(call);
    expect(n.globals[1]!.initializer).toBe(n.globals[0]);
  });

  it("folds constant expressions as r36867's ConstantExpr::get did", () => {
    const c = assemble(source('constexprs.ll'));
    const init = (name: string): Constant => c.globals.find((g) => g.name === name)!.initializer!;
    expect(init('a')).toMatchObject({ kind: 'int', value: 3n });
    expect(init('b')).toBe(c.globals[0]);
    expect(init('c')).toMatchObject({ kind: 'bool', value: true });
    expect(init('f')).toMatchObject({ kind: 'int', value: 1n });
    expect(init('g')).toMatchObject({ kind: 'int', value: 255n });
    expect(init('h')).toMatchObject({ kind: 'int', value: -1n });
    expect(init('i')).toMatchObject({ kind: 'expr', opcode: 'getelementptr' });
    expect(init('t')).toMatchObject({ kind: 'expr', opcode: 'udiv' });
    expect(init('y')).toMatchObject({ kind: 'undef' });
  });

  it('reads each integer literal into its width, signed, and i1 as a boolean', () => {
    const t = assemble(source('types-and-constants.ll'));
    const init = (name: string): Constant => t.globals.find((g) => g.name === name)!.initializer!;
    expect(init('g')).toMatchObject({ kind: 'bool', value: true });
    expect(init('i')).toMatchObject({ kind: 'int', value: -1n });
    expect(init('r')).toMatchObject({ kind: 'int', value: (1n << 127n) - 1n });
    expect(init('s')).toMatchObject({ kind: 'int', value: -1n, type: integerType(33) });
    expect(init('n').kind).toBe('zeroinitializer');
  });
});

describe('bad LLVM 2.0 text is an AssemblyError at its line and column', () => {
  const cases: [string, string, number, number, RegExp][] = [
    ['undefined value', 'define i32 @f() {\n  ret i32 %x\n}\n', 2, 11, /undefined value '%x'/],
    ['value of another type', 'define i32 @f(i8 %a) {\n  ret i32 %a\n}\n', 2, 11, /'%a' is of type i8, not i32/],
    ['invalid cast', 'define i32 @f(i32 %a) {\n  %b = trunc i32 %a to i64\n  ret i32 %a\n}\n', 2, 3, /invalid cast opcode for cast from 'i32' to 'i64'/],
    ['numbered assignment', 'define i32 @f() {\n  %0 = add i32 1, 1\n  ret i32 %0\n}\n', 2, 3, /expected an instruction, found '%0'/],
    ['undefined type', '@g = global %T* null\n', 1, 13, /undefined type '%T'/],
    ['integer too wide for its type', '@g = global i8 256\n', 1, 16, /doesn't fit in type i8/],
    ['a body without its brace', 'define void @f() {\n  ret void\n', 3, 1, /no closing '}'/],
    ['global redefined', '@g = global i32 0\n@g = global i32 1\n', 2, 1, /redefinition of global variable named 'g' of type 'i32'/],
    ['bad predicate', 'define i1 @f(i32 %a) {\n  %c = icmp olt i32 %a, 1\n  ret i1 %c\n}\n', 2, 13, /expected an integer comparison predicate/],
    ['integer width out of range', '@g = global i8388608 0\n', 1, 13, /bitwidth for integer type out of range/],
    ['icmp of floats', 'define i1 @f(float %a) {\n  %c = icmp eq float %a, %a\n  ret i1 %c\n}\n', 2, 3, /icmp of values of type float/],
  ];
  for (const [what, text, line, column, reason] of cases) {
    it(what, () => {
      let error: unknown;
      try {
        assemble(text);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AssemblyError);
      const e = error as AssemblyError;
      expect(e.reason).toMatch(reason);
      expect([e.line, e.column]).toEqual([line, column]);
    });
  }
});

describe('as, given LLVM 2.0 text', () => {
  const TEXT = '@g = global i32 7\ndefine i32 @f() {\n  %v = load i32* @g\n  ret i32 %v\n}\n';
  const as = async (args: string[]): Promise<{ code: number; out?: Uint8Array; err: string }> => {
    const io = memoryIo({ 'in.ll': Buffer.from(TEXT, 'latin1') });
    const code = await run(['as', 'in.ll', '-o', 'out.bc', ...args], io);
    return { code, out: io.files.get('out.bc'), err: io.err() };
  };

  it('writes version 7 by default, as r36867 did', async () => {
    const { code, out } = await as([]);
    expect(code).toBe(0);
    expect(readModule(out!).source?.bytecodeVersion).toBe(7);
    expect(printModule(readModule(out!))).toBe(printModule(assemble(TEXT)));
  });

  it('refuses a 1.x version, naming what it cannot hold', async () => {
    const { code, err } = await as(['--bytecode-version', '6']);
    expect(code).toBe(1);
    expect(err).toMatch(/in\.ll: integer type i32 cannot be written in bytecode version 6: LLVM 2\.0 text's constructs exist from version 7 on/);
    expect(() => writeModule(assemble(TEXT), { bytecodeVersion: 6 })).toThrow(EncodeError);
  });

  it('upgrade takes it to LLVM 16 IR as it takes the version-7 file', async () => {
    const io = memoryIo({ 'in.ll': Buffer.from(TEXT, 'latin1') });
    expect(await run(['upgrade', 'in.ll'], io)).toBe(0);
    expect(io.out()).toContain('%v = load i32, ptr @g');
  });

  it('writes a 1.x version where nothing in the text needs version 7', async () => {
    const io = memoryIo({ 'f.ll': Buffer.from('define float @f(float %x) {\n  ret float %x\n}\n', 'latin1') });
    expect(await run(['as', 'f.ll', '-o', 'f.bc', '--bytecode-version', '6'], io)).toBe(0);
    expect(printModule(readModule(io.files.get('f.bc')!), { syntax: '1.9' })).toContain('float %f(float %x)');
  });

  it('takes --dialect 2.0 by name, and 1.x text at --bytecode-version 7 is converted as llvm-upgrade did', async () => {
    expect((await as(['--dialect', '2.0'])).code).toBe(0);
    const io = memoryIo({ 'old.ll': Buffer.from('%g = global int 7\n', 'latin1') });
    expect(await run(['as', 'old.ll', '-o', 'old.bc', '--bytecode-version', '7'], io)).toBe(0);
    expect(printModule(readModule(io.files.get('old.bc')!))).toContain('@g = global i32 7');
  });
});

/** Names written twice that r36867 refused: an external-linkage definition whose name an external-linkage global variable holds, and a second body. */
const REFUSED_REDEFINITIONS: [string, string, RegExp][] = [
  ['a definition written twice', '@B = global i32 7\n@B = global i32 7\n', /redefinition of global variable named 'B' of type 'i32'/],
  ['a definition after a declaration', '@B = external global i32\n@B = global i32 7\n', /redefinition of global variable named 'B'/],
  ['a definition of another type', '@B = global i32 7\n@B = global i8 7\n', /redefinition of global variable named 'B' of type 'i8'/],
  [
    'a definition after an internal one of another global',
    '@B = global i32 7\n@B = internal global i32 1\n@B = weak global i32 2\n',
    /redefinition of global variable named 'B'/,
  ],
  ['a function body written twice', 'define i32 @f() {\n  ret i32 0\n}\ndefine i32 @f() {\n  ret i32 0\n}\n', /redefinition of function 'f'/],
];

describe('names written twice: refused where r36867 refused them', () => {
  for (const [what, text, message] of REFUSED_REDEFINITIONS) {
    it(`${what}: an AssemblyError`, () => {
      expect(() => assemble(text)).toThrow(AssemblyError);
      expect(() => assemble(text)).toThrow(message);
    });
    it(`${what}: r36867's llvm-as refused it too`, needs(R36867), () => {
      expect(() => r36867(text)).toThrow(/Redefinition of/);
    });
  }
});
