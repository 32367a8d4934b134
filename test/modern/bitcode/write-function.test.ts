/**
 * The function body writer (src/modern/bitcode/write-function.ts) and its two helpers: the table
 * of a function's local names (name-table.ts), where `%N` keys index an array and every other
 * key goes in a Map, and the record buffer (record-ops.ts) filled in place record after record.
 * The bodies' numbering against LLVM 16: forward references, a phi that names itself, named and
 * numbered values mixed, read back by llvm-dis-16 exactly as it reads llvm-as-16 of the text.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BitstreamWriter } from '../../../src/modern/bitcode/bitstream.js';
import { bitcodeOfModernIr } from '../../../src/modern/bitcode/index.js';
import { NameTable } from '../../../src/modern/bitcode/name-table.js';
import { RecordOps } from '../../../src/modern/bitcode/record-ops.js';
import { sameDisassembly } from '../../../tools/upgrade-scoreboard-compare.js';
import { debianLlvm, needs } from '../../support/tools.js';

describe('NameTable', () => {
  it('finds numbered and named keys, each with its own value', () => {
    const t = new NameTable(10);
    expect(t.add('#0', 5)).toBe(true);
    expect(t.add('#9', 6)).toBe(true);
    expect(t.add('n:x', 7)).toBe(true);
    expect([t.get('#0'), t.get('#9'), t.get('n:x')]).toEqual([5, 6, 7]);
    expect([t.get('#1'), t.get('n:y'), t.get('#')]).toEqual([undefined, undefined, undefined]);
  });

  it('refuses a key added twice, numbered or named', () => {
    const t = new NameTable(4);
    t.add('#2', 0);
    t.add('n:a', 1);
    expect(t.add('#2', 9)).toBe(false);
    expect(t.add('n:a', 9)).toBe(false);
    expect([t.get('#2'), t.get('n:a')]).toEqual([0, 1]);
  });

  it('keeps a key whose digits have a leading zero apart from the number, as the keys differ', () => {
    const t = new NameTable(10);
    t.add('#7', 1);
    expect(t.add('#007', 2)).toBe(true);
    expect([t.get('#7'), t.get('#007')]).toEqual([1, 2]);
  });

  it('holds numbers past its capacity (and other keys) in the Map, in the order they came', () => {
    const t = new NameTable(2);
    t.add('n:b', 0);
    t.add('#1', 1);
    t.add('#123456789', 2);
    t.add('#anon3', 3);
    expect(t.add('#123456789', 4)).toBe(false);
    expect(t.get('#123456789')).toBe(2);
    expect([...t.others()]).toEqual([
      ['n:b', 0],
      ['#123456789', 2],
      ['#anon3', 3],
    ]);
  });
});

describe('RecordOps', () => {
  it('writes the operands pushed since the last record, then starts empty', () => {
    const a = new BitstreamWriter();
    const b = new BitstreamWriter();
    const ops = new RecordOps();
    ops.push(1);
    ops.push(300);
    ops.writeTo(a, 4);
    ops.push(2);
    ops.writeTo(a, 5);
    b.record(4, [1, 300]);
    b.record(5, [2]);
    expect(a.finish()).toEqual(b.finish());
  });

  it('a name is one operand per character: a surrogate pair is its first unit, as Array.from splits it', () => {
    const w = new BitstreamWriter();
    const ops = new RecordOps();
    const name = 'a\u{1f600}b\ud800';
    ops.chars(name);
    ops.writeTo(w, 1);
    const expected = new BitstreamWriter();
    expected.record(
      1,
      Array.from(name, (c) => c.charCodeAt(0)),
    );
    expect(w.finish()).toEqual(expected.finish());
  });
});

describe('function bodies', () => {
  it('refuses a local or a label defined twice, naming it and the function', () => {
    expect(() => bitcodeOfModernIr('define i32 @f(i32 %a) {\nentry:\n  %a = add i32 1, 2\n  ret i32 %a\n}\n')).toThrow(/%a is defined twice in @f/);
    expect(() => bitcodeOfModernIr('define void @f() {\nx:\n  br label %x\nx:\n  ret void\n}\n')).toThrow(/label %x is defined twice in @f/);
  });

  it('writes an instruction that names its own result outside a phi as a forward reference (the verifier refuses it; the writer need not)', () => {
    const bc = bitcodeOfModernIr('define i32 @f() {\nentry:\n  %x = add i32 %x, 1\n  ret i32 %x\n}\n');
    expect(bc.length).toBeGreaterThan(0);
  });
});

const LLVM16 = debianLlvm(16);
const work = mkdtempSync(join(tmpdir(), 'llvm-bytecode-bodies-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const BODIES = `declare i32 @g(i32, ...)

define i32 @f(i32 %n, ptr %p) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %acc = phi i32 [ 7, %entry ], [ %acc, %body ]
  %done = icmp sge i32 %i, %n
  br i1 %done, label %exit, label %body

body:
  %0 = getelementptr inbounds i32, ptr %p, i32 %i
  %1 = load i32, ptr %0, align 4
  %2 = add nsw i32 %1, %i
  store i32 %2, ptr %0, align 4
  %next = add i32 %i, 1
  %3 = call i32 (i32, ...) @g(i32 %2, i64 12345678901, double 1.5)
  br label %loop

exit:
  switch i32 %acc, label %out [
    i32 7, label %out
    i32 -1, label %out
  ]

out:
  ret i32 %acc
}

define i32 @h(i32 %a) {
entry:
  br label %second

first:
  %u = add i32 %d, 1
  ret i32 %u

second:
  %d = mul i32 %a, 2
  br label %first
}
`;

describe.skipIf(!LLVM16.present)('bodies against LLVM 16', needs(LLVM16), () => {
  it('llvm-dis-16 reads forward references, a self-naming phi, named and numbered values as it reads llvm-as-16 of the text', () => {
    const ll = join(work, 'bodies.ll');
    const ours = join(work, 'ours.bc');
    const theirs = join(work, 'theirs.bc');
    writeFileSync(ll, BODIES);
    writeFileSync(ours, bitcodeOfModernIr(BODIES));
    const run = (tool: string, args: string[]) => spawnSync(LLVM16.path(tool), args, { encoding: 'latin1', timeout: 60_000 });
    expect(run('llvm-as', [ll, '-o', theirs]).status).toBe(0);
    const a = run('llvm-dis', [ours, '-o', '-']);
    expect(a.stderr).toBe('');
    expect(sameDisassembly(a.stdout, run('llvm-dis', [theirs, '-o', '-']).stdout)).toBeUndefined();
    expect(run('opt', ['-passes=verify', '-disable-output', ours]).status).toBe(0);
  });
});
