/**
 * The 1.x and 2.0 parsers share their common grammar (src/asm/parser-base.ts), and each dialect
 * keeps the wording its parser always gave (src/asm/dialect.ts, `SyntaxDialect`): the same
 * mistake in each dialect's text gives that dialect's message, at the same place.
 */
import { describe, expect, it } from 'vitest';
import { AssemblyError, parseAssembly, type Dialect } from '../../src/asm/index.js';

function firstLine(text: string, dialect: Dialect): string {
  try {
    parseAssembly(text, { dialect, fileName: 'bad.ll' });
  } catch (e) {
    expect(e).toBeInstanceOf(AssemblyError);
    return (e as AssemblyError).message.split('\n')[0]!;
  }
  throw new Error('assembled without error');
}

describe("each dialect's own messages from the shared grammar", () => {
  it('shows a number token as 1.x said it (the number 5) and as r36867 did (quoted)', () => {
    expect(firstLine('target triple = 5\n', '1.9')).toBe('bad.ll:1:17: error: expected the target triple (a quoted string), found the number 5');
    expect(firstLine('target triple = 5\n', '2.0')).toBe("bad.ll:1:17: error: expected the target triple (a string), found '5'");
  });

  it('refuses a count over 32 bits in each wording', () => {
    expect(firstLine('%g = global int 0, align 8589934592\n', '1.9')).toBe('bad.ll:1:26: error: an alignment 8589934592 is too large');
    expect(firstLine('@g = global i32 0, align 8589934592\n', '2.0')).toBe('bad.ll:1:26: error: an alignment 8589934592 is larger than 32 bits');
  });

  it('refuses a section name with a backslash in each wording', () => {
    expect(firstLine('%g = global int 0, section "a\\\\b"\n', '1.9')).toBe('bad.ll:1:28: error: a section name cannot hold a quote or a backslash');
    expect(firstLine('@g = global i32 0, section "a\\\\b"\n', '2.0')).toBe('bad.ll:1:28: error: invalid character in section name');
  });

  it("reports a broken '...' as each parser did: 1.x at its first dot, r36867 at the token that is no dot", () => {
    expect(firstLine('declare void %f(int, ..)\n', '1.9')).toBe("bad.ll:1:22: error: expected '...'");
    expect(firstLine('declare void @f(i32, ..)\n', '2.0')).toBe("bad.ll:1:24: error: expected '.' ('...'), found ')'");
  });

  it('gives the messages both parsers worded alike in both dialects', () => {
    expect(firstLine('%t = type {int, void}\n', '1.9')).toBe('bad.ll:1:17: error: a structure member of type void');
    expect(firstLine('%t = type {i32, void}\n', '2.0')).toBe('bad.ll:1:17: error: a structure member of type void');
    expect(firstLine('%t = type [4 y int]\n', '1.9')).toBe("bad.ll:1:14: error: expected 'x' after the number of elements, found 'y'");
    expect(firstLine('%t = type [4 y i32]\n', '2.0')).toBe("bad.ll:1:14: error: expected 'x' after the number of elements, found 'y'");
    expect(firstLine('%t = type \\0\n', '1.9')).toBe('bad.ll:1:11: error: an up-reference level must be at least 1');
    expect(firstLine('%t = type \\0\n', '2.0')).toBe('bad.ll:1:11: error: an up-reference level must be at least 1');
  });

  it('refuses too many type nodes in each wording', () => {
    const limits = { maxTypeNodes: 3 };
    const count = (dialect: Dialect, text: string): string => {
      try {
        parseAssembly(text, { dialect, limits });
      } catch (e) {
        return (e as Error).message.split('\n')[0]!;
      }
      return 'no error';
    };
    expect(count('1.9', '%a = type {int, {int}, [2 x int], sbyte}\n')).toMatch(/error: more than 3 types$/);
    expect(count('2.0', '%a = type {i32, {i32}, [2 x i32], i8}\n')).toMatch(/error: more than the limit of 3 type nodes$/);
  });
});
