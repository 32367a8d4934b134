import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Corpus-wide tests read thousands of files; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Tests that need the reference corpus carry this tag (test/support/corpus.ts); the corpus
    // reporter counts the ones that skipped and says how to provide it, in the run's last lines.
    tags: [{ name: 'corpus', description: 'needs the reference corpus (LLVM_BYTECODE_CORPUS or ../shared/corpus)' }],
    reporters: ['default', './test/support/corpus-reporter.ts'],
  },
});
