/**
 * What LLVM 1.x's parsers took that a strict reading of the grammar would not: floating-point
 * literals that are not exactly a float, a global defined twice, and type names never defined.
 * Each rule is per release (docs/assembler.md, "The old parsers' habits"); where LLVM 1.9 is
 * concerned, its own `llvm-as` is the judge (a test of its own, skipped without it).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { detectDialect, DIALECT_VERSION, parseAssembly, type Dialect } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import type { GlobalVariable } from '../../src/graph/value.js';
import { LLVM19, needs } from '../support/tools.js';
import { CORPUS_PRESENT, NEEDS_CORPUS, readCorpusFile } from '../support/corpus.js';

const assemble19 = (text: string): Uint8Array => writeModule(parseAssembly(text, { dialect: '1.9' }), { bytecodeVersion: 6 });
const globals = (text: string, dialect: Dialect = '1.9'): GlobalVariable[] => parseAssembly(text, { dialect }).globals;
const floatBits = (text: string, dialect: Dialect = '1.9'): string[] =>
  globals(text, dialect).map((g) => (g.initializer?.kind === 'fp' ? `0x${g.initializer.bits.toString(16)}` : '?'));

const FLOATS = `%a = global float 1.4142
%b = global float 12.45
%c = global float 0x1
%d = global float 0x47EFFFFFF0000000
%e = global float 0x7FF0000000000001
%f = global float 1.0e40
%g = global float 0x380FFFFFF0000000
%h = global float 0xFFF8000000000123
%i = global float -1.0e-50
%j = global float 1.41420001
implementation
float %f(float %x) {
  %y = add float %x, 1.2312
  ret float %y
}
`;

describe('a double literal given to a float is rounded to single precision, in every release', () => {
  it("rounds to nearest as C's (float) cast did: a double's denormal becomes 0, too large an infinity, a NaN a quiet NaN keeping the top of its payload", () => {
    for (const dialect of ['1.1', '1.2', '1.3', '1.8', '1.9'] as const) {
      expect(floatBits(FLOATS, dialect)).toEqual([
        '0x3fb50481', // 1.4142
        '0x41473333', // 12.45
        '0x0', // 0x1 (4.9e-324): below a float's smallest denormal
        '0x7f800000', // just below FLT_MAX + half an ulp: rounds up to infinity
        '0x7fc00000', // a signalling NaN, payload 1: quiet, the payload's low bits gone
        '0x7f800000', // 1.0e40
        '0x800000', // rounds up to the smallest normal float
        '0xffc00000', // a negative quiet NaN
        '0x80000000', // -0.0
        '0x3fb50482', // 1.41420001: another float than 1.4142
      ]);
    }
  });

  it('keeps a double exactly as written (0x… is its bits, NaN payloads included)', () => {
    const [g] = globals('%g = global double 0x7FF0000000000001\n');
    expect(g!.initializer).toMatchObject({ kind: 'fp', bits: 0x7ff0000000000001n });
  });

  it('LLVM 1.1 kept -0.0 and 0.0 as one constant (its map compared the double values): whichever came first', () => {
    const text = '%a = global double -0.0\n%b = global double 0.0\n%c = global float 0.0\n%d = global float -0.0\n';
    expect(floatBits(text, '1.1')).toEqual(['0x8000000000000000', '0x8000000000000000', '0x0', '0x0']);
    expect(floatBits(text, '1.2')).toEqual(['0x8000000000000000', '0x0', '0x0', '0x80000000']);
  });
});

describe('a global defined twice', () => {
  it('is merged when at most one definition has an initializer, or both the same constant (every release)', () => {
    for (const dialect of ['1.1', '1.3', '1.9'] as const) {
      const gs = globals(
        '%t3 = external global uint*\n%t4 = global int** cast (uint** %t3 to int**)\n%t4 = global int** cast (uint** %t3 to int**)\n%B = external global int\n%B = constant int 7\n',
        dialect,
      );
      expect(gs.map((g) => g.name)).toEqual(['t3', 't4', 'B']);
      expect(gs[2]).toMatchObject({ isConstant: true, linkage: 'external', initializer: { kind: 'int', value: 7n } });
    }
  });

  it('takes the later definition’s linkage, constness, section and alignment', () => {
    const [b] = globals('%B = global int 7\n%B = weak constant int 7, section "s", align 8\n');
    expect(b).toMatchObject({ linkage: 'weak', isConstant: true, section: 's', alignment: 8 });
  });

  it('is refused with two different initializers (a float rounded differently is another constant)', () => {
    expect(() => globals('%B = global int 7\n%B = global int 8\n')).toThrow(
      /2:1: error: redefinition of global variable '%B' of type int with another initializer/,
    );
    expect(() => globals('%B = global float 1.4142\n%B = global float 1.41420001\n')).toThrow(/redefinition of global variable '%B'/);
  });

  it('after an internal one: a second global named uniquely from LLVM 1.3 on (%B1), merged by 1.1 and 1.2', () => {
    const text = '%B = internal global int 7\n%B = global int 7\n%C = global int* %B\n';
    expect(globals(text, '1.9').map((g) => `${g.name} ${g.linkage}`)).toEqual(['B internal', 'B1 external', 'C external']);
    expect(globals(text, '1.3').map((g) => g.name)).toEqual(['B', 'B1', 'C']);
    expect(globals(text, '1.1').map((g) => `${g.name} ${g.linkage}`)).toEqual(['B external', 'C external']);
    expect(globals(text, '1.2').map((g) => g.name)).toEqual(['B', 'C']);
  });
});

describe('a type name that no definition gives', () => {
  const fnTypes = (text: string, dialect: Dialect) => parseAssembly(text, { dialect }).functions.map((f) => f.type);

  it('is refused before `implementation` and the first function (the constant pool), in every release', () => {
    for (const dialect of ['1.1', '1.3', '1.9'] as const) {
      expect(() => parseAssembly('%p = external global %struct.foo*\n', { dialect })).toThrow(/1:22: error: reference to an undefined type '%struct.foo'/);
      expect(() => parseAssembly('declare void %f(%struct.foo*)\nimplementation\n', { dialect })).toThrow(/undefined type '%struct.foo'/);
    }
  });

  it('after it, in a declaration or a function header, is an unnamed opaque type: one per name (every release)', () => {
    const text = 'implementation\ndeclare void %f(%struct.foo*)\ndeclare void %g(%struct.foo*)\ndeclare void %h(%typedef.tree*)\n';
    for (const dialect of ['1.1', '1.3', '1.9'] as const) {
      const m = parseAssembly(text, { dialect });
      const [f, g, h] = fnTypes(text, dialect);
      const param = (t: typeof f) => (t!.kind === 'pointer' && t!.element.kind === 'function' ? t!.element.params[0] : undefined);
      expect(param(f)).toMatchObject({ kind: 'pointer', element: { kind: 'opaque' } });
      expect(f).toBe(g);
      expect(param(h)).not.toBe(param(f));
      expect(m.typeNames.size).toBe(0);
    }
  });

  const BODY = 'implementation\nvoid %f(sbyte* %x) {\n  %y = cast sbyte* %x to %struct.foo*\n  ret void\n}\n';
  it('inside a function body: refused by LLVM 1.5-1.9, an opaque type to LLVM 1.1-1.3 in the last body only', () => {
    expect(() => parseAssembly(BODY, { dialect: '1.9' })).toThrow(/3:26: error: reference to an undefined type '%struct.foo' in a function body/);
    expect(() => parseAssembly(BODY, { dialect: '1.8' })).toThrow(/in a function body/);
    for (const dialect of ['1.1', '1.2', '1.3'] as const) {
      const body = parseAssembly(BODY, { dialect }).functions[0]!;
      expect(body.blocks[0]!.instructions[0]!.type).toMatchObject({ kind: 'pointer', element: { kind: 'opaque' } });
      expect(() => parseAssembly(`${BODY}void %g() {\n  ret void\n}\n`, { dialect })).toThrow(/another follows/);
    }
  });
});

describe("LLVM 1.1 and 1.2's named constants: %X = const int 0", () => {
  const TEXT = '%X = const int 5\n%X = const int 5\nimplementation\nint %f() {\n  %a = add int %X, 1\n  ret int %a\n}\n';

  it('names the constant itself in the module symbol table; %X of its type is that constant', () => {
    for (const dialect of ['1.1', '1.2'] as const) {
      const m = parseAssembly(TEXT, { dialect });
      expect(m.globals).toEqual([]);
      const add = m.functions[0]!.blocks[0]!.instructions[0]!;
      expect(add.operands[0]).toMatchObject({ kind: 'int', value: 5n, name: 'X' });
      expect(m.layout?.valuePlanes.map((p) => p.values)).toEqual([[add.operands[0]]]);
    }
  });

  it('is what those releases read a text with it as (detectDialect)', () => {
    expect(detectDialect(TEXT)).toBe('1.2');
    expect(detectDialect('%X = constant int 5\n')).toBe('1.9');
  });

  it('written at version 0 and 1: the symbol table entry those releases wrote', () => {
    const bytes = (dialect: '1.1' | '1.2') =>
      writeModule(parseAssembly('%X = const int 0\n%X = const int 0\nimplementation\n', { dialect }), { bytecodeVersion: DIALECT_VERSION[dialect] });
    // [1 entry][type slot 7: int][slot 0]["X"] in the module symbol table block (0x13).
    for (const dialect of ['1.1', '1.2'] as const) expect(Buffer.from(bytes(dialect)).toString('latin1')).toContain('\x13\0\0\0\x05\0\0\0\x01\x07\0\x01X');
  });

  it('is refused by later releases (1.3 dropped the word), unnamed, or naming another value', () => {
    expect(() => parseAssembly(TEXT, { dialect: '1.9' })).toThrow(/1:1: error: 'const' definitions were LLVM 1.1 and 1.2's/);
    expect(() => parseAssembly(TEXT, { dialect: '1.3' })).toThrow(/'const' definitions/);
    expect(() => parseAssembly('const int 5\n', { dialect: '1.1' })).toThrow(/an unnamed 'const'/);
    expect(() => parseAssembly('%X = const int 5\n%X = const int 6\n', { dialect: '1.1' })).toThrow(/2:1: error: redefinition of '%X' of type int/);
  });
});

describe.skipIf(!CORPUS_PRESENT)('named constants against the files LLVM 1.1 and 1.2 wrote', NEEDS_CORPUS, () => {
  // The corpus's Assembler/2003-03-03-DuplicateConstant: a constant named twice, whose listing
  // shows nothing (those releases' llvm-dis printed no named constants), so only a text with the
  // two definitions gives the file back.
  for (const [folder, dialect] of [
    ['v0', '1.1'],
    ['v1', '1.2'],
  ] as const) {
    it(`${folder}: the same bytes`, () => {
      const ours = writeModule(parseAssembly('%X = const int 0\n%X = const int 0\n\nimplementation\n', { dialect }), {
        bytecodeVersion: DIALECT_VERSION[dialect],
      });
      expect(Buffer.from(ours).equals(Buffer.from(readCorpusFile(folder, 'Assembler__2003-03-03-DuplicateConstant.bc')))).toBe(true);
    });
  }
});

/** Hand-written texts LLVM 1.9's llvm-as took, each to be assembled to its bytes. */
const ORACLE_TEXTS: Record<string, string> = {
  'inexact floats, hex floats of denormals, out-of-range values and NaNs': FLOATS,
  'floats rounded inside vectors, structures, constant expressions and instructions':
    '%v = global <4 x float> < float 1.1, float 2.2, float 0x1, float 3.3 >\n%s = global { float, double } { float 0.1, double 0.1 }\n%e = global float add (float 1.4142, float 2.2)\nimplementation\nfloat %f(bool %c, float %x) {\n  %y = mul float %x, 0.3\n  %z = select bool %c, float %y, float 1.0e-46\n  %w = setlt float %z, 3.4028235e38\n  %q = call float %f(bool %w, float 0.7)\n  ret float %q\n}\n',
  'a global defined twice the same': '%B = global int 7\n%B = global int 7\n',
  'a global declared, then defined': '%B = external global int\n%B = internal global int 8\n',
  'an initializer that is a constant expression, twice':
    '%t3 = external global uint*\n%t4 = global int** cast (uint** %t3 to int**)\n%t4 = global int** cast (uint** %t3 to int**)\n',
  'the later definition constant, with section and alignment': '%B = global int 7\n%B = constant int 7 , section "s", align 8\n',
  'an internal global defined again (%B1)': '%B = internal global int 7\n%B = global int 8\n%C = global int* %B\n%D = global int* %B1\n',
  'forward references in both initializers': '%B = global int* %X\n%B = global int* %X\n%X = global int 1\n',
  'undefined type names in declarations after implementation (one opaque type per name)':
    'implementation\ndeclare void %f(%struct.foo*)\ndeclare void %g(%struct.foo*)\ndeclare void %h(%struct.bar*, %typedef.tree*)\n',
  'an undefined type name in a function header': 'implementation\nvoid %f(%struct.foo* %x) {\n  ret void\n}\ndeclare void %g(%struct.foo*)\n',
  'an undefined type number after implementation': '%T = type int\nimplementation\ndeclare %1* %f()\ndeclare %1* %g()\ndeclare %2* %h()\n',
};

/** Texts LLVM 1.9's llvm-as refused, and so do we. */
const ORACLE_REFUSED: Record<string, string> = {
  'two initializers': '%B = global int 7\n%B = global int 8\n',
  'two floats that round apart': '%B = global float 1.4142\n%B = global float 1.41420001\n',
  'a type name never defined, through a pointer': '%p = external global %struct.foo*\n',
  'a type name never defined, in a declaration before implementation': 'declare void %f(%struct.foo*, %typedef.tree*)\nimplementation\n',
  'a type name never defined, in a function body': 'implementation\nvoid %f(sbyte* %x) {\n  %y = cast sbyte* %x to %struct.foo*\n  ret void\n}\n',
};

/** Old debugger intrinsics (LLVM 1.3-1.6's), which LLVM 1.9's parser upgraded with the rest. */
const DEBUG_INTRINSICS: Record<string, string> = {
  'every old debugger intrinsic called, arguments permuted or made undef':
    '%d = type { int }\ndeclare {}* %llvm.dbg.stoppoint({}*, uint, uint, %d*)\ndeclare {}* %llvm.dbg.region.start()\ndeclare {}* %llvm.dbg.region.end({}*)\ndeclare {}* %llvm.dbg.func.start(%d*)\ndeclare void %llvm.dbg.declare()\nimplementation\nvoid %f(%d* %g) {\n  %a = call {}* %llvm.dbg.func.start(%d* %g)\n  %r = call {}* %llvm.dbg.region.start()\n  %x = call {}* %llvm.dbg.stoppoint({}* %r, uint 1, uint 2, %d* %g)\n  call void %llvm.dbg.declare()\n  %e = call {}* %llvm.dbg.region.end({}* %x)\n  ret void\n}\n',
  'the new form, left alone': 'declare void %llvm.dbg.stoppoint(uint, uint, {}*)\nimplementation\n',
};
/** Compared through llvm-dis: here the module symbol table's planes follow LLVM's heap addresses. */
const DEBUG_INTRINSICS_BY_LISTING: Record<string, string> = {
  'old declarations never called, renamed in place and the varargs ones replaced at the end':
    'declare sbyte* %llvm.va_start()\ndeclare void %llvm.va_end(sbyte*)\ndeclare void %llvm.dbg.stoppoint(uint, uint)\ndeclare bool %llvm.isunordered(double, double)\ndeclare void %llvm.memmove(sbyte*, sbyte*, uint, uint)\nimplementation\n',
};

const llvmAs19 = (text: string): Buffer => execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: text, stdio: ['pipe', 'pipe', 'ignore'] });

describe.skipIf(!LLVM19.present)("the old parsers' habits against LLVM 1.9's llvm-as", needs(LLVM19), () => {
  for (const [name, text] of Object.entries(ORACLE_TEXTS)) {
    it(`${name}: the same bytes`, () => {
      expect(Buffer.from(assemble19(text)).equals(llvmAs19(text))).toBe(true);
    });
  }
  for (const [name, text] of Object.entries(DEBUG_INTRINSICS)) {
    it(`${name}: the same bytes`, () => {
      expect(Buffer.from(assemble19(text)).equals(llvmAs19(text))).toBe(true);
    });
  }
  const dis19 = (bytes: Uint8Array): string => execFileSync(LLVM19.path('llvm-dis'), [], { input: bytes }).toString('latin1');
  for (const [name, text] of Object.entries(DEBUG_INTRINSICS_BY_LISTING)) {
    it(`${name}: the same module`, () => {
      const ours = assemble19(text);
      const theirs = llvmAs19(text);
      expect(ours.length).toBe(theirs.length);
      expect(dis19(ours)).toBe(dis19(theirs));
    });
  }
  for (const [name, text] of Object.entries(ORACLE_REFUSED)) {
    it(`${name}: refused by both`, () => {
      expect(() => llvmAs19(text)).toThrow();
      expect(() => assemble19(text)).toThrow(/error:/);
    });
  }
});
