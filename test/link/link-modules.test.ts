/**
 * `linkModules` as LLVM 1.9's `llvm-link`: each case is a small pair of modules in LLVM 1.9
 * assembly and what llvm-link made of them (checked against the real tool: llvm-as, llvm-link,
 * llvm-dis of LLVM 1.9 give the same listings).
 */
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import type { Module } from '../../src/graph/module.js';
import { LinkError, linkInputs, linkModules, undefinedSymbols } from '../../src/link/index.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { CORPUS_PRESENT, NEEDS_CORPUS, readCorpusFile } from '../support/corpus.js';

const asm = (text: string): Module => parseAssembly(text, { dialect: '1.9' });
const linked = (...texts: string[]): string => printModule(linkModules(texts.map(asm)));
const refusal = (...texts: string[]): string => {
  try {
    linkModules(texts.map(asm));
  } catch (e) {
    expect(e).toBeInstanceOf(LinkError);
    return (e as LinkError).message;
  }
  throw new Error('linked');
};

describe('declarations resolve to definitions', () => {
  it('a call to a declared function calls the definition linked in', () => {
    const out = linked('declare int %f()\nint %main() {\n\t%r = call int %f()\n\tret int %r\n}\n', 'implementation\nint %f() {\n\tret int 7\n}\n');
    expect(out).toContain('int %f() {\n\tret int 7\n}');
    expect(out).not.toContain('declare');
    expect(out).toContain('%r = call int %f( )');
  });

  it('an external variable takes the definition, even of another type (its uses go through a cast)', () => {
    const out = linked('%g = external global int\n%q = global int* %g\n', '%g = global float 1.0\n');
    expect(out).toContain('%g = global float 1.000000e+00');
    expect(out).toContain('%q = global int* cast (float* %g to int*)');
  });
});

describe('linkage', () => {
  it('renames an internal global that holds an external name: the newcomer gets the name back', () => {
    const out = linked('%x = internal global int 1\nint %get() {\n\t%v = load int* %x\n\tret int %v\n}\n', '%x = global int 2\n');
    // LLVM: the newcomer was first "x1", then ForceRenaming gave it "x" and the internal one "x2".
    expect(out).toContain('%x2 = internal global int 1');
    expect(out).toContain('%x = global int 2');
    expect(out).toContain('load int* %x2');
  });

  it('keeps two internals of one name apart', () => {
    const out = linked('%s = internal global int 1\n', '%s = internal global int 2\n');
    expect(out).toContain('%s = internal global int 1');
    expect(out).toContain('%s1 = internal global int 2');
  });

  it('linkonce gives way to an external definition, which keeps the first body', () => {
    expect(linked('implementation\nint %f() {\n\tret int 1\n}\n', 'implementation\nlinkonce int %f() {\n\tret int 2\n}\n')).toContain(
      'int %f() {\n\tret int 1\n}',
    );
    // llvm-link 1.9 changed the linkage but kept the destination's (linkonce) body.
    expect(linked('implementation\nlinkonce int %f() {\n\tret int 1\n}\n', 'implementation\nint %f() {\n\tret int 2\n}\n')).toContain(
      '\nint %f() {\n\tret int 1\n}',
    );
  });

  it('weak wins over linkonce', () => {
    expect(linked('%g = linkonce global int 1\n', '%g = weak global int 2\n')).toContain('%g = weak global int 2');
  });

  it('concatenates appending arrays, in link order', () => {
    expect(linked('%a = appending global [1 x int] [int 1]\n', '%a = appending global [2 x int] [int 2, int 3]\n')).toContain(
      '%a = appending global [3 x int] [ int 1, int 2, int 3 ]',
    );
  });
});

describe("LLVM's accidents, kept because the output is llvm-link's", () => {
  it('a variable from a later module loses its section, a function its section and alignment', () => {
    const out = linked(
      '%h = global int 1\n',
      '%g = global int 1, section "foo", align 16\nimplementation\nint %f() section "bar" align 32 {\n\tret int 2\n}\n',
    );
    expect(out).toContain('%g = global int 1, align 16\t');
    expect(out).toContain('\nint %f() {\n');
  });

  it('the first module keeps its sections', () => {
    expect(linked('%g = global int 1, section "foo"\n', '%h = global int 1\n')).toContain('%g = global int 1, section "foo"');
  });
});

describe('types', () => {
  it('resolves an opaque type by name', () => {
    const out = linked('%T = type opaque\n%p = external global %T*\n', '%T = type { int }\n%p = global %T* null\n');
    expect(out).toContain('%T = type { int }');
    expect(out).toContain('%p = global %T* null');
  });

  it('merges structurally equal recursive types into one', () => {
    const out = linked('%L = type { %L*, int }\n%g = global %L* null\n', '%M = type { %M*, int }\n%h = global %M* null\n');
    expect(out).toContain('%M = type { %L*, int }');
    expect(out).toContain('%h = global %L* null');
    const m = linkModules([asm('%L = type { %L*, int }\n%g = global %L* null\n'), asm('%M = type { %M*, int }\n%h = global %M* null\n')]);
    expect(m.typeNames.get('L')).toBe(m.typeNames.get('M'));
  });
});

describe("LLVM's refusals, as LinkError with LLVM's message", () => {
  it('two definitions of one variable', () => {
    expect(refusal('%g = global int 1\n', '%g = global int 2\n')).toBe("Linking globals named 'g': symbol multiply defined!");
  });
  it('two definitions of one function', () => {
    expect(refusal('implementation\nint %f() {\n\tret int 1\n}\n', 'implementation\nint %f() {\n\tret int 2\n}\n')).toBe(
      'Function \' int ()\':"f" - Function is already defined!',
    );
  });
  it('appending with non-appending', () => {
    expect(refusal('%a = appending global [1 x int] [int 1]\n', '%a = global [1 x int] [int 1]\n')).toBe(
      "Linking globals named 'a': can only link appending global with another appending global!",
    );
  });
  it('appending arrays of different element types', () => {
    expect(refusal('%a = appending global [1 x int] [int 1]\n', '%a = appending global [1 x uint] [uint 1]\n')).toBe(
      'Appending variables with different element types need to be linked!',
    );
  });
  it('functions of different linkages', () => {
    expect(refusal('implementation\nint %f() {\n\tret int 1\n}\n', 'implementation\ndllexport int %f() {\n\tret int 2\n}\n')).toBe(
      "Functions named 'f' have different linkage specifiers!",
    );
  });
  it("appending arrays of different const'ness", () => {
    expect(refusal('%a = appending constant [1 x int] [int 1]\n', '%a = appending global [1 x int] [int 2]\n')).toBe(
      "Appending variables linked with different const'ness!",
    );
  });
  it('names the input being linked in', () => {
    const link = () => linkModules([asm('%g = global int 1\n'), asm('%h = global int 1\n'), asm('%g = global int 2\n')]);
    expect(link).toThrow(LinkError);
    expect(link).toThrow(expect.objectContaining({ moduleIndex: 2 }));
  });
});

describe('the inputs and the result', () => {
  it('leaves the inputs as they were', () => {
    const a = asm('%T = type opaque\n%p = external global %T*\n');
    const b = asm('%T = type { int }\n%p = global %T* null\n');
    const before = [printModule(a), printModule(b)];
    linkModules([a, b]);
    expect([printModule(a), printModule(b)]).toEqual(before);
  });

  it('is a module the writer writes and the reader reads back as printed', () => {
    const m = linkModules([
      asm('declare int %f()\nint %main() {\n\t%r = call int %f()\n\tret int %r\n}\n'),
      asm('implementation\nint %f() {\n\tret int 7\n}\n'),
    ]);
    expect(printModule(readModule(writeModule(m, { bytecodeVersion: 6, compression: 'none' })))).toBe(printModule(m));
  });

  it('one module links to itself unchanged in content', () => {
    const text = '%g = global int 1\nimplementation\nint %f() {\n\tret int 1\n}\n';
    expect(linked(text)).toBe(printModule(asm(text)));
  });
});

describe('archives as inputs (as llvm-ld)', () => {
  it('takes only the members that define what is still undefined, round by round', () => {
    const main = asm('declare int %f()\nint %main() {\n\t%r = call int %f()\n\tret int %r\n}\n');
    const f = asm('declare int %g()\nint %f() {\n\t%r = call int %g()\n\tret int %r\n}\n');
    const g = asm('implementation\nint %g() {\n\tret int 3\n}\n');
    const unused = asm('implementation\nint %unused() {\n\tret int 4\n}\n');
    expect([...undefinedSymbols(main)]).toEqual(['f']);
    const m = linkInputs([
      { kind: 'module', module: main },
      { kind: 'archive', members: [{ module: unused }, { module: g }, { module: f }] },
    ]);
    expect(m.functions.map((fn) => fn.name)).toEqual(['f', 'main', 'g']);
    expect(undefinedSymbols(m).size).toBe(0);
  });
});

describe('sizes', () => {
  it('links modules of deeply nested types (a chain of 2,000 pointer types) with types found bottom-up', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `%g${i} = external global int${'*'.repeat(i + 1)}\n`).join('');
    const m = linkModules([asm(text), asm(text)]);
    expect(m.globals.length).toBe(2000);
    // `int*…*` (2,000 stars) is one object: g1999's value type and g1998's pointer type.
    expect(m.globals[1999]!.valueType).toBe(m.globals[1998]!.type);
  });
});

describe.skipIf(!CORPUS_PRESENT)('version 7', NEEDS_CORPUS, () => {
  it('refuses a version-7 module by name: llvm-link 1.9 linked LLVM 1.x modules only', () => {
    const v7 = readModule(readCorpusFile('v7', 'Analysis__Andersens__basictest.bc'));
    const v6 = readModule(readCorpusFile('v6', 'Feature__calltest.bc'));
    expect(() => linkModules([v6, v7])).toThrow(/input 2 uses version-7 bytecode/);
  });
});
