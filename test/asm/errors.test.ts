/**
 * Bad text ends in an AssemblyError that says where (line and column from 1, the source line and
 * a caret) and what — for what LLVM 1.9's parser and verifier rejected — and never in anything else.
 */
import { describe, expect, it } from 'vitest';
import { AssemblyError, parseAssembly } from '../../src/asm/index.js';

function failure(text: string): AssemblyError {
  try {
    parseAssembly(text, { fileName: 'bad.ll' });
  } catch (e) {
    expect(e).toBeInstanceOf(AssemblyError);
    return e as AssemblyError;
  }
  throw new Error('assembled without error');
}

describe('assembly errors', () => {
  it('say file, line and column, show the line and point at the place', () => {
    const e = failure('implementation\n\nint %f() {\n\t%x = add int %y, 1\n\tret int %x\n}\n');
    expect(e.line).toBe(4);
    expect(e.column).toBe(15);
    expect(e.message).toBe("bad.ll:4:15: error: use of undefined value '%y' of type int\n\t%x = add int %y, 1\n              ^");
  });

  const cases: [string, string, RegExp][] = [
    ['an undefined type', '%g = global %nosuch* null\n', /undefined type '%nosuch'/],
    ['a type defined as itself', '%a = type %b\n%b = type %a\n', /defined as itself/],
    ['a constant that does not fit its type', '%g = global sbyte 200\n', /does not fit sbyte/],
    ['a negative unsigned constant', '%g = global uint -1\n', /does not fit uint/],
    ['a syntax error', '%g = global int 5 6\n', /expected/],
    ['a linkage before a function, before implementation', 'internal int %f() { ret int 0 }\n', /after 'implementation'/],
    ['a name on a void instruction', 'implementation\nvoid %f() {\n\t%x = call void %f()\n\tret void\n}\n', /produces no value/],
    ['a string without its closing quote', '%g = global [2 x sbyte] c"ab\n', /no closing quote/],
    ['an undefined label', 'implementation\nvoid %f() {\n\tbr label %nowhere\n}\n', /undefined label '%nowhere'/],
    ['a redefined value', 'implementation\nint %f(int %a) {\n\t%x = add int %a, 1\n\t%x = add int %a, 2\n\tret int %x\n}\n', /redefinition of '%x'/],
    ['a call with too few arguments', 'declare int %g(int)\nimplementation\nint %f() {\n\t%x = call int (int)* %g()\n\tret int %x\n}\n', /passes 0 arguments/],
    [
      'a store through a pointer of another type',
      'implementation\nvoid %f(int* %p) {\n\tstore uint 1, int* %p\n\tret void\n}\n',
      /store of uint through int\*/,
    ],
    ['an up-reference that climbs out of its type', '%t = type \\3*\n', /climbs out/],
    ['a body with no end', 'implementation\nvoid %f() {\n\tret void\n', /no end/],
    [
      'a use its definition does not dominate (the verifier)',
      'implementation\nint %f(bool %c) {\n\tbr bool %c, label %a, label %b\na:\n\t%x = add int 1, 2\n\tbr label %b\nb:\n\tret int %x\n}\n',
      /dominat/,
    ],
  ];
  for (const [what, text, message] of cases) {
    it(`for ${what}`, () => {
      const e = failure(text);
      expect(e.reason).toMatch(message);
      expect(e.line).toBeGreaterThan(0);
      expect(e.column).toBeGreaterThan(0);
    });
  }

  it('for nesting deeper than the limit, without exhausting the stack', () => {
    const deep = '%t = type ' + '[1 x '.repeat(5000) + 'int' + ']'.repeat(5000) + '\n';
    expect(failure(deep).reason).toMatch(/nesting deeper than the limit/);
  });

  it('refuse anything but a string', () => {
    expect(() => parseAssembly(new Uint8Array(4) as unknown as string)).toThrow(TypeError);
  });

  it('never escape as anything but AssemblyError on truncations of a real text', () => {
    const text =
      'target endian = little\n%s = type { int, %s* }\n%g = global %s { int 1, %s* null }\nimplementation\nint %main(int %a) {\nentry:\n\t%p = getelementptr %s* %g, long 0, uint 0\n\t%v = load int* %p\n\t%c = setlt int %v, %a\n\tbr bool %c, label %entry, label %out\nout:\n\tret int %v\n}\n';
    let refused = 0;
    for (let n = 0; n < text.length; n++) {
      try {
        parseAssembly(text.slice(0, n));
      } catch (e) {
        expect(e, `truncated at ${n}`).toBeInstanceOf(AssemblyError);
        refused++;
      }
    }
    // Some prefixes are whole modules (the empty text, the text cut after a global); every cut
    // inside the function body leaves it unfinished.
    expect(refused).toBeGreaterThanOrEqual(text.length - text.indexOf('int %main'));
    expect(() => parseAssembly(text)).not.toThrow();
  });
});
