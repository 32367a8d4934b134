/**
 * Old intrinsics in 1.8/1.9 text (`llvm.ctpop`, `llvm.memcpy` with a `uint` length, …) renamed as
 * LLVM 1.7–1.9's parser renamed them when it finished a module (src/asm/intrinsic-upgrade.ts):
 * byte for byte what LLVM 1.9's `llvm-as` wrote, when its binary is at hand, and in any case in
 * one pass over the module however many calls there are.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import { printModule } from '../../src/print/index.js';
import { LLVM19, needs } from '../support/tools.js';

const TEXTS: Record<string, string> = {
  'a chain of calls, each of the one before': `declare int %llvm.ctpop(int)
implementation
int %f(int %x) {
${Array.from({ length: 300 }, (_, i) => `	%y${i} = call int %llvm.ctpop( int ${i === 0 ? '%x' : `%y${i - 1}`} )\n`).join('')}	ret int %y299
}
`,
  'hundreds of calls whose arguments are cast': `declare void %llvm.memcpy(sbyte*, sbyte*, uint, uint)
implementation
void %f(sbyte* %p, uint %n) {
${'	call void %llvm.memcpy( sbyte* %p, sbyte* %p, uint %n, uint 1 )\n'.repeat(300)}	ret void
}
`,
  // LLVM rewrote the later call in the text first; the earlier one, in a block that runs after it,
  // then took its value, by then undef (the new memcpy returns void), and folded the cast of it.
  'a value used before its definition in the text, replaced by undef': `declare int %llvm.memcpy(sbyte*, sbyte*, int, uint)
implementation
int %f(sbyte* %p) {
e:
	br label %b2
b1:
	%x = call int %llvm.memcpy( sbyte* %p, sbyte* %p, int %a, uint 1 )
	ret int %x
b2:
	%a = call int %llvm.memcpy( sbyte* %p, sbyte* %p, int 1, uint 1 )
	br label %b1
}
`,
};

describe('old intrinsics in 1.9 text: what the renaming makes', () => {
  it('a value used before its definition sees the replacement made first: a constant, folded', () => {
    const listing = printModule(parseAssembly(TEXTS['a value used before its definition in the text, replaced by undef']!));
    expect(listing).toContain('call void %llvm.memcpy.i32( sbyte* %p, sbyte* %p, uint undef, uint 1 )');
    expect(listing).toContain('ret int undef');
    expect(listing).not.toContain('autoupgrade_cast');
  });

  it('every call of a chain is renamed, and the old declaration is gone', () => {
    const m = parseAssembly(TEXTS['a chain of calls, each of the one before']!);
    const calls = m.functions.find((fn) => fn.name === 'f')!.blocks[0]!.instructions.filter((i) => i.opcode === 'call');
    expect(calls).toHaveLength(300);
    expect(calls.every((c) => (c.operands[0] as { name?: string }).name === 'llvm.ctpop.i32')).toBe(true);
    expect(m.functions.map((fn) => fn.name)).toEqual(['f', 'llvm.ctpop.i32']);
  });
});

describe('old intrinsics in 1.9 text: the bytes LLVM 1.9 wrote', needs(LLVM19), () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    it(name, () => {
      const theirs = execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: text, stdio: ['pipe', 'pipe', 'ignore'] });
      expect(Buffer.from(writeModule(parseAssembly(text, { dialect: '1.9' }), { bytecodeVersion: 6 })).equals(theirs)).toBe(true);
    });
  }
});
