/**
 * A Function block holding only its linkage word (issue 18, item 2). From version 5 a
 * declaration is flagged in its function word and has no block, but LLVM's writer still gave
 * declarations a linkage-only block from 2004-10-16 (version 5) to 2004-11-15, and every reader
 * (LLVM 1.1 to 1.9) took such a block for a declaration. So do we, and the writer gives it back.
 */
import { describe, expect, it } from 'vitest';
import { analyzeBytes } from '../../src/analyze/index.js';
import { writeModule } from '../../src/encode/write.js';
import { formatFor } from '../../src/format/format-table.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { assemble, block, str, vbr } from '../support/assemble.js';

const FUNCTION_WORD_C = 13 * 32 + 1; // type slot 13 (void ()*), calling convention C, no flags
const RET_VOID = [0x05, 0x00, 0xf0, 0xff]; // format 1: opcode 1 (ret), type void, no operand

/**
 * `declare void %f()` written the 2004 way (no declaration flag, a block with linkage 0) and
 * `void %g() { ret void }`, as LLVM's writer of November 2004 laid a module out.
 */
function linkageOnlyModule(version: number): Uint8Array {
  return assemble([
    block(1, true, [
      vbr((version << 4) | 12), // no endianness, no pointer size
      block(6, false, [vbr(2), vbr(16), vbr(14), vbr(13), vbr(0), vbr(0)]), // void ()*, void ()
      block(5, false, [vbr(0), vbr(FUNCTION_WORD_C), vbr(FUNCTION_WORD_C), vbr(0), vbr(0), vbr(0)]),
      block(2, false, [vbr(0)]), // %f: the linkage and nothing else
      block(2, false, [vbr(0), block(7, false, RET_VOID)]), // %g
      block(4, false, [vbr(0), vbr(2), vbr(13), vbr(1), str('f'), vbr(2), str('g')]),
    ]),
  ]);
}

/** The same stream in an `llvc0` container, as LLVM wrote it from 2004-11-06. */
function asLlvc0(stream: Uint8Array): Uint8Array {
  return new Uint8Array([0x6c, 0x6c, 0x76, 0x63, 0x30, ...stream.subarray(4)]);
}

/** What LLVM 1.9's `llvm-dis` printed for both versions (checked with the real tool). */
const DIS = `; ModuleID = '<stdin>'

implementation   ; Functions:

declare void %f()

void %g() {
\tret void
}
`;

describe('a function block holding only its linkage', () => {
  it('is a declaration in every version, as every LLVM reader took it', () => {
    for (let v = 0; v <= 7; v++) expect(formatFor(v)!.emptyFunctionBodyIsDeclaration).toBe(true);
  });

  for (const version of [5, 6]) {
    describe(`in version ${version}`, () => {
      const bare = linkageOnlyModule(version);
      const file = asLlvc0(bare);

      it('reads as a declaration, recorded for the writer', () => {
        const m = readModule(file);
        const [f, g] = m.functions;
        expect(f!.isDeclaration).toBe(true);
        expect(f!.linkageOnlyBlock).toBe(true);
        expect(f!.linkage).toBe('external');
        expect(g!.isDeclaration).toBe(false);
        expect(g!.linkageOnlyBlock).toBeUndefined();
        // A 2004 writer ended ModuleGlobalInfo after the target triple (no sections, no asm).
        expect(m.globalInfoEnd).toBe('triple');
      });

      it('prints as LLVM 1.9 printed it, in both syntaxes', () => {
        const m = readModule(file);
        expect(printModule(m)).toBe(DIS);
        expect(printModule(m, { syntax: 'native' })).toBe(DIS);
      });

      it('writes back byte for byte, in either container', () => {
        expect(writeModule(readModule(file), { bytecodeVersion: version, compression: 'auto' })).toEqual(file);
        expect(writeModule(readModule(bare), { bytecodeVersion: version, compression: 'none' })).toEqual(bare);
      });

      it('is analyzed as one more function block', () => {
        const a = analyzeBytes(file);
        expect(a.counts.functions).toBe(2);
      });
    });
  }

  it('a ModuleGlobalInfo that ended after the triple grows only by what the module now holds', () => {
    const read = (): ReturnType<typeof readModule> => readModule(linkageOnlyModule(6));
    const withSection = read();
    withSection.functions[1]!.section = 'text.hot';
    const a = readModule(writeModule(withSection, { bytecodeVersion: 6, compression: 'none' }));
    expect(a.functions[1]!.section).toBe('text.hot');
    expect(a.globalInfoEnd).toBe('sections'); // section names, and still no inline asm field
    const withAsm = read();
    withAsm.inlineAsm = 'nop';
    const b = readModule(writeModule(withAsm, { bytecodeVersion: 6, compression: 'none' }));
    expect(b.inlineAsm).toBe('nop');
    expect(b.globalInfoEnd).toBeUndefined();
  });

  it('a flagged declaration still gets no block (the usual layout since 2004-11-15)', () => {
    const m = readModule(asLlvc0(linkageOnlyModule(6)));
    delete m.functions[0]!.linkageOnlyBlock;
    const written = writeModule(m, { bytecodeVersion: 6, compression: 'none' });
    expect(written.length).toBe(linkageOnlyModule(6).length - 4 /* block header */ - 1 /* linkage */);
    const back = readModule(written);
    expect(back.functions[0]!.isDeclaration).toBe(true);
    expect(back.functions[0]!.linkageOnlyBlock).toBeUndefined();
    expect(printModule(back)).toBe(DIS);
  });
});
