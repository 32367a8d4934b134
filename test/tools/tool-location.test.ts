/** One rule finds each outside tool set for every test and tool: --llvm DIR, then its environment variable, then its default. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/corpus-location.js';
import { debianLlvmSpec, LLVM19_SPEC, locateTools, noToolsMessage, R36867_SPEC } from '../../tools/tool-location.js';

const dir = mkdtempSync(join(tmpdir(), 'tool-location-'));
writeFileSync(join(dir, 'llvm-as'), '');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('locateTools', () => {
  it('prefers the option, then the environment variable, then the default', () => {
    expect(locateTools(LLVM19_SPEC, dir, { LLVM_BYTECODE_LLVM19: '/elsewhere' })).toEqual({ dir, from: 'option', present: true });
    expect(locateTools(LLVM19_SPEC, undefined, { LLVM_BYTECODE_LLVM19: dir })).toEqual({ dir, from: 'environment', present: true });
    expect(locateTools(LLVM19_SPEC, '', { LLVM_BYTECODE_LLVM19: '' })).toEqual({
      dir: resolve(PROJECT_ROOT, '../shared/llvm-1.9/bin'),
      from: 'default',
      present: expect.any(Boolean) as boolean,
    });
    expect(locateTools(R36867_SPEC, undefined, {}).dir).toBe(resolve(PROJECT_ROOT, '../shared/llvm-2.0-dev/bin'));
  });

  it('says a set is present only when its probe executable is there', () => {
    expect(locateTools(R36867_SPEC, dir, {}).present).toBe(false); // r36867's probe is llvm-dis
    expect(locateTools(LLVM19_SPEC, join(dir, 'absent'), {}).present).toBe(false);
  });

  it("keeps Debian's LLVM 19 apart from LLVM 1.9", () => {
    const debian19 = debianLlvmSpec(19);
    expect([debian19.tag, debian19.env, debian19.defaultDir]).toEqual(['debian-llvm19', 'LLVM_BYTECODE_DEBIAN_LLVM19', '/usr/lib/llvm-19/bin']);
    expect(debian19.tag).not.toBe(LLVM19_SPEC.tag);
    expect(debian19.env).not.toBe(LLVM19_SPEC.env);
  });

  it('tells a user where it looked and how to give the folder', () => {
    const missing = locateTools(LLVM19_SPEC, undefined, { LLVM_BYTECODE_LLVM19: join(dir, 'absent') });
    expect(noToolsMessage(LLVM19_SPEC, missing)).toBe(
      `LLVM 1.9's tools not found at ${join(dir, 'absent')} (LLVM_BYTECODE_LLVM19): pass --llvm DIR, set LLVM_BYTECODE_LLVM19=DIR or place them at ../shared/llvm-1.9/bin beside the checkout`,
    );
  });
});
