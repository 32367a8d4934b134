/**
 * The worker-thread pool of the batch mode and the conformance tool (src/cli/pool.ts), through the
 * built module (a worker thread runs JavaScript): every task is reported exactly once, as a result
 * or as lost, whatever the threads do.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const POOL = new URL('../../dist/cli/pool.js', import.meta.url);

/** Worker scripts, written beside each other in a temporary folder. */
function script(name: string, body: string): URL {
  const dir = mkdtempSync(join(tmpdir(), 'pool-'));
  const path = join(dir, `${name}.mjs`);
  writeFileSync(path, `import { serveTasks } from ${JSON.stringify(POOL.href)};\n${body}\n`);
  return pathToFileURL(path);
}

/**
 * The handler both sides run: a multiple of 3 has nothing to report, anything else its double;
 * -1 ends the thread (a worker dying under its task).
 */
const HANDLER = `(n) => { if (n === -1) process.exit(3); return n % 3 === 0 ? undefined : n * 2; }`;

type Pool = typeof import('../../src/cli/pool.js');

async function runAll(tasks: number[], jobs: number, worker: URL, withLocal: boolean) {
  const { workerPool } = (await import(POOL.href)) as Pool;
  const results = new Map<number, number | undefined>();
  const lost = new Map<number, string>();
  const seen: number[] = [];
  const local = async (n: number): Promise<number | undefined> => (n % 3 === 0 ? undefined : n * 2);
  await workerPool(worker).run<number, number>(tasks, {
    jobs,
    onResult: (i, r) => {
      seen.push(i);
      results.set(i, r);
    },
    onLost: (i, e) => {
      seen.push(i);
      lost.set(i, e.message);
    },
    ...(withLocal ? { local } : {}),
  });
  return { results, lost, seen };
}

describe.skipIf(!existsSync(POOL))('worker pool', () => {
  const worker = script('serve', `serveTasks(${HANDLER});`);
  const tasks = Array.from({ length: 500 }, (_, i) => i);

  for (const [jobs, withLocal] of [
    [1, false],
    [3, false],
    [2, true],
    [3, true],
  ] as const) {
    it(`reports every task once, quiet ones as undefined (${jobs} jobs${withLocal ? ', this thread one of them' : ''})`, async () => {
      const { results, lost, seen } = await runAll(tasks, jobs, worker, withLocal);
      expect(lost.size).toBe(0);
      expect(seen.slice().sort((a, b) => a - b)).toEqual(tasks);
      for (const i of tasks) expect(results.get(i)).toBe(i % 3 === 0 ? undefined : i * 2);
    });
  }

  // A task that kills its worker: 100 becomes -1. Which tasks a dead worker took with it depends
  // on thread scheduling; what is asserted below does not.
  const withDeath = tasks.map((n) => (n === 100 ? -1 : n));

  it('reports the task a worker died under as lost, and every other task once, done or lost with it', async () => {
    const { results, lost, seen } = await runAll(withDeath, 2, worker, false);
    expect(seen.slice().sort((a, b) => a - b)).toEqual(tasks);
    expect([...lost.keys()]).toContain(100);
    // Results the worker held and had not yet sent are lost with it, for the same reason.
    for (const message of lost.values()) expect(message).toMatch(/exited with code 3/);
    for (const [i, r] of results) expect(r).toBe(i % 3 === 0 ? undefined : i * 2);
  });

  it('with this thread working too, reports that task once: lost with its worker, or done by this thread', async () => {
    // This thread takes tasks from the back, the workers from the front: either may take 100.
    // This thread's handler does not die; it answers -1 with -2.
    const { results, lost, seen } = await runAll(withDeath, 2, worker, true);
    expect(seen.slice().sort((a, b) => a - b)).toEqual(tasks);
    const diedWithWorker = lost.get(100)?.match(/exited with code 3/) != null;
    const doneHere = results.get(100) === -2;
    expect(diedWithWorker !== doneHere, `task 100: lost ${String(lost.get(100))}, result ${String(results.get(100))}`).toBe(true);
    for (const message of lost.values()) expect(message).toMatch(/exited with code 3/);
    for (const [i, r] of results) if (i !== 100) expect(r).toBe(i % 3 === 0 ? undefined : i * 2);
  });

  it('reports every task lost when the worker cannot even load (and does not hang)', async () => {
    const broken = script('broken', `throw new Error('cannot load');`);
    const { results, lost } = await runAll(tasks.slice(0, 20), 2, broken, false);
    expect(results.size).toBe(0);
    expect(lost.size).toBe(20);
    expect([...lost.values()][0]).toMatch(/cannot load/);
  });
});
