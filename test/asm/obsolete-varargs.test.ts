/**
 * Pre-1.6 variable arguments in text assembled as LLVM 1.9 (`--dialect 1.9`): rewritten as LLVM
 * 1.6–1.9's parser rewrote them (src/asm/obsolete-varargs.ts), byte for byte what LLVM 1.9's
 * `llvm-as` wrote when its binary is at hand, and to the shape LLVM gave them in any case.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/asm/index.js';
import { writeModule } from '../../src/encode/write.js';
import { printModule } from '../../src/print/index.js';
import { CORPUS_PRESENT, CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';
import { LLVM19, needs } from '../support/tools.js';

const HEADER = 'implementation\ndeclare sbyte* %llvm.va_start()\ndeclare sbyte* %llvm.va_copy(sbyte*)\ndeclare void %llvm.va_end(sbyte*)\n';

/** Texts that exercise the order of the rewrite and the naming, each checked against llvm-as. */
const TEXTS: Record<string, string> = {
  'text calls, newest first': `${HEADER}int %test(int %X, ...) {
	%ap = call sbyte* %llvm.va_start( )
	%a1 = call sbyte* %llvm.va_copy( sbyte* %ap )
	%a2 = call sbyte* %llvm.va_copy( sbyte* %ap )
	call void %llvm.va_end( sbyte* %a1 )
	call void %llvm.va_end( sbyte* %a2 )
	ret int 0
}
`,
  'parser-made calls after the text calls': `implementation
declare sbyte* %llvm.va_copy(sbyte*)
int %test(sbyte* %ap) {
	%a1 = call sbyte* %llvm.va_copy( sbyte* %ap )
	%t1 = vaarg sbyte* %ap, int
	%a2 = call sbyte* %llvm.va_copy( sbyte* %ap )
	%t2 = vanext sbyte* %ap, int
	ret int %t1
}
`,
  'names made unique while parsing, then after': `implementation
int %f1(sbyte* %ap) {
	%t1 = vaarg sbyte* %ap, int
	%t2 = vanext sbyte* %ap, int
	%t3 = vaarg sbyte* %ap, int
	ret int %t3
}
int %f2(sbyte* %ap) {
	%t = vaarg sbyte* %ap, double
	ret int 0
}
`,
  // The rewrite gathers its insertions and replacements and makes them at the end of each old
  // intrinsic (src/asm/block-edits.ts): hundreds of calls in one block, and a copy of a copy
  // whose definition comes later in the text, must come out as LLVM's one-at-a-time rewrite.
  'hundreds of calls in one block': `${HEADER}int %many(sbyte* %ap0, ...) {
${Array.from(
  { length: 150 },
  (_, i) => `	%s${i} = call sbyte* %llvm.va_start( )
	%c${i} = call sbyte* %llvm.va_copy( sbyte* ${i === 0 ? '%s0' : `%c${i - 1}`} )
	call void %llvm.va_end( sbyte* %s${i} )
`,
).join('')}	ret int 0
}
int %more(sbyte* %ap) {
${Array.from(
  { length: 150 },
  (_, i) => `	%v${i} = vaarg sbyte* %ap, int
	%n${i} = vanext sbyte* %ap, int
`,
).join('')}	ret int %v149
}
`,
  'a copy of a copy defined later in the text': `${HEADER}void %f(...) {
e:
	%s = call sbyte* %llvm.va_start( )
	br label %b2
b1:
	%x = call sbyte* %llvm.va_copy( sbyte* %a )
	call void %llvm.va_end( sbyte* %x )
	ret void
b2:
	%a = call sbyte* %llvm.va_copy( sbyte* %s )
	br label %b1
}
`,
};

const assemble19 = (text: string): Uint8Array => writeModule(parseAssembly(text, { dialect: '1.9' }), { bytecodeVersion: 6 });

describe('old varargs in 1.9 text: the bytes LLVM 1.9 wrote', needs(LLVM19), () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    it(name, () => {
      const theirs = execFileSync(LLVM19.path('llvm-as'), ['-f', '-o', '-'], { input: text, stdio: ['pipe', 'pipe', 'ignore'] });
      expect(Buffer.from(assemble19(text)).equals(theirs)).toBe(true);
    });
  }
});

describe.skipIf(!CORPUS_PRESENT)('old varargs in the corpus: 1.1 and 1.3 listings assembled as 1.9 give the 1.9 file', NEEDS_CORPUS, () => {
  for (const file of ['Feature__varargs', 'CodeGen__CBackend__2003-10-23-ZeroArgVarargs']) {
    for (const folder of ['v1', 'v3']) {
      it(`${folder}/${file}.dis.ll → v6/${file}.bc`, () => {
        const text = readFileSync(join(CORPUS_ROOT, folder, `${file}.dis.ll`), 'latin1');
        const v6 = readFileSync(join(CORPUS_ROOT, 'v6', `${file}.bc`));
        expect(Buffer.from(assemble19(text)).equals(v6)).toBe(true);
      });
    }
  }
});

describe('old varargs in 1.9 text: what the rewrite makes', () => {
  it('va_start, va_copy and va_end become their pointer forms, declared at the end, the old ones gone', () => {
    const listing = printModule(parseAssembly(TEXTS['text calls, newest first']!, { dialect: '1.9' }));
    expect(listing).toContain('%vastart.fix.1 = alloca sbyte*');
    expect(listing).toContain('call void %llvm.va_start( sbyte** %vastart.fix.1 )');
    expect(listing).toContain('%vacopy.fix.3 = load sbyte** %vacopy.fix.1');
    // The second copy (and end) was rewritten first, so the first one's names took the counter.
    expect(listing).toContain('%vaend.fix.11 = alloca sbyte*');
    expect(listing).toContain('%vacopy.fix.12 = alloca sbyte*');
    expect(listing).not.toMatch(/sbyte\* %llvm\.va_(start|copy)\(/);
    expect(listing.trimEnd().split('\n').slice(-5).join('\n')).toBe(
      'declare void %llvm.va_start(sbyte**)\n\ndeclare void %llvm.va_end(sbyte**)\n\ndeclare void %llvm.va_copy(sbyte**, sbyte**)',
    );
  });

  it('vaarg becomes an alloca, a copy, a store and va_arg; vanext a load after them', () => {
    const listing = printModule(parseAssembly(TEXTS['names made unique while parsing, then after']!, { dialect: '1.9' }));
    expect(listing).toContain('%t1 = va_arg sbyte** %vaarg.fix, int');
    expect(listing).toContain('%t2 = load sbyte** %vanext.fix');
    expect(listing).toContain('%vaarg.fix1 = alloca sbyte*');
    expect(listing).toContain('%t = va_arg sbyte** %vaarg.fix, double');
  });

  it('1.1–1.3 text keeps the old instructions as written', () => {
    const module = parseAssembly(TEXTS['names made unique while parsing, then after']!, { dialect: '1.3' });
    expect(module.functions.map((f) => f.name)).toEqual(['f1', 'f2']);
    expect(module.functions[0]!.blocks[0]!.instructions.map((i) => i.opcode)).toEqual(['vaarg', 'vanext', 'vaarg', 'ret']);
  });

  it('refuses old and new varargs in one text, as LLVM did', () => {
    const text = `implementation
int %f(sbyte* %ap, sbyte** %p) {
	%a = vaarg sbyte* %ap, int
	%b = va_arg sbyte** %p, int
	ret int %b
}
`;
    expect(() => parseAssembly(text, { dialect: '1.9' })).toThrow(/both the old .* and the new variable-argument instructions/);
  });

  it('refuses an old intrinsic used other than by a call (LLVM crashed)', () => {
    const text = `declare sbyte* %llvm.va_start()
%p = global sbyte* ()* %llvm.va_start
implementation
int %f(int %X, ...) {
	%ap = call sbyte* %llvm.va_start( )
	ret int 0
}
`;
    expect(() => parseAssembly(text, { dialect: '1.9' })).toThrow(/used in the initializer of %p/);
  });

  // LLVM made the pointer to the va_list type before it looked at any call, and PointerType::get
  // asserted on void and label: llvm-as crashed, with or without calls. Ours once made the pointer
  // anyway, and the writer then failed on the alloca of void with an untyped error.
  const noPointer: Record<string, string> = {
    'va_start returning void, called': 'declare void %llvm.va_start()\nimplementation\nvoid %f(...) {\n\tcall void %llvm.va_start()\n\tret void\n}\n',
    'va_start returning void, never called': 'declare void %llvm.va_start()\nimplementation\n',
    'va_start returning label': 'declare label %llvm.va_start()\nimplementation\n',
    'va_copy returning void': 'declare void %llvm.va_copy(int)\nimplementation\n',
    'va_end taking a label, beside an old va_start': 'declare sbyte* %llvm.va_start()\ndeclare void %llvm.va_end(label)\nimplementation\n',
  };
  for (const [name, text] of Object.entries(noPointer)) {
    it(`refuses an old intrinsic whose va_list is void or label (LLVM crashed): ${name}`, () => {
      expect(() => parseAssembly(text, { dialect: '1.9' })).toThrow(/has a va_list of type (void|label), which nothing can point to/);
    });
  }

  it("those texts crashed LLVM 1.9's llvm-as on its assertion", needs(LLVM19), () => {
    for (const text of Object.values(noPointer)) {
      let stderr = '';
      try {
        execFileSync(LLVM19.path('llvm-as'), ['-o', '/dev/null', '-f'], { input: text, stdio: 'pipe' });
      } catch (e) {
        stderr = String((e as { stderr?: Buffer }).stderr);
      }
      expect(stderr).toMatch(/Pointer to (void|label) is not valid/);
    }
  });

  it('a va_end taking a label is left alone where nothing is old (LLVM accepted it)', () => {
    expect(parseAssembly('declare void %llvm.va_end(label)\nimplementation\n', { dialect: '1.9' }).functions.map((f) => f.name)).toEqual(['llvm.va_end']);
  });
});
