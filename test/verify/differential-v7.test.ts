/**
 * The version-7 verifier against r36867 itself, a handful of cases (`npm run fuzz:verify7` runs
 * thousands): corpus modules mutated at the graph level, one mutation each, printed as LLVM 2.0
 * text and given to r36867's `llvm-as`, which parses and verifies. Ours must refuse a module
 * exactly when it does. Every mutation of the catalogue gets one case, and hand-built modules
 * pin the rules whose verdict is least obvious (r36867's suffix for an overloaded intrinsic).
 */
import { describe, expect, it } from 'vitest';
import type { Module } from '../../src/graph/module.js';
import { integerType } from '../../src/graph/type.js';
import { printModule } from '../../src/print/index.js';
import { readModule } from '../../src/read.js';
import { llvmAsVerdict, runCase } from '../../tools/fuzz-verify7.js';
import { seededRandom } from '../../tools/seeded-random.js';
import { MUTATIONS } from '../../tools/verify7-mutations.js';
import { verifyModule } from '../../src/verify/verify.js';
import { block, emptyModule, fnType, func, inst, P } from '../encode/helpers.js';
import { CORPUS_PRESENT, NEEDS_CORPUS, readCorpusFile } from '../support/corpus.js';
import { needs, R36867 } from '../support/tools.js';

/** Small corpus modules with calls, invokes, phis, casts, comparisons, switches and vectors between them. */
const SEEDS = [
  'Transforms__SCCP__apint-basictest2.bc',
  'Transforms__ADCE__2003-09-10-UnwindInstFail.bc',
  'Transforms__LoopRotate__LRCrash-4.bc',
  'Other__2004-08-16-PackedSelect.bc',
  'CodeGen__X86__2007-03-16-InlineAsm.bc',
  'Transforms__InstCombine__2007-04-08-SingleEltVectorCrash.bc',
  'CodeGen__ARM__2007-03-21-JoinIntervalsCrash.bc',
  'CodeGen__Generic__switch-crit-edge-constant.bc',
  'CodeGen__Generic__print-shift.bc',
  'CodeGen__Generic__2007-02-25-invoke.bc',
  'Transforms__SCCP__2004-11-16-DeadInvoke.bc',
  'Transforms__InstCombine__cast.bc',
];

const llvmAs = R36867.path('llvm-as');

describe.skipIf(!R36867.present || !CORPUS_PRESENT)('the version-7 verifier agrees with r36867’s llvm-as', needs(R36867, NEEDS_CORPUS), () => {
  it.each(MUTATIONS.map((m) => [m.name, m] as const))('after a mutation: %s', (_name, mutation) => {
    // The first applicable case over the seeds, with a fixed random sequence.
    const random = seededRandom(36867);
    for (let attempt = 0; attempt < 120; attempt++) {
      const seed = SEEDS[attempt % SEEDS.length]!;
      let module: Module;
      try {
        module = readModule(readCorpusFile('v7', seed));
      } catch {
        continue; // (a seed missing from this corpus)
      }
      const r = runCase(module, mutation, random, llvmAs);
      if (r.kind === 'skipped') continue;
      const ours = r.ours.length > 0 ? `refused: ${r.ours[0]}` : 'accepted';
      const theirs = r.llvm.refused ? `refused: ${r.llvm.message}` : 'accepted';
      expect(`${ours.startsWith('refused') ? 'refused' : 'accepted'} (${r.what})`, `ours ${ours}\nr36867 ${theirs}`).toBe(
        `${r.llvm.refused ? 'refused' : 'accepted'} (${r.what})`,
      );
      return;
    }
    expect.fail(`no seed module gave mutation ${mutation.name} a case: add a seed that has what it changes`);
  });

  it('names an overloaded intrinsic as r36867 did: every integer of the prototype, the result’s too', () => {
    for (const [name, refused] of [
      ['llvm.bswap.i16.i16', false],
      ['llvm.bswap.i16', true],
      ['llvm.ctpop.i8', false],
    ] as const) {
      const m = emptyModule();
      m.dataLayout = '';
      const width = name.startsWith('llvm.ctpop') ? 8 : 16;
      const ret = name.startsWith('llvm.ctpop') ? integerType(32) : integerType(16);
      const callee = func(fnType(ret, [integerType(width)]), name);
      const f = func(fnType(P.void, []), 'f', [
        block([inst('call', ret, [callee, { kind: 'int', type: integerType(width), value: 1n }], { name: 'r' }), inst('ret', P.void, [])], 'entry'),
      ]);
      m.functions.push(callee, f);
      expect(verifyModule(m, { bytecodeVersion: 7 }).length > 0).toBe(refused);
      expect(llvmAsVerdict(llvmAs, printModule(m)).refused).toBe(refused);
    }
  });
});
