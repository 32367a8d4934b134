import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { locateCorpus } from '../../tools/corpus-location.js';
import { CHROMIUM } from '../support/tools.js';

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
    // The same tags and skip summary as `npm test` (vitest.config.ts): Chromium and the corpus.
    tags: [
      { name: 'corpus', description: 'needs the reference corpus', skip: !locateCorpus().present },
      { name: CHROMIUM.tag, description: `needs Chromium (${CHROMIUM.env})`, skip: !CHROMIUM.present },
    ],
    reporters: ['default', './test/support/skip-reporter.ts'],
  },
});
