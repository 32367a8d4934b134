/**
 * What the end of `npm test` says about skipped tests, and whether they fail the run: a pure
 * function of the tests' tags and states, so that it is tested on its own
 * (test/support/skip-summary.test.ts); test/support/skip-reporter.ts feeds it the real run.
 *
 * - Every skipped test that needs something absent (its tag names a cause: the reference corpus,
 *   LLVM 1.9's tools, r36867's, Debian's LLVM N, Chromium) is counted under that cause, and each
 *   cause says how to provide it. A test needing two absent things counts under both.
 * - A test tagged with a cause that is present, and skipped anyway, is listed: its skip condition
 *   is wrong (a stale path, a tool looked for by another rule). With `CI=true` that fails the run,
 *   so that an oracle cannot switch itself off on the machine that has it. Not when the run was
 *   filtered by name or tag (`-t`, `--tags-filter`): then skipping is what was asked for.
 * - Other skips (no cause tag) are counted as such, with their names, so that they get one.
 */

/** Something a test may need that may be absent. */
export interface SkipCause {
  /** The vitest tag of the tests that need it. */
  readonly tag: string;
  /** What it is: "the reference corpus", "LLVM 1.9's tools". */
  readonly title: string;
  /** Where it was looked for. */
  readonly where: string;
  readonly present: boolean;
  /** How to provide it, as a sentence. */
  readonly howTo: string;
}

/** One test's outcome as the summary needs it. */
export interface TestOutcome {
  readonly name: string;
  readonly tags: readonly string[];
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending';
}

export interface SkipSummaryOptions {
  /** `CI=true` in the environment. */
  readonly ci: boolean;
  /** The run was narrowed by test name or tag, so skips were asked for. */
  readonly filtered: boolean;
}

export interface SkipSummary {
  /** The lines to print at the end of the run. */
  readonly lines: string[];
  /** Why the run fails (empty: it does not fail on account of skips). */
  readonly failures: string[];
}

/** True when the environment says this is CI (`CI=true`, `CI=1`, as CI services set it). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

const MAX_NAMES = 5;

export function summarizeSkips(tests: readonly TestOutcome[], causes: readonly SkipCause[], options: SkipSummaryOptions): SkipSummary {
  const byTag = new Map(causes.map((c) => [c.tag, c]));
  const skippedFor = new Map<string, number>();
  const using = new Map<string, number>();
  const skippedAlthoughPresent = new Map<string, string[]>();
  const unexplained: string[] = [];
  let skipped = 0;

  for (const test of tests) {
    const needed = test.tags.map((t) => byTag.get(t)).filter((c): c is SkipCause => c !== undefined);
    for (const c of needed) using.set(c.tag, (using.get(c.tag) ?? 0) + 1);
    if (test.state !== 'skipped') continue;
    skipped++;
    const absent = needed.filter((c) => !c.present);
    for (const c of absent) skippedFor.set(c.tag, (skippedFor.get(c.tag) ?? 0) + 1);
    if (absent.length > 0) continue;
    if (needed.length === 0) {
      unexplained.push(test.name);
      continue;
    }
    for (const c of needed) skippedAlthoughPresent.set(c.tag, [...(skippedAlthoughPresent.get(c.tag) ?? []), test.name]);
  }

  const lines: string[] = [];
  const failures: string[] = [];
  if (skipped > 0) lines.push(`${skipped} tests skipped. By cause:`);
  for (const c of causes) {
    const n = skippedFor.get(c.tag) ?? 0;
    if (n > 0)
      lines.push(
        `  ${n} tests need ${c.title} and were skipped: ${c.title === 'the reference corpus' ? 'it is' : 'they are'} not at ${c.where}.`,
        `    ${c.howTo}.`,
      );
  }
  if (unexplained.length > 0) {
    lines.push(`  ${unexplained.length} tests skipped with no cause tag (it.skip, or a skipIf without its tag): ${names(unexplained)}`);
  }
  for (const c of causes) {
    const list = skippedAlthoughPresent.get(c.tag);
    if (list === undefined) continue;
    const line = `${list.length} tests need ${c.title}, which ${c.title === 'the reference corpus' ? 'is' : 'are'} present at ${c.where}, and skipped anyway: ${names(list)}`;
    lines.push(`  ${line}`);
    if (options.ci && !options.filtered) failures.push(line);
  }
  const used = causes.filter((c) => c.present && (using.get(c.tag) ?? 0) > 0).map((c) => `${c.title} at ${c.where} (${using.get(c.tag)} tests)`);
  if (used.length > 0) lines.push(`Used: ${used.join('; ')}.`);
  if (failures.length > 0) lines.push('CI=true: a test that needs something present must not skip; the run fails.');
  return { lines, failures };
}

function names(list: readonly string[]): string {
  const shown = list
    .slice(0, MAX_NAMES)
    .map((n) => `"${n}"`)
    .join(', ');
  return list.length > MAX_NAMES ? `${shown} and ${list.length - MAX_NAMES} more` : shown;
}
