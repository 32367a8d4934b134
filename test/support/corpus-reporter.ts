/**
 * A vitest reporter that ends the run by saying how many tests needed the reference corpus and
 * were skipped because it is absent, and how to provide it: on a fresh clone a quarter of the
 * tests skip, and the last lines of `npm test` are where a new user looks.
 *
 * It counts skipped tests tagged `corpus` (test/support/corpus.ts, NEEDS_CORPUS).
 */
import type { Reporter, TestModule } from 'vitest/node';
import { CORPUS_ENV, locateCorpus } from '../../src/tools/corpus-location.js';

export default class CorpusReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let needing = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        if (!test.tags.includes('corpus')) continue;
        needing++;
        if (test.result().state === 'skipped') skipped++;
      }
    }
    const location = locateCorpus();
    if (skipped > 0 && !location.present) {
      process.stdout.write(
        `\n${skipped} tests need the reference corpus and were skipped: it is not at ${location.root}.\n` +
          `Set ${CORPUS_ENV}=DIR or place it at ../shared/corpus beside the checkout (README, "Reference corpus").\n`,
      );
    } else if (needing > 0) {
      process.stdout.write(`\nReference corpus: ${location.root} (${needing} tests use it).\n`);
    }
  }
}
