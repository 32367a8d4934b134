/** The printer's output buffer: text as one byte per character, numbers as digits, growth, taking. */
import { describe, expect, it } from 'vitest';
import { Latin1Pieces, Latin1Writer } from '../../src/binary/latin1-writer.js';

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

describe('Latin1Writer', () => {
  it('writes each character as one byte, latin1 included', () => {
    const w = new Latin1Writer();
    w.text('%a\u00e9\u00ff\t');
    w.byte(0x0a);
    expect([...w.take()]).toEqual([0x25, 0x61, 0xe9, 0xff, 0x09, 0x0a]);
  });

  it('writes integers in decimal, across the 32-bit boundary and negative', () => {
    const w = new Latin1Writer();
    for (const n of [0, 7, 10, 99, 100, 65535, 4294967295, 4294967296, Number.MAX_SAFE_INTEGER]) {
      w.uint(n);
      w.byte(0x20);
    }
    w.int(-12);
    w.int(0);
    expect(w.takeString()).toBe('0 7 10 99 100 65535 4294967295 4294967296 9007199254740991 -120');
  });

  it('grows past its first buffer and keeps everything written', () => {
    const w = new Latin1Writer(16);
    let expected = '';
    for (let k = 0; k < 5000; k++) {
      const piece = `line ${k}\t\u00e0\n`;
      w.text(piece);
      expected += piece;
    }
    w.bytes(new Uint8Array([0x41, 0xfe]));
    expected += 'A\u00fe';
    expect(w.length).toBe(expected.length);
    expect(w.takeString()).toBe(expected);
  });

  it('starts over after take, and decodes ASCII and latin1 text alike', () => {
    const w = new Latin1Writer();
    w.text('\u0080\u009f ok');
    expect(latin1(w.take())).toBe('\u0080\u009f ok');
    expect(w.length).toBe(0);
    w.text('plain');
    expect(w.takeString()).toBe('plain');
    w.text('x\u0085y');
    expect(w.takeString()).toBe('x\u0085y');
  });

  it('writes pieces made once, of every length, between other writes and across growth', () => {
    const base = new Latin1Pieces();
    const comma = base.add(', ');
    const pieces = new Latin1Pieces(base);
    const texts = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', '%x.\u00e9', '\t\t; <{ int, sbyte* }> [#uses=', 'y'.repeat(1000)];
    const at = texts.map((t) => pieces.add(t));
    const w = new Latin1Writer(16);
    let expected = '';
    for (let k = 0; k < 300; k++) {
      const i = k % texts.length;
      w.piece(pieces, at[i]!);
      w.piece(pieces, comma);
      w.byte(0x7c);
      expected += texts[i] + ', |';
    }
    expect(w.length).toBe(expected.length);
    expect(w.takeString()).toBe(expected);
    // A piece above 0x7F is decoded as latin1; after a take, ASCII again.
    w.piece(pieces, at[6]!);
    expect(w.takeString()).toBe('%x.\u00e9');
    w.piece(pieces, at[1]!);
    expect(w.takeString()).toBe('a');
  });

  it('writes a piece and a number in one call, and finds the piece added after another', () => {
    const pieces = new Latin1Pieces();
    const ref = pieces.add('%x');
    const def = pieces.add('\t%x = ');
    const comment = pieces.add('\t\t; <int>:');
    expect(pieces.next(ref)).toBe(def);
    const w = new Latin1Writer(16);
    let expected = '';
    for (const n of [0, 9, 10, 12345, 4294967295, 4294967296, Number.MAX_SAFE_INTEGER]) {
      w.pieceUint(pieces, comment, n);
      w.piece(pieces, def);
      expected += '\t\t; <int>:' + n + '\t%x = ';
    }
    expect(w.takeString()).toBe(expected);
  });

  it('writes again after release, and pieces made in released words start with their base', () => {
    const w = new Latin1Writer();
    w.text('dropped');
    w.release();
    w.text('kept');
    w.byte(0x21);
    expect(w.takeString()).toBe('kept!');
    const base = new Latin1Pieces();
    const fixed = base.add(' [#uses=');
    const first = new Latin1Pieces(base);
    for (let k = 0; k < 100; k++) first.add('name' + k);
    first.release();
    const second = new Latin1Pieces(base);
    const own = second.add('%x');
    w.piece(second, fixed);
    w.piece(second, own);
    expect(w.takeString()).toBe(' [#uses=%x');
  });
});
