import { defineConfig } from 'vitest/config';
import { locateCorpus } from './tools/corpus-location.js';
import { allToolSets } from './test/support/tools.js';

const corpus = locateCorpus();

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every fast-check property runs with one fixed seed (LLVM_BYTECODE_SEED to choose another).
    setupFiles: ['./test/support/property-seed.ts'],
    // Corpus-wide tests read thousands of files; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A test that needs the reference corpus (test/support/corpus.ts, NEEDS_CORPUS) or an outside
    // tool set (test/support/tools.ts, needs(...)) carries its tag, and the tag skips it when that
    // is absent: no test switches an oracle off with an `if`. The skip reporter ends the run by
    // counting the skips by cause and saying how to provide each; with CI=true a tagged test that
    // skipped although what it needs is present fails the run.
    tags: [
      { name: 'corpus', description: 'needs the reference corpus (LLVM_BYTECODE_CORPUS or ../shared/corpus)', skip: !corpus.present },
      ...allToolSets().map((s) => ({ name: s.tag, description: `needs ${s.title} (${s.env}, here ${s.dir})`, skip: !s.present })),
    ],
    reporters: ['default', './test/support/skip-reporter.ts'],
  },
});
