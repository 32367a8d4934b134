/**
 * `npm run fuzz:upgrade` (tools/fuzz-upgrade.ts) upgrades edited corpus files for LLVM 16 and has
 * LLVM 16's tools judge the text and the bitcode: it runs, its counts add up, it saves each
 * failure with LLVM's message and exits 1 on one, and stops saying why without the tools.
 * Stand-ins for LLVM's tools (scripts that take everything, or refuse everything) prove both
 * verdicts can come out. Then every input it found is replayed (test/fuzz-regressions/upgrade/):
 * each ends as the rule it found says, and what we write of it LLVM 16 takes.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeWithLlvm, upgradeOutcome } from '../../tools/fuzz-upgrade-check.js';
import { CORPUS_PRESENT, NEEDS_CORPUS } from '../support/corpus.js';
import { debianLlvm, needs } from '../support/tools.js';

const ROOT = new URL('../../', import.meta.url);
const SCRIPT = new URL('dist-tools/tools/fuzz-upgrade.js', ROOT).pathname;
const REGRESSIONS = new URL('test/fuzz-regressions/upgrade/', ROOT).pathname;
const LLVM16 = debianLlvm(16);

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  out: string;
  counts: { runs: number; unread: number; refused: number; upgraded: number; accepted: number; rejected: number; untyped: number };
}

function fuzz(tools: string, seconds: number): Run {
  const out = mkdtempSync(join(tmpdir(), 'fuzz-upgrade-test-'));
  const r = spawnSync(process.execPath, [SCRIPT, '--seconds', String(seconds), '--seed', '1', '--versions', '6', '--tools', tools, '--out', out], {
    encoding: 'utf8',
  });
  const m =
    /^(\d+) edited files: unread (\d+); refused by the upgrade (\d+); upgraded (\d+) \(taken by LLVM (\d+), rejected (\d+)\); untyped errors (\d+)$/m.exec(
      r.stdout,
    );
  expect(m, r.stdout + r.stderr).not.toBeNull();
  const [runs, unread, refused, upgraded, accepted, rejected, untyped] = m!.slice(1).map(Number) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, out, counts: { runs, unread, refused, upgraded, accepted, rejected, untyped } };
}

/** A folder of stand-ins for `llvm-dis` and `opt`, each with this shell body. */
function standIn(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'fuzz-upgrade-stand-in-'));
  for (const tool of ['llvm-dis', 'opt']) {
    writeFileSync(join(dir, tool), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, tool), 0o755);
  }
  return dir;
}

/** The counts partition the runs, and each saved failure is an input with its message. */
function expectConsistent(r: Run): void {
  const c = r.counts;
  expect(c.runs).toBeGreaterThan(0);
  expect(c.unread + c.refused + c.upgraded + c.untyped).toBe(c.runs);
  expect(c.accepted + c.rejected).toBe(c.upgraded);
  const saved = readdirSync(r.out);
  const inputs = saved.filter((f) => f.endsWith('.bc'));
  expect(saved.filter((f) => f.endsWith('.txt'))).toHaveLength(inputs.length);
  expect(r.stdout.match(/^FAILURE /gm) ?? []).toHaveLength(inputs.length);
  expect(r.status).toBe(c.rejected + c.untyped > 0 ? 1 : 0);
}

describe.skipIf(!existsSync(SCRIPT))('npm run fuzz:upgrade', () => {
  it("says so and stops when LLVM's tools are absent", () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--seconds', '1', '--tools', join(tmpdir(), 'no-such-llvm')], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/llvm-dis and opt of LLVM 16 not found in .*no-such-llvm/);
  });

  it.skipIf(!CORPUS_PRESENT)('finds nothing where the tools take everything', NEEDS_CORPUS, () => {
    const r = fuzz(standIn('exit 0'), 2);
    expectConsistent(r);
    expect(r.counts.upgraded).toBeGreaterThan(0);
    expect(r.counts.rejected).toBe(0);
    expect(r.status).toBe(0);
  });

  it.skipIf(!CORPUS_PRESENT)("saves every kind of refusal, with the tool's message, and fails", NEEDS_CORPUS, () => {
    const r = fuzz(standIn('echo "stand-in: refused" >&2; exit 1'), 2);
    expectConsistent(r);
    expect(r.counts.rejected).toBe(r.counts.upgraded);
    expect(r.status).toBe(1);
    const first = readdirSync(r.out).find((f) => f.endsWith('.txt'))!;
    expect(readFileSync(join(r.out, first), 'utf8')).toMatch(
      /^v6\/.*\.bc edited at [\d, ]+, upgraded for LLVM 16\ntext: opt -passes=verify refused it: exit 1: stand-in: refused\n$/,
    );
  });

  it.skipIf(!CORPUS_PRESENT || !LLVM16.present)("has LLVM 16's tools judge what it upgrades", { tags: [...NEEDS_CORPUS.tags, ...needs(LLVM16).tags] }, () => {
    const r = fuzz(LLVM16.dir, 3);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^fuzz:upgrade for 3 s with seed 1 over \d+ seeds \(versions 6\), judged by LLVM 16/m);
    expectConsistent(r);
  });
});

/**
 * What each input it found must become: refused by the upgrade (a typed error saying why), or
 * upgraded into what LLVM 16 takes.
 */
const FOUND: Record<string, RegExp | 'upgraded'> = {
  // A damaged module that no LLVM 1.x accepted (an add that uses its own result): the verifier's refusal.
  'upgrade-1-1414.bc': /the module is not valid \(.*is used before it is defined/,
  // What LLVM 1.9's Verifier refused and our 1.x rules do not check yet.
  'upgrade-1-1047.bc': /entry block is the target of a branch/,
  'upgrade-1-1086.bc': /only global variables can have appending linkage/,
  'upgrade-1-1144.bc': /inline asm whose constraints .* do not match its call/,
  // A constant getelementptr indexed by a float (LLVM 1.x's reader did not check constants').
  'upgrade-20261128-4945.bc': /a getelementptr indexed by a value of type float/,
  // A name holding a NUL byte: LLVM's parser takes none.
  'upgrade-20261128-1725.bc': /holds a NUL byte/,
  // A struct that is its own member: written opaque in bitcode (its own slot in its record is what LLVM's reader refused).
  'upgrade-20261128-3718.bc': 'upgraded',
  // A constant getelementptr of an integer (LLVM's ConstantExpr::getGetElementPtr asserted a pointer).
  'upgrade-7-281.bc': /constant getelementptr: indexes a ubyte, not a pointer/,
  // A setge constant expression of pointer type (ConstantExpr::get asserted bool, and operands of one type).
  'upgrade-7-560.bc': /constant setge: the result has type ubyte\*, expected bool/,
  // A csretcc function returning int: LLVM 16 takes sret only where the function returns void, so it is left out.
  'upgrade-7-915.bc': 'upgraded',
  // Version 7's sext on a pointer parameter (r36867 took it): LLVM 16 takes signext on integers only, so it is left out.
  'upgrade-7-2012.bc': 'upgraded',
  // Inline asm constraints LLVM's parser refuses (a clobber not written ~{…}, a { without its }); LLVM 1.x parsed them alike.
  'upgrade-23-8369.bc': /constraint "~.cc}" is a clobber not written/,
  'upgrade-23-9001.bc': /constraint "~\|flags}" is a clobber not written/,
  'upgrade-23-10394.bc': /constraint "~\|flags}" is a clobber not written/,
  'upgrade-23-12038.bc': /constraint "=\{ax~" opens \{ without its \}/,
  'upgrade-23-9772.bc': /opens \{ without its \}/,
  // A 1.x cast between packed types of different sizes: a bit reinterpretation needs one size.
  'upgrade-23-4386.bc': /a cast from <4 x int> to <3 x long>: .* differ in size/,
  // A 1.x cast of a pointer to float: its address as an unsigned integer, converted (was a bitcast LLVM refuses).
  'upgrade-23-10357.bc': 'upgraded',
  // Version 7's zext and sext on one value: LLVM 16 refuses the pair, so neither is kept.
  'upgrade-23-8541.bc': 'upgraded',
  // A function type taking a function type by value (only a damaged file's).
  'upgrade-23-12773.bc': /takes a parameter of type void \(sbyte\*, uint\)/,
  // A shufflevector mask element past both vectors (65 of 4 + 4; LLVM 1.x checked no range): undef, as it meant.
  'upgrade-604237180-3679.bc': 'upgraded',
};

describe('fuzz:upgrade findings (test/fuzz-regressions/upgrade/)', () => {
  const inputs = readdirSync(REGRESSIONS).filter((f) => f.endsWith('.bc'));

  it('names each saved input and its rule here, and keeps what LLVM said of it', () => {
    expect(inputs.sort()).toEqual(Object.keys(FOUND).sort());
    for (const f of inputs) expect(readFileSync(join(REGRESSIONS, f.replace(/\.bc$/, '.txt')), 'utf8')).toMatch(/upgraded for LLVM 16\n.+ refused it: /);
  });

  for (const [name, rule] of Object.entries(FOUND)) {
    const bytes = (): Uint8Array => new Uint8Array(readFileSync(join(REGRESSIONS, name)));
    it(`${name}: ${rule === 'upgraded' ? 'upgrades' : `is refused, ${rule.source}`}`, () => {
      const outcome = upgradeOutcome(bytes(), 16);
      if (rule === 'upgraded') expect(outcome.kind).toBe('upgraded');
      else {
        expect(outcome.kind).toBe('refused');
        expect(outcome.kind === 'refused' && outcome.reason).toMatch(rule);
      }
    });
    if (rule === 'upgraded') {
      it(`${name}: LLVM 16 takes the text and the bitcode`, needs(LLVM16), () => {
        const outcome = upgradeOutcome(bytes(), 16);
        if (outcome.kind !== 'upgraded') throw new Error(`not upgraded: ${outcome.kind}`);
        const work = mkdtempSync(join(tmpdir(), 'fuzz-upgrade-replay-'));
        try {
          expect(judgeWithLlvm(LLVM16.dir, work, outcome.text, outcome.bitcode)).toBeUndefined();
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
      });
    }
  }

  it("counts an input the reader refuses (its typed error) as unread, with the reader's words", () => {
    const outcome = upgradeOutcome(new Uint8Array(0), 16);
    expect(outcome).toEqual({ kind: 'unread', reason: expect.stringMatching(/^BytecodeError: /) });
  });
});
