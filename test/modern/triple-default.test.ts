/**
 * One default for the upgrade's target triple (issue 30 item 6): `printModern` and the CLI's
 * `upgrade` both leave a 1.x module's triple out unless asked (`DEFAULT_TRIPLE`, src/modern/
 * triple.ts), so what the library prints runs under `lli-16` on the host as the CLI's output does.
 * The library used to keep `i686-pc-linux-gnu`, whose output `lli-16` crashed on.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { DEFAULT_TRIPLE, printModern } from '../../src/modern/index.js';
import { readModule } from '../../src/read.js';
import { debianLlvm, needs } from '../support/tools.js';
import { memoryIo } from '../cli/memory-io.js';

const HELLO = new Uint8Array(readFileSync(new URL('../../corpus/hello.bc', import.meta.url)));
const tripleLines = (text: string) => text.split('\n').filter((l) => l.includes('target triple'));

describe('the target triple of an upgrade, by default', () => {
  it('is left out, the 1.x triple kept as a comment', () => {
    expect(DEFAULT_TRIPLE).toBe('none');
    expect(readModule(HELLO).targetTriple).toBe('i686-pc-linux-gnu');
    const text = printModern(readModule(HELLO));
    expect(tripleLines(text)).toEqual(['; LLVM 1.x: target triple = "i686-pc-linux-gnu"']);
    expect(text).toBe(printModern(readModule(HELLO), { triple: 'none' }));
  });

  it('is the same for the library and the CLI: `upgrade` writes what printModern prints', async () => {
    const io = memoryIo({ 'hello.bc': HELLO });
    expect(await run(['upgrade', 'hello.bc'], io)).toBe(0);
    expect(io.err()).toBe('');
    expect(io.out()).toBe(printModern(readModule(HELLO)));
  });

  it("keeps the module's own triple only when asked", () => {
    expect(tripleLines(printModern(readModule(HELLO), { triple: 'keep' }))).toEqual(['target triple = "i686-pc-linux-gnu"']);
  });

  const LLVM16 = debianLlvm(16);
  it.skipIf(!LLVM16.present)('runs under lli-16 on this host (the kept i686 triple crashed it)', needs(LLVM16), () => {
    const dir = mkdtempSync(join(tmpdir(), 'triple-default-'));
    try {
      const ll = join(dir, 'hello.ll');
      writeFileSync(ll, printModern(readModule(HELLO)), 'latin1');
      const r = spawnSync(LLVM16.path('lli'), [ll], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('Hello, world!\nsum(10) = 55\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
