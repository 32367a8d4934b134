/** The lexer cuts tokens as LLVM's flex lexers did. */
import { describe, expect, it } from 'vitest';
import { SourceText } from '../../src/asm/assembly-error.js';
import { Lexer, Tok, unescapeName } from '../../src/asm/lexer.js';

function tokens(text: string): [Tok, string][] {
  const lx = new Lexer(new SourceText(text));
  const out: [Tok, string][] = [];
  while (lx.kind !== Tok.Eof) {
    out.push([lx.kind, lx.value]);
    lx.next();
  }
  return out;
}

describe('the lexer', () => {
  it('skips white space and comments anywhere', () => {
    expect(tokens('  ; a comment\n\tint ; another\r\n*')).toEqual([
      [Tok.Keyword, 'int'],
      [Tok.Char, '*'],
    ]);
  });

  it('reads %names, %N slots and labels', () => {
    expect(tokens('%a.b-c$_1 %42 entry: "a b": %-1')).toEqual([
      [Tok.VarName, 'a.b-c$_1'],
      [Tok.VarNumber, '42'],
      [Tok.Label, 'entry'],
      [Tok.Label, 'a b'],
      [Tok.VarNumber, '-1'],
    ]);
  });

  it('reads integers, negative, hexadecimal with a sign letter, and floating point', () => {
    expect(tokens('42 -7 s0xFF u0x10 1.5 -2.0e-3 0x3FF0000000000000')).toEqual([
      [Tok.Integer, '42'],
      [Tok.Integer, '-7'],
      [Tok.Integer, 's0xFF'],
      [Tok.Integer, 'u0x10'],
      [Tok.Float, '1.5'],
      [Tok.Float, '-2.0e-3'],
      [Tok.Float, '0x3FF0000000000000'],
    ]);
  });

  it('takes the longest keyword, as flex did (cc42 is cc then 42)', () => {
    expect(tokens('cc42')).toEqual([
      [Tok.Keyword, 'cc'],
      [Tok.Integer, '42'],
    ]);
  });

  it('gives the grammar single letters as characters: x in [4 x int], c before a string', () => {
    expect(tokens('[4 x int] c"hi\\0A"')).toEqual([
      [Tok.Char, '['],
      [Tok.Integer, '4'],
      [Tok.Char, 'x'],
      [Tok.Keyword, 'int'],
      [Tok.Char, ']'],
      [Tok.Char, 'c'],
      [Tok.String, 'hi\\0A'],
    ]);
  });

  it('unescapes \\XX in names, and leaves other backslashes alone', () => {
    expect(unescapeName('a\\20b\\zz\\4')).toBe('a b\\zz\\4');
  });

  it('counts lines and columns from 1', () => {
    const src = new SourceText('a\nbc\n\nd');
    expect(src.position(0)).toEqual({ line: 1, column: 1 });
    expect(src.position(3)).toEqual({ line: 2, column: 2 });
    expect(src.position(6)).toEqual({ line: 4, column: 1 });
  });
});
