/** `.ci/run` is an executable bash script that parses, and runs the steps the brief promises. */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const CI = new URL('../../.ci/run', import.meta.url).pathname;

describe('.ci/run', () => {
  it('is executable and valid bash', () => {
    expect(statSync(CI).mode & 0o111).not.toBe(0);
    const r = spawnSync('bash', ['-n', CI], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('installs, tests, and holds the conformance ratchet, stopping at the first failure', () => {
    const text = readFileSync(CI, 'utf8');
    expect(text).toMatch(/^#!\/usr\/bin\/env bash\n/);
    expect(text).toContain('set -euo pipefail');
    const order = ['npm ci', 'npm test', 'npm run conformance -- --ratchet'].map((step) => text.indexOf(step));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('builds the API reference and checks the packed package (publint, attw, install and run)', () => {
    const text = readFileSync(CI, 'utf8');
    expect(text).toContain('npm run docs:api');
    expect(text).toContain('.ci/check-package');
    const check = readFileSync(new URL('../../.ci/check-package', import.meta.url), 'utf8');
    for (const step of ['npm pack', 'publint run', 'attw', 'npm install', 'llvm-bytecode --version', 'node use.mjs']) expect(check).toContain(step);
    expect(spawnSync('bash', ['-n', new URL('../../.ci/check-package', import.meta.url).pathname]).status).toBe(0);
  });

  it('lints and checks the formatting before the tests', () => {
    const text = readFileSync(CI, 'utf8');
    const order = ['npm ci', 'npm run lint', 'npm run format:check', 'npm test'].map((step) => text.indexOf(step));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('skips the conformance step, saying so, only when the corpus is absent', () => {
    const text = readFileSync(CI, 'utf8');
    expect(text).toMatch(/if \[ -d "\$corpus" \]; then\n  npm run conformance -- --ratchet\nelse\n  echo "SKIPPED: no reference corpus/);
  });
});
