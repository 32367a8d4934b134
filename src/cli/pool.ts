/**
 * A pool of worker threads for work over many files: the CLI's batch mode and the conformance
 * tool share it. The main thread hands out small batches of tasks (one large file costs as much
 * as hundreds of small ones, so batches stay small to keep the threads evenly busy, but hold a few
 * tasks so that thousands of tiny files do not pay a message round trip each).
 *
 * Results come back by task index, in completion order; callers that need a fixed order (every
 * batch output and message must not depend on timing) put them back in order themselves.
 */
import { parentPort, Worker } from 'node:worker_threads';

export interface ParallelRunner {
  /**
   * Runs every task in up to `jobs` threads. `onResult` gets each task's result; `onLost` each
   * task whose thread died under it (out of memory, say), after which a fresh thread carries on.
   */
  run<T, R>(tasks: readonly T[], jobs: number, onResult: (index: number, result: R) => void, onLost: (index: number, error: Error) => void): Promise<void>;
}

/** What the main thread sends: tasks with their indices, or null to finish. */
type Request<T> = { items: [number, T][] } | null;
/** What a worker answers for one request. */
interface Reply<R> {
  results: [number, R][];
}

/** At most this many tasks per message (see the module comment). */
const MAX_BATCH = 8;

/**
 * A runner whose threads run `script` (a module that calls `serveTasks`), with `workerData`
 * telling the script which handler to serve when it serves more than one.
 */
export function workerPool(script: URL, workerData?: unknown): ParallelRunner {
  return {
    run<T, R>(tasks: readonly T[], jobs: number, onResult: (index: number, result: R) => void, onLost: (index: number, error: Error) => void): Promise<void> {
      const threads = Math.max(1, Math.min(jobs, tasks.length));
      // Several batches per thread, so that the last ones finish close together.
      const batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(tasks.length / (threads * 8))));
      let next = 0;
      const take = (): [number, T][] => {
        const items: [number, T][] = [];
        while (items.length < batch && next < tasks.length) items.push([next, tasks[next++]!]);
        return items;
      };
      const thread = (): Promise<void> =>
        new Promise<void>((done) => {
          const worker = new Worker(script, { workerData });
          let inFlight: [number, T][] = [];
          let finished = false;
          const feed = (): void => {
            inFlight = take();
            worker.postMessage((inFlight.length ? { items: inFlight } : null) satisfies Request<T>);
          };
          // A thread that dies takes its batch with it; a new thread takes over the rest.
          const lose = (error: Error): void => {
            if (finished) return;
            finished = true;
            for (const [index] of inFlight) onLost(index, error);
            inFlight = [];
            void worker.terminate();
            if (next < tasks.length) thread().then(done, done);
            else done();
          };
          worker.on('message', (reply: Reply<R>) => {
            for (const [index, result] of reply.results) onResult(index, result);
            feed();
          });
          worker.on('error', lose);
          worker.on('exit', (code) => {
            if (inFlight.length) lose(new Error(`worker thread exited with code ${code}`));
            else if (!finished) {
              finished = true;
              done();
            }
          });
          feed();
        });
      return Promise.all(Array.from({ length: threads }, thread)).then(() => undefined);
    },
  };
}

/**
 * The worker's side: answers each batch with `handle`'s results, in the order given, until told to
 * finish. A handler should turn its own failures into results; what it throws kills the thread
 * (and its batch is reported lost).
 */
export function serveTasks<T, R>(handle: (task: T) => R | Promise<R>): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs only in a worker thread');
  port.on('message', (request: Request<T>) => {
    if (request === null) {
      port.close();
      return;
    }
    void (async () => {
      const results: [number, R][] = [];
      for (const [index, task] of request.items) results.push([index, await handle(task)]);
      port.postMessage({ results } satisfies Reply<R>);
    })().catch((e: unknown) => {
      // Rethrown outside the promise: an uncaught exception ends the thread, and the pool reports it.
      setImmediate(() => {
        throw e;
      });
    });
  });
}
