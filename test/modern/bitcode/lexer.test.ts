/**
 * The lexer of the modern IR read back for bitcode: tokens pulled one at a time, keywords handed
 * out as the reader's own literals and names as one key string per distinct name, numbers with
 * their value, strings as bytes, and a refusal with line and column for a character no token
 * begins with.
 */
import { describe, expect, it } from 'vitest';
import { IrSyntaxError, indexable, Keywords, Lexer, lineColumn, MAX_INDEXED, Tok, tokenize } from '../../../src/modern/bitcode/lexer.js';

const kinds = (text: string): [Tok, string][] => tokenize(text).map((t) => [t.kind, t.v]);

describe('tokens', () => {
  it('reads an instruction line into words, names, numbers and punctuation', () => {
    expect(kinds('  %5 = getelementptr [4 x i8], ptr %up.1, i32 0 ; a comment\n')).toEqual([
      [Tok.Local, '#5'],
      [Tok.Punct, '='],
      [Tok.Word, 'getelementptr'],
      [Tok.Punct, '['],
      [Tok.Num, '4'],
      [Tok.Word, 'x'],
      [Tok.Word, 'i8'],
      [Tok.Punct, ']'],
      [Tok.Punct, ','],
      [Tok.Word, 'ptr'],
      [Tok.Local, 'n:up.1'],
      [Tok.Punct, ','],
      [Tok.Word, 'i32'],
      [Tok.Num, '0'],
    ]);
  });

  it('reads labels: named, numbered, quoted, and names that begin with digits', () => {
    expect(kinds('entry:\n7:\n"a b":\n12ab:\n')).toEqual([
      [Tok.Label, 'n:entry'],
      [Tok.Label, '#7'],
      [Tok.Label, 'n:a b'],
      [Tok.Label, 'n:12ab'],
    ]);
  });

  it('keys a numbered name by its digits as written: %007 is not %7', () => {
    expect(kinds('%007 %7 @0 %-1')).toEqual([
      [Tok.Local, '#007'],
      [Tok.Local, '#7'],
      [Tok.Global, '#0'],
      [Tok.Local, 'n:-1'],
    ]);
  });

  it('reads strings as bytes: \\XX escapes decoded, other characters as their UTF-8 bytes', () => {
    expect(kinds('c"a\\00\\\\b" "é" !"m" !3 !{ ...')).toEqual([
      [Tok.CStr, 'a\x00\\b'],
      [Tok.Str, '\xc3\xa9'],
      [Tok.MStr, 'm'],
      [Tok.Meta, '3'],
      [Tok.Punct, '!{'],
      [Tok.Punct, '...'],
    ]);
  });

  it('gives a decimal integer its value and says what kind of number it is', () => {
    const lex = new Lexer('-12 4294967295 1.5e+00 0x3FF0000000000000 1234567890123456', new Keywords([]));
    const seen: [string, number, boolean, boolean][] = [];
    for (; lex.kind !== Tok.End; lex.advance()) seen.push([lex.raw(), lex.int, lex.integer, lex.plain]);
    expect(seen).toEqual([
      ['-12', -12, true, false],
      ['4294967295', 4294967295, true, true],
      ['1.5e+00', Number.NaN, false, false],
      ['0x3FF0000000000000', Number.NaN, false, false],
      // more than 15 digits: no value here, the reader takes the text
      ['1234567890123456', Number.NaN, true, true],
    ]);
  });

  it('hands out a keyword as the literal itself, and one string for every use of a name', () => {
    const keywords = new Keywords(['load']);
    const lex = new Lexer('load %x, %x load', keywords);
    const loadWord = lex.val;
    lex.advance();
    const first = lex.val;
    lex.advance();
    lex.advance();
    expect(lex.val).toBe(first);
    lex.advance();
    expect(lex.val).toBe(loadWord);
    expect(loadWord).toBe('load');
  });

  it('looks ahead without moving, and comes back to a token it handed out', () => {
    const lex = new Lexer('%x = add i32 1, 2', new Keywords([]));
    expect(lex.nextChar()).toBe('='.charCodeAt(0));
    lex.advance();
    lex.advance();
    const at = lex.at;
    expect(lex.nextKind()).toBe(Tok.Word);
    expect(lex.val).toBe('add');
    lex.advance();
    lex.advance();
    expect(lex.kind).toBe(Tok.Num);
    lex.reset(at);
    expect([lex.kind, lex.val]).toEqual([Tok.Word, 'add']);
  });

  it('reads to the end of the text as a token of its own, at the end', () => {
    const lex = new Lexer('ret', new Keywords([]));
    lex.advance();
    expect([lex.kind, lex.at]).toEqual([Tok.End, 3]);
  });
});

describe('bounds and errors', () => {
  it('refuses a character no token begins with, at its line and column', () => {
    expect(() => tokenize('ret\n  ^')).toThrow(IrSyntaxError);
    try {
      tokenize('ret\n  ^');
    } catch (e) {
      expect(e).toMatchObject({ line: 2, column: 3 });
    }
    expect(() => tokenize('"open')).toThrow(/unterminated string/);
    expect(() => tokenize('% x')).toThrow(/a name after %/);
  });

  it('counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });

  it('keeps numbered names by index only as far as the numbers grow: a far one is read as any other name', () => {
    expect(indexable(10, 0)).toBe(true);
    expect(indexable(65536, 0)).toBe(false);
    expect(indexable(150000, 100000)).toBe(true);
    expect(indexable(MAX_INDEXED, MAX_INDEXED)).toBe(false);
    expect(kinds('%99999999999')).toEqual([[Tok.Local, '#99999999999']]);
  });
});
