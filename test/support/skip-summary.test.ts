/** The end of `npm test`: skipped tests counted by cause, and CI=true failing an oracle that switched itself off. */
import { describe, expect, it } from 'vitest';
import { isCi, summarizeSkips, type SkipCause, type TestOutcome } from './skip-summary.js';

const corpus: SkipCause = { tag: 'corpus', title: 'the reference corpus', where: '/x/corpus', present: false, howTo: 'Set LLVM_BYTECODE_CORPUS=DIR' };
const llvm19: SkipCause = { tag: 'llvm19', title: "LLVM 1.9's tools", where: '/x/llvm-1.9/bin', present: true, howTo: 'Set LLVM_BYTECODE_LLVM19=DIR' };
const llvm16: SkipCause = {
  tag: 'llvm16',
  title: "Debian's LLVM 16",
  where: '/usr/lib/llvm-16/bin',
  present: false,
  howTo: 'Set LLVM_BYTECODE_LLVM16=DIR or apt-get install llvm-16',
};
const causes = [corpus, llvm19, llvm16];
const test = (name: string, state: TestOutcome['state'], ...tags: string[]): TestOutcome => ({ name, tags, state });

describe('summarizeSkips', () => {
  it('counts each skipped test under every absent thing it needs, and says how to provide each', () => {
    const s = summarizeSkips(
      [
        test('a', 'skipped', 'corpus'),
        test('b', 'skipped', 'corpus', 'llvm16'),
        test('c', 'skipped', 'llvm16'),
        test('d', 'passed', 'llvm19'),
        test('e', 'passed'),
      ],
      causes,
      { ci: false, filtered: false },
    );
    expect(s.lines).toEqual([
      '3 tests skipped. By cause:',
      '  2 tests need the reference corpus and were skipped: it is not at /x/corpus.',
      '    Set LLVM_BYTECODE_CORPUS=DIR.',
      "  2 tests need Debian's LLVM 16 and were skipped: they are not at /usr/lib/llvm-16/bin.",
      '    Set LLVM_BYTECODE_LLVM16=DIR or apt-get install llvm-16.',
      "Used: LLVM 1.9's tools at /x/llvm-1.9/bin (1 tests).",
    ]);
    expect(s.failures).toEqual([]);
  });

  it('names skips that carry no cause tag, so that they get one', () => {
    const s = summarizeSkips([test('untagged', 'skipped'), test('other', 'skipped', 'not-a-cause')], causes, { ci: true, filtered: false });
    expect(s.lines).toContain('  2 tests skipped with no cause tag (it.skip, or a skipIf without its tag): "untagged", "other"');
    expect(s.failures).toEqual([]);
  });

  it('with CI=true, fails the run when a test skipped although what it needs is present', () => {
    const tests = [test('oracle', 'skipped', 'llvm19'), test('fine', 'passed', 'llvm19')];
    const local = summarizeSkips(tests, causes, { ci: false, filtered: false });
    expect(local.failures).toEqual([]);
    expect(local.lines).toContain(`  1 tests need LLVM 1.9's tools, which are present at /x/llvm-1.9/bin, and skipped anyway: "oracle"`);
    const ci = summarizeSkips(tests, causes, { ci: true, filtered: false });
    expect(ci.failures).toEqual([`1 tests need LLVM 1.9's tools, which are present at /x/llvm-1.9/bin, and skipped anyway: "oracle"`]);
    expect(ci.lines.at(-1)).toBe('CI=true: a test that needs something present must not skip; the run fails.');
  });

  it('does not fail a CI run narrowed by name or tag: those skips were asked for', () => {
    expect(summarizeSkips([test('oracle', 'skipped', 'llvm19')], causes, { ci: true, filtered: true }).failures).toEqual([]);
  });

  it('does not fail CI for a test that needs one present and one absent thing', () => {
    const s = summarizeSkips([test('both', 'skipped', 'llvm19', 'corpus')], causes, { ci: true, filtered: false });
    expect(s.failures).toEqual([]);
    expect(s.lines[1]).toBe('  1 tests need the reference corpus and were skipped: it is not at /x/corpus.');
  });

  it('says nothing about skips when nothing skipped', () => {
    expect(summarizeSkips([test('a', 'passed', 'corpus')], [{ ...corpus, present: true }], { ci: true, filtered: false }).lines).toEqual([
      'Used: the reference corpus at /x/corpus (1 tests).',
    ]);
  });

  it('shortens a long list of names', () => {
    const tests = Array.from({ length: 7 }, (_, i) => test(`t${i}`, 'skipped'));
    expect(summarizeSkips(tests, causes, { ci: false, filtered: false }).lines[1]).toMatch(/"t4" and 2 more$/);
  });
});

describe('isCi', () => {
  it('reads CI as CI services set it', () => {
    expect(isCi({ CI: 'true' })).toBe(true);
    expect(isCi({ CI: '1' })).toBe(true);
    expect(isCi({})).toBe(false);
    expect(isCi({ CI: 'false' })).toBe(false);
    expect(isCi({ CI: '0' })).toBe(false);
    expect(isCi({ CI: '' })).toBe(false);
  });
});
