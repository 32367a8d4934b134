/**
 * Our bitcode against Debian's LLVM, on a sample of the corpus (the whole corpus is `npm run
 * upgrade-scoreboard -- --emit bitcode`): for LLVM 13, 14, 16, 19 and 22, the bitcode
 * `writeModern` writes for that release is read by its `llvm-dis`, passes its `opt
 * -passes=verify`, and disassembles to exactly what `llvm-dis` makes of `llvm-as` of the text
 * `printModern` writes (modulo the numbering of attribute groups). The typed-pointer bitcode
 * written for LLVM 13 is read and verified by 14, 16, 19 and 22 too (they turn its pointers
 * opaque). The opaque bitcode written for LLVM 15 on is read by LLVM 14 behind
 * `-opaque-pointers` and not at all by LLVM 13 (docs/upgrade.md, "Bitcode"). Each release's tests
 * skip, saying which, without it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { printModern, writeModern } from '../../../src/modern/index.js';
import { readModule } from '../../../src/read.js';
import { sameDisassembly } from '../../../tools/upgrade-scoreboard-compare.js';
import { CORPUS_PRESENT, corpusFiles, NEEDS_CORPUS, readCorpusFile } from '../../support/corpus.js';
import { debianLlvm, needs } from '../../support/tools.js';

const work = mkdtempSync(join(tmpdir(), 'llvm-bytecode-bitcode-oracle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Files with the constructs each record kind serves, then every 300th file of each version. */
const CHOSEN: readonly [string, string][] = [
  ['v0', 'Feature__testswitch.bc'], // switch
  ['v0', 'Feature__varargs.bc'], // va_arg, varargs calls
  ['v3', 'Feature__properties.bc'], // !llvm.dependent-libraries metadata
  ['v3', 'CodeGen__Generic__GC__alloc_loop.bc'], // gc "shadow-stack"
  ['v5', 'Assembler__2006-05-26-VarargsCallEncode.bc'], // sret(T) type attribute
  ['v5', 'CodeGen__PowerPC__vec_perf_shuffle.bc'], // vectors, shufflevector
  ['v5', 'Feature__alignment.bc'], // align on globals, functions, allocas
  ['v5', 'Feature__global_section.bc'], // sections
  ['v5', 'Transforms__InstCombine__add.bc'], // the most negative i64
  ['v7', 'CodeGen__ARM__tls1.bc'], // thread_local
  ['v7', 'CodeGen__PowerPC__2007-04-30-InlineAsmEarlyClobber.bc'], // inline asm, elementtype(T)
  ['v7', 'CodeGen__X86__i128-mul.bc'], // wide integers
  ['v7', 'Feature__llvm2cpp.bc'], // a bit of everything
  ['v7', 'Transforms__Inline__2007-04-15-InlineEH.bc'], // invoke, landingpad, personality
];

function sample(): [string, string][] {
  const out = [...CHOSEN];
  for (const folder of ['v0', 'v1', 'v3', 'v5', 'v6', 'v7']) corpusFiles(folder).forEach((n, i) => i % 300 === 150 && out.push([folder, n]));
  return out;
}

function tool(n: number, name: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync(debianLlvm(n).path(name), args, { encoding: 'latin1', timeout: 60_000, maxBuffer: 64 << 20 });
  return { ok: r.status === 0, out: (r.stdout ?? '') + (r.stderr ?? '') };
}

for (const n of [13, 14, 16, 19, 22] as const) {
  const llvm = debianLlvm(n);
  describe.skipIf(!llvm.present || !CORPUS_PRESENT)(`LLVM ${n} reads the bitcode written for it`, needs(llvm, NEEDS_CORPUS), () => {
    it(
      `llvm-dis-${n} and opt-${n} -passes=verify take it, and llvm-dis of it is llvm-dis of llvm-as-${n} of the text`,
      () => {
        const problems: string[] = [];
        for (const [folder, name] of sample()) {
          const module = readModule(readCorpusFile(folder, name));
          const base = join(work, `${n}-${folder}-${name}`);
          writeFileSync(`${base}.ll`, printModern(module, { llvm: n }));
          writeFileSync(`${base}.bc`, writeModern(module, { llvm: n }));
          const ours = tool(n, 'llvm-dis', [`${base}.bc`, '-o', '-']);
          if (!ours.ok) {
            problems.push(`${folder}/${name}: llvm-dis: ${ours.out.slice(0, 300)}`);
            continue;
          }
          const verify = tool(n, 'opt', ['-passes=verify', '-disable-output', `${base}.bc`]);
          if (!verify.ok) problems.push(`${folder}/${name}: opt: ${verify.out.slice(0, 300)}`);
          const assembled = tool(n, 'llvm-as', [`${base}.ll`, '-o', `${base}.ref.bc`]);
          if (!assembled.ok) {
            problems.push(`${folder}/${name}: llvm-as of the text: ${assembled.out.slice(0, 300)}`);
            continue;
          }
          const why = sameDisassembly(ours.out, tool(n, 'llvm-dis', [`${base}.ref.bc`, '-o', '-']).out);
          if (why !== undefined) problems.push(`${folder}/${name}: ${why}`);
        }
        expect(problems).toEqual([]);
      },
      15 * 60_000,
    );
  });
}

const LLVM13 = debianLlvm(13);
for (const reader of [14, 16, 19, 22] as const) {
  const llvm = debianLlvm(reader);
  describe.skipIf(!llvm.present || !LLVM13.present || !CORPUS_PRESENT)(
    `LLVM ${reader} reads the typed-pointer bitcode written for LLVM 13`,
    needs(llvm, LLVM13, NEEDS_CORPUS),
    () => {
      it(
        `llvm-dis-${reader} and opt-${reader} -passes=verify take it`,
        () => {
          const problems: string[] = [];
          for (const [folder, name] of sample()) {
            const bc = join(work, `13for${reader}-${folder}-${name}.bc`);
            writeFileSync(bc, writeModern(readModule(readCorpusFile(folder, name)), { llvm: 13 }));
            const dis = tool(reader, 'llvm-dis', [bc, '-o', '/dev/null']);
            if (!dis.ok) problems.push(`${folder}/${name}: llvm-dis: ${dis.out.slice(0, 300)}`);
            const verify = tool(reader, 'opt', ['-passes=verify', '-disable-output', bc]);
            if (!verify.ok) problems.push(`${folder}/${name}: opt: ${verify.out.slice(0, 300)}`);
          }
          expect(problems).toEqual([]);
        },
        15 * 60_000,
      );
    },
  );
}

const LLVM14 = debianLlvm(14);
describe.skipIf(!LLVM14.present || !CORPUS_PRESENT)('LLVM 14 reads it only behind -opaque-pointers', needs(LLVM14, NEEDS_CORPUS), () => {
  it(
    'llvm-dis-14 and opt-14 -opaque-pointers take the bitcode written for LLVM 15; without the flag llvm-dis-14 says why not',
    () => {
      const problems: string[] = [];
      for (const [folder, name] of CHOSEN) {
        const bc = join(work, `14-${folder}-${name}.bc`);
        writeFileSync(bc, writeModern(readModule(readCorpusFile(folder, name)), { llvm: 15 }));
        const dis = tool(14, 'llvm-dis', ['-opaque-pointers', bc, '-o', '/dev/null']);
        if (!dis.ok) problems.push(`${folder}/${name}: llvm-dis: ${dis.out.slice(0, 300)}`);
        const verify = tool(14, 'opt', ['-opaque-pointers', '-passes=verify', '-disable-output', bc]);
        if (!verify.ok) problems.push(`${folder}/${name}: opt: ${verify.out.slice(0, 300)}`);
      }
      expect(problems).toEqual([]);
      // (A module without a pointer type, like Feature__testswitch's, it reads either way.)
      const plain = tool(14, 'llvm-dis', [join(work, '14-v5-Assembler__2006-05-26-VarargsCallEncode.bc.bc'), '-o', '/dev/null']);
      expect(plain).toMatchObject({ ok: false, out: expect.stringMatching(/Opaque pointers are only supported in -opaque-pointers mode/) });
    },
    10 * 60_000,
  );
});

describe.skipIf(!LLVM13.present)('LLVM 13 does not read it', needs(LLVM13), () => {
  it('llvm-dis-13 refuses the opaque bitcode of corpus/hello.bc (it predates opaque pointer types)', () => {
    const bc = join(work, '13-hello.bc');
    writeFileSync(bc, writeModern(readModule(new Uint8Array(readFileSync(new URL('../../../corpus/hello.bc', import.meta.url))))));
    expect(tool(13, 'llvm-dis', [bc, '-o', '/dev/null']).ok).toBe(false);
  });
});
