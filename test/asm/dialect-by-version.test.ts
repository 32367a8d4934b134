/**
 * Which release reads a text when nobody names its dialect but a bytecode version is asked for:
 * the one whose llvm-as wrote that version (`dialectForVersion`), unless the text's own words say
 * it is a later release's, or uses what that release had dropped.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { dialectForVersion, parseAssembly } from '../../src/asm/index.js';
import { run } from '../../src/cli/run.js';
import { memoryIo } from '../cli/memory-io.js';
import { LLVM19, needs } from '../support/tools.js';

/** Pre-1.6 variable arguments and a type-generic `llvm.memmove`: a 1.3 text, which it does not say. */
const OLD_VARARGS = `declare sbyte* %llvm.va_start()
declare void %llvm.va_end(sbyte*)
declare void %llvm.memmove(sbyte*, sbyte*, uint, uint)
implementation
int %sum(int %n, ...) {
	%ap = call sbyte* %llvm.va_start()
	%v = vaarg sbyte* %ap, int
	%ap2 = vanext sbyte* %ap, int
	call void %llvm.va_end(sbyte* %ap2)
	call void %llvm.memmove(sbyte* %ap, sbyte* %ap2, uint 4, uint 1)
	ret int %v
}
`;
/** Nothing in it says which release's it is. */
const MEMMOVE =
  'declare void %llvm.memmove(sbyte*, sbyte*, uint, uint)\nimplementation\nvoid %f(sbyte* %a) {\n  call void %llvm.memmove(sbyte* %a, sbyte* %a, uint 4, uint 1)\n  ret void\n}\n';

const assembleCli = async (text: string, args: string[]): Promise<Uint8Array> => {
  const io = memoryIo({ 'in.ll': Buffer.from(text, 'latin1') });
  expect(await run(['as', 'in.ll', '-o', 'out.bc', ...args], io)).toBe(0);
  return io.files.get('out.bc')!;
};

describe('the dialect of a text without one, from the version it is to become', () => {
  it("is the release that wrote that version, where the text doesn't say", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((v) => dialectForVersion(MEMMOVE, v))).toEqual(['1.1', '1.2', '1.2', '1.3', '1.3', '1.8', '1.9']);
  });

  it('is that release too for older text that it read and upgraded (1.3 varargs at version 5 or 6)', () => {
    expect(dialectForVersion(OLD_VARARGS, 3)).toBe('1.3');
    expect(dialectForVersion(OLD_VARARGS, 6)).toBe('1.9');
    expect(dialectForVersion(OLD_VARARGS, 5)).toBe('1.8');
  });

  it("is the text's own where it says it is a later release's, or uses what the release dropped", () => {
    expect(dialectForVersion('%a = global int sdiv (int 4, int 2)\n', 3)).toBe('1.9');
    expect(dialectForVersion('%X = const int 0\n', 6)).toBe('1.2');
    expect(dialectForVersion('%X = const int 0\n', 0)).toBe('1.1');
  });

  it("keeps a 1.3 text's llvm.memmove at version 3 (LLVM 1.3 renamed nothing) and renames it at version 6", async () => {
    const names = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
    expect(names(await assembleCli(MEMMOVE, ['--bytecode-version', '3']))).not.toContain('memmove.i32');
    expect(names(await assembleCli(MEMMOVE, ['--bytecode-version', '6']))).toContain('memmove.i32');
    expect(parseAssembly(MEMMOVE, { dialect: '1.3' }).functions.map((f) => f.name)).toEqual(['llvm.memmove', 'f']);
  });
});

describe.skipIf(!LLVM19.present)("a 1.3 text given to version 6: what LLVM 1.9's llvm-as made of it", needs(LLVM19), () => {
  // Compared through llvm-dis: the module symbol table's planes follow heap addresses in LLVM
  // (docs/assembler.md), and here the declarations' planes came out in another order.
  const dis = (bytes: Uint8Array): string => execFileSync(LLVM19.path('llvm-dis'), [], { input: bytes }).toString('latin1');
  it('old varargs rewritten and llvm.memmove renamed: the module LLVM 1.9 made', async () => {
    const theirs = execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: OLD_VARARGS, stdio: ['pipe', 'pipe', 'ignore'] });
    const ours = await assembleCli(OLD_VARARGS, ['--bytecode-version', '6']);
    expect(ours.length).toBe(theirs.length);
    expect(dis(ours)).toBe(dis(theirs));
  });
});
