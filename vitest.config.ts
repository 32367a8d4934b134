import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Corpus-wide tests read thousands of files; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Tests that need the reference corpus carry this tag (test/support/corpus.ts); the corpus
    // reporter counts the ones that skipped and says how to provide it, in the run's last lines.
    // Tests that need an outside tool set carry its tag (test/support/tools.ts).
    tags: [
      { name: 'corpus', description: 'needs the reference corpus (LLVM_BYTECODE_CORPUS or ../shared/corpus)' },
      { name: 'llvm19', description: "needs LLVM 1.9's tools (LLVM_BYTECODE_LLVM19 or ../shared/llvm-1.9/bin)" },
      { name: 'r36867', description: "needs LLVM r36867's tools (LLVM_BYTECODE_R36867 or ../shared/llvm-2.0-dev/bin)" },
      ...[13, 14, 15, 16, 19, 22].map((n) => ({ name: `debian-llvm${n}`, description: `needs Debian's LLVM ${n} (LLVM_BYTECODE_DEBIAN_LLVM${n} or /usr/lib/llvm-${n}/bin)` })),
      { name: 'chromium', description: 'needs Chromium (the web page test)' },
    ],
    reporters: ['default', './test/support/corpus-reporter.ts'],
  },
});
