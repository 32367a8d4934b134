/** The lexer cuts tokens as LLVM's flex lexers did: 1.x's, and r36867's (LLVM 2.0) where they differ. */
import { describe, expect, it } from 'vitest';
import { SourceText } from '../../src/asm/assembly-error.js';
import { LEXICAL_1X, LEXICAL_2_0, type LexicalDialect } from '../../src/asm/dialect.js';
import { Lexer, Tok, unescapeName } from '../../src/asm/lexer.js';

function tokens(text: string, dialect: LexicalDialect = LEXICAL_1X): [Tok, string][] {
  const lx = new Lexer(new SourceText(text), dialect);
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

  it('reads r36867\'s @ names, @N numbers and @"…" names; to 1.x\'s lexers @ is a character', () => {
    expect(tokens('@g.1 @12 @"a\\41"', LEXICAL_2_0)).toEqual([
      [Tok.GlobalName, 'g.1'],
      [Tok.GlobalNumber, '12'],
      [Tok.GlobalString, 'a\\41'],
    ]);
    expect(tokens('@g', LEXICAL_1X)).toEqual([
      [Tok.Char, '@'],
      [Tok.Char, 'g'],
    ]);
  });

  it("reads r36867's iN as a word, with the longest match (i32x is i32 then x); 1.x had no such word", () => {
    expect(tokens('i1 i32x i', LEXICAL_2_0)).toEqual([
      [Tok.Keyword, 'i1'],
      [Tok.Keyword, 'i32'],
      [Tok.Char, 'x'],
      [Tok.Char, 'i'],
    ]);
    expect(tokens('i32', LEXICAL_1X)).toEqual([
      [Tok.Char, 'i'],
      [Tok.Integer, '32'],
    ]);
  });

  it("takes each dialect's own words: define is r36867's, int is 1.x's", () => {
    expect(tokens('define int', LEXICAL_2_0)[0]).toEqual([Tok.Keyword, 'define']);
    expect(tokens('define', LEXICAL_1X)[0]).toEqual([Tok.Char, 'd']);
    expect(tokens('int', LEXICAL_2_0)).toEqual([
      [Tok.Char, 'i'],
      [Tok.Char, 'n'],
      [Tok.Char, 't'],
    ]);
  });

  it("reads %-1 as a numbered value in 1.x and as a name in r36867's text", () => {
    expect(tokens('%-1', LEXICAL_1X)).toEqual([[Tok.VarNumber, '-1']]);
    expect(tokens('%-1', LEXICAL_2_0)).toEqual([[Tok.VarName, '-1']]);
  });

  it('cuts numbers, strings and labels the same in both dialects', () => {
    const text = '42 -7 s0xFF 1.5e+3 0x3FF0000000000000 +5 "a\\42": b: "raw\\0A"';
    expect(tokens(text, LEXICAL_2_0)).toEqual(tokens(text, LEXICAL_1X));
  });

  it('counts lines and columns from 1', () => {
    const src = new SourceText('a\nbc\n\nd');
    expect(src.position(0)).toEqual({ line: 1, column: 1 });
    expect(src.position(3)).toEqual({ line: 2, column: 2 });
    expect(src.position(6)).toEqual({ line: 4, column: 1 });
  });
});
