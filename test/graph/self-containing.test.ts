/**
 * Types that contain themselves by value (issue 18, item 1). LLVM's linker makes them when it
 * resolves an opaque type into a struct that holds it; LLVM 1.9 read, printed and wrote modules
 * with globals, constants and `alloca`s of them. So do we; only the consumers that need a size
 * or a finite spelled-out value (the version-0 writer, the LLVM 16 upgrade) refuse, naming the type.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBytes, formatAnalysis } from '../../src/analyze/index.js';
import { EncodeError } from '../../src/encode/encode-error.js';
import { writeModule } from '../../src/encode/write.js';
import { SelfContainingTypes } from '../../src/graph/self-containing.js';
import type { StructType, Type } from '../../src/graph/type.js';
import { primitiveTypes } from '../../src/graph/type.js';
import { printModule } from '../../src/print/index.js';
import { UpgradeError } from '../../src/modern/index.js';
import { readModule } from '../../src/read.js';
import { LLVM19, needs } from '../support/tools.js';

const hex = (s: string): Uint8Array => new Uint8Array(s.match(/../g)!.map((b) => parseInt(b, 16)));

/**
 * Made by LLVM 1.9's `llvm-as` (bytecode version 6, `llvc0`) from:
 *
 *   %t = type { { \2*, %t }, { \2*, %t } }
 *   %x = global %t undef
 *   %y = global %t zeroinitializer
 *   %z = global { int, %t } { int 1, %t undef }
 *   implementation
 *   void %f(%t* %a) {
 *   entry:
 *     %p = alloca %t
 *     %m = malloc %t
 *     %q = getelementptr %t* %p, long 0, uint 1, uint 0
 *     %r = load { \2*, %t }** %q
 *     free %t* %m
 *     ret void
 *   }
 */
const WITH_UNDEF = hex(
  '6c6c76633001000000aa0000006c66030000091010100f0e0e10000e0f0f0010120e07100010140d00010d100e250200' +
    '00a20301a20300a2040100e104000000000003020000010600010107000201100101120001016208000000670300006d' +
    '0d1000650d1000780d040403010071151000690d50000500f0ffe403000000010e010172010c0005656e747279030d03' +
    '016105016d0401700115010171c402000001100174020d010178020179011101017a0113010166',
);

/** As WITH_UNDEF without `%x` and with `zeroinitializer` for `undef` (so versions 0–4 can hold it). */
const ZEROS_ONLY = hex(
  '6c6c76633001000000a10000006c66030000091010100f0e0e10000e0f0f0010120e07100010140d00010d100ec50100' +
    '00a20300a2040100e1040000000000a3010000010600010107000201120001006208000000670300006d0d1000650d10' +
    '00780d040303010071151000690d40000500f0ffe403000000010e010172010c0005656e747279030d02016104016d03' +
    '017001150101716402000001100174010d010179011101017a0113010166',
);

/**
 * Made by LLVM 1.9's `llvm-link` from two modules in which no type contains itself:
 *   la.ll:  %A = type { %B }   %B = type opaque   %x = global %A undef
 *   lb.ll:  %A = type opaque   %B = type { %A*, %A }   %y = global %B* null
 * Resolving each module's opaque type to the other's struct makes %A = { { %A*, %A } }.
 */
const LINKED = hex(
  '6c6c766330010000003f0000006cc601000005100f0e0d0f000e0e001011100e85010000a2030182040000000000000063' +
    '000000010f0124020000020f01410e0142010d0101780110010179',
);

/** What LLVM 1.9's `llvm-dis` printed for LINKED. */
const LINKED_DIS = `; ModuleID = '<stdin>'
	%A = type { %B }
	%B = type { %A*, %A }
%x = global %A undef		; <%A*> [#uses=0]
%y = global %B* null		; <%B**> [#uses=0]

implementation   ; Functions:
`;

/** What LLVM 1.9's `llvm-dis` printed for WITH_UNDEF. */
const WITH_UNDEF_DIS = `; ModuleID = '<stdin>'
\t%t = type { { \\2*, %t }, { \\2*, %t } }
%x = global %t undef\t\t; <%t*> [#uses=0]
%y = global %t zeroinitializer\t\t; <%t*> [#uses=0]
%z = global { int, %t } { int 1, %t undef }\t\t; <{ int, %t }*> [#uses=0]

implementation   ; Functions:

void %f(%t* %a) {
entry:
\t%p = alloca %t\t\t; <%t*> [#uses=1]
\t%m = malloc %t\t\t; <%t*> [#uses=1]
\t%q = getelementptr %t* %p, long 0, uint 1, uint 0\t\t; <{ \\2*, %t }**> [#uses=1]
\t%r = load { \\2*, %t }** %q\t\t; <{ \\2*, %t }*> [#uses=0]
\tfree %t* %m
\tret void
}
`;

/** The first lines of LLVM 1.9's `llvm-bcanalyzer` summary of WITH_UNDEF (file name `-`). */
const WITH_UNDEF_BCA_FIGURES = [
  ['Global Types Bytes', '27 (14.75%)'],
  ['Constant Pool Bytes', '16 (8.743%)'],
  ['Instruction List Bytes', '27 (14.75%)'],
  ['Number Of Types', '9'],
  ['Maximum Value Slot Number', '17'],
] as const;

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('SelfContainingTypes', () => {
  const struct = (elements: Type[]): StructType => ({ kind: 'struct', elements, isPacked: false }) as StructType;

  it('marks a struct that holds itself, and every type that holds it by value, but not pointers to it', () => {
    const t = struct([]);
    const inner = struct([{ kind: 'pointer', element: t } as Type, t]);
    (t as { elements: Type[] }).elements = [inner, inner];
    const outer = struct([primitiveTypes.int, t]);
    const arrayOf: Type = { kind: 'array', element: outer, length: 2 } as Type;
    const pointer: Type = { kind: 'pointer', element: t } as Type;
    const finite = struct([primitiveTypes.int, pointer]);
    const s = new SelfContainingTypes();
    expect([t, inner, outer, arrayOf].map((x) => s.has(x))).toEqual([true, true, true, true]);
    expect([pointer, finite, primitiveTypes.int].map((x) => s.has(x))).toEqual([false, false, false]);
  });

  it('answers the same whichever type is asked first', () => {
    const t = struct([]);
    const holder = struct([t]);
    (t as { elements: Type[] }).elements = [holder];
    const free = struct([primitiveTypes.int]);
    const wrapper = struct([free, holder]);
    const a = new SelfContainingTypes();
    expect([a.has(wrapper), a.has(free), a.has(t)]).toEqual([true, false, true]);
    const b = new SelfContainingTypes();
    expect([b.has(free), b.has(t), b.has(wrapper)]).toEqual([false, true, true]);
  });

  it('walks a deep chain without recursion', () => {
    let t: Type = primitiveTypes.int;
    for (let i = 0; i < 100_000; i++) t = struct([t]);
    expect(new SelfContainingTypes().has(t)).toBe(false);
  });
});

describe('a module whose types contain themselves by value (made by LLVM 1.9)', () => {
  it('reads and prints as LLVM 1.9 printed it, in both syntaxes', () => {
    const m = readModule(WITH_UNDEF);
    expect(printModule(m)).toBe(WITH_UNDEF_DIS);
    expect(printModule(m, { syntax: 'native' })).toBe(WITH_UNDEF_DIS);
  });

  it("reads, prints and writes back what LLVM 1.9's linker made of two ordinary modules", () => {
    const m = readModule(LINKED);
    expect(printModule(m)).toBe(LINKED_DIS);
    expect(printModule(m, { syntax: 'native' })).toBe(LINKED_DIS);
    expect(writeModule(m, { bytecodeVersion: 6, compression: 'auto' })).toEqual(LINKED);
    expect(analyzeBytes(LINKED).error ?? null).toBeNull();
  });

  it('writes back byte for byte', () => {
    const m = readModule(WITH_UNDEF);
    expect(writeModule(m, { bytecodeVersion: 6, compression: 'auto' })).toEqual(WITH_UNDEF);
    expect(writeModule(readModule(ZEROS_ONLY), { bytecodeVersion: 6, compression: 'auto' })).toEqual(ZEROS_ONLY);
  });

  it('analyzes as llvm-bcanalyzer did', () => {
    const text = formatAnalysis(analyzeBytes(WITH_UNDEF));
    for (const [label, figure] of WITH_UNDEF_BCA_FIGURES) expect(text).toMatch(new RegExp(`${label}:\\s+${figure.replace(/[().%]/g, '\\$&')}\\n`));
  });

  it('converts to versions 1, 3 and 5 and back, printing the same', () => {
    const m = readModule(ZEROS_ONLY);
    const expected = printModule(m);
    for (const v of [1, 3, 5]) {
      const bytes = writeModule(m, { bytecodeVersion: v, compression: 'none' });
      const back = readModule(bytes);
      expect(printModule(back)).toBe(expected);
      printModule(back, { syntax: 'native' });
      expect(writeModule(back, { bytecodeVersion: v, compression: 'none' })).toEqual(bytes);
    }
  });

  it('prints the zero of such a type as zeroinitializer in the 1.1 dialect, which spells other zeros out', () => {
    const m = readModule(ZEROS_ONLY);
    m.source = { ...m.source!, bytecodeVersion: 0 };
    const text = printModule(m, { syntax: 'native' });
    expect(text).toContain('%y = global %t zeroinitializer\t\t; <%t*> [#uses=0]\n');
    expect(text).toContain('%z = global { int, %t } { int 1, %t zeroinitializer }');
  });

  it('is refused by the version-0 writer, naming the type: LLVM 1.1 spelled zeros out element by element', () => {
    const e = thrown(() => writeModule(readModule(ZEROS_ONLY), { bytecodeVersion: 0, compression: 'none' }));
    expect(e).toBeInstanceOf(EncodeError);
    expect((e as EncodeError).message).toBe(
      'the zero value of type %t, which contains itself, cannot be written in bytecode version 0: LLVM 1.1 spelled a zero aggregate out element by element, and this one has no end',
    );
  });

  it('is refused by the upgrade to LLVM 16, naming the type (LLVM 16 has no value without a size)', () => {
    const e = thrown(() => printModule(readModule(WITH_UNDEF), { syntax: 'modern' }));
    expect(e).toBeInstanceOf(UpgradeError);
    expect((e as Error).message).toBe('type %t contains itself by value and so has no size; LLVM 16 has no values of such a type');
  });

  it('upgrades when the type is only pointed to: LLVM 16 accepts its definition', () => {
    const m = readModule(WITH_UNDEF);
    m.globals = [];
    m.functions = m.functions.map((f) => ({ ...f, blocks: [], isDeclaration: true }));
    expect(printModule(m, { syntax: 'modern', llvm: 16 })).toContain('%t = type { { ptr, %t }, { ptr, %t } }\n');
    // LLVM 22 refuses a recursive identified struct; no value has the type, so it is opaque there.
    expect(printModule(m, { syntax: 'modern', llvm: 22 })).toContain('%t = type opaque ; LLVM 1.x: a structure that contains itself by value (no size)\n');
  });
});

describe('against LLVM 1.9 itself (llvm-as, llvm-link, llvm-dis)', needs(LLVM19), () => {
  /** Sources whose modules hold (or, once linked, make) types that contain themselves. */
  const sources: Record<string, string[]> = {
    nested: ['%t = type { { \\2*, %t }, { \\2*, %t } }\n%a = global [2 x %t] zeroinitializer\n%b = constant { %t, int } { %t undef, int 7 }\n'],
    array: ['%r = type [3 x { int, %r }]\n%g = external global %r\nimplementation\nvoid %f() {\n\t%p = alloca %r, uint 4\n\tret void\n}\n'],
    linked: ['%A = type { %B }\n%B = type opaque\n%x = global %A undef\n', '%A = type opaque\n%B = type { %A*, %A }\n%y = global %B* null\n'],
  };

  for (const [name, lls] of Object.entries(sources)) {
    it(`${name}: prints as llvm-dis printed it and writes back byte for byte`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'self-containing-'));
      try {
        const bcs = lls.map((text, i) => {
          writeFileSync(join(dir, `${i}.ll`), text);
          execFileSync(LLVM19.path('llvm-as'), ['-f', join(dir, `${i}.ll`), '-o', join(dir, `${i}.bc`)]);
          return join(dir, `${i}.bc`);
        });
        let file = bcs[0]!;
        if (bcs.length > 1) execFileSync(LLVM19.path('llvm-link'), ['-f', ...bcs, '-o', (file = join(dir, 'linked.bc'))]);
        const bytes = new Uint8Array(readFileSync(file));
        const expected = execFileSync(LLVM19.path('llvm-dis'), { input: bytes }).toString('latin1');
        const m = readModule(bytes);
        expect(printModule(m)).toBe(expected);
        expect(writeModule(m, { bytecodeVersion: 6, compression: 'auto' })).toEqual(bytes);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
