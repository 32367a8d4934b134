import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:web`: the browser test of the web page, kept out of the default `vitest run`
 * (it builds the page and drives Chromium, about a minute).
 */
export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    include: ['test/web/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // One browser, one page, in order: the tests share them.
    fileParallelism: false,
    sequence: { concurrent: false },
  },
});
