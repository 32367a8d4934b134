/**
 * A vitest reporter that ends the run by counting the skipped tests by cause (the reference
 * corpus, LLVM 1.9's tools, r36867's, Debian's LLVM N, Chromium) and saying how to provide each:
 * on a fresh clone a quarter of the tests skip, and the last lines of `npm test` are where a new
 * user looks. With `CI=true`, a test that needs something present and skipped anyway fails the run
 * (test/support/skip-summary.ts decides; the tags are in test/support/corpus.ts and tools.ts).
 */
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { CORPUS_ENV, locateCorpus } from '../../tools/corpus-location.js';
import { allToolSets } from './tools.js';
import { isCi, summarizeSkips, type SkipCause, type TestOutcome } from './skip-summary.js';

/** The causes, in the order the summary lists them. */
export function skipCauses(): SkipCause[] {
  const corpus = locateCorpus();
  return [
    {
      tag: 'corpus',
      title: 'the reference corpus',
      where: corpus.root,
      present: corpus.present,
      howTo: `Set ${CORPUS_ENV}=DIR or place it at ../shared/corpus beside the checkout (README, "Reference corpus")`,
    },
    ...allToolSets().map((s) => ({ tag: s.tag, title: s.title, where: s.dir, present: s.present, howTo: s.howToGet })),
  ];
}

export default class SkipReporter implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest): void {
    const config = vitest.config;
    this.filtered = config.testNamePattern !== undefined || (config.tagsFilter?.length ?? 0) > 0;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const tests: TestOutcome[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) tests.push({ name: test.fullName, tags: test.tags, state: test.result().state });
    }
    const summary = summarizeSkips(tests, skipCauses(), { ci: isCi(), filtered: this.filtered });
    if (summary.lines.length > 0) process.stdout.write(`\n${summary.lines.join('\n')}\n`);
    if (summary.failures.length > 0) process.exitCode = 1;
  }
}
