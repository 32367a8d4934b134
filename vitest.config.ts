import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Corpus-wide tests read thousands of files; give them room on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
