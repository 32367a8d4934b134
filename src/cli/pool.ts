/**
 * A pool of worker threads for work over many files: the CLI's batch mode and the conformance
 * tool share it. The main thread hands out small batches of tasks (one large file costs as much
 * as hundreds of small ones, so batches stay small to keep the threads evenly busy, but hold a few
 * tasks so that thousands of tiny files do not pay a message round trip each).
 *
 * Every thread is a V8 isolate of its own that loads and compiles the engines and warms up its JIT
 * from cold: for thousands of small files that warm-up, not the files, is most of a thread's work
 * (measured: `dis` of the 4,050 released-version files took 1.9 s of CPU in a cold thread, 0.4 s
 * in a warm one). So a caller may offer a `local` handler and have the main thread, whose engines
 * are loaded anyway, be one of the `jobs` threads instead of sitting idle while `jobs` workers
 * each pay the warm-up.
 *
 * Results come back by task index, in completion order; callers that need a fixed order (every
 * batch output and message must not depend on timing) put them back in order themselves.
 */
import { parentPort, Worker } from 'node:worker_threads';

export interface ParallelRunner {
  /**
   * Runs every task in up to `jobs` threads. `onResult` gets each task's result; `onLost` each
   * task whose thread died under it (out of memory, say), after which a fresh thread carries on.
   * With `local`, this thread is one of the `jobs` (`local` runs a task here and should turn its
   * own failures into results; what it throws is reported as a lost task).
   */
  run<T, R>(
    tasks: readonly T[],
    jobs: number,
    onResult: (index: number, result: R) => void,
    onLost: (index: number, error: Error) => void,
    local?: (task: T) => Promise<R>,
  ): Promise<void>;
  /**
   * Starts up to `threads` worker threads now, so that they load while this thread prepares the
   * work (a batch lists and sizes its files); `run` takes them first. Started threads that `run`
   * does not take never keep the process alive.
   */
  start?(threads: number): void;
}

/** A worker started ahead of `run`, and what became of it meanwhile. */
interface StartedWorker {
  readonly worker: Worker;
  /** Why it cannot be used (it failed to load, or exited). */
  failed: Error | undefined;
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
 * Batches a worker holds at once: it starts on the next while the main thread takes its answer to
 * the last (the main thread may be busy with a file of its own and answer late).
 */
const IN_FLIGHT = 2;

/**
 * A runner whose threads run `script` (a module that calls `serveTasks`), with `workerData`
 * telling the script which handler to serve when it serves more than one.
 */
export function workerPool(script: URL, workerData?: unknown): ParallelRunner {
  const started: StartedWorker[] = [];
  /** A started worker that is still well (now the caller's), or a new one. */
  const takeWorker = (): Worker => {
    for (let s = started.shift(); s !== undefined; s = started.shift()) {
      s.worker.removeAllListeners('error').removeAllListeners('exit');
      if (s.failed === undefined) {
        s.worker.ref();
        return s.worker;
      }
      void s.worker.terminate();
    }
    return new Worker(script, { workerData });
  };
  return {
    start(threads: number): void {
      while (started.length < threads) {
        const s: StartedWorker = { worker: new Worker(script, { workerData }), failed: undefined };
        s.worker.on('error', (e: Error) => (s.failed ??= e));
        s.worker.on('exit', (code) => (s.failed ??= new Error(`worker thread exited with code ${code}`)));
        s.worker.unref();
        started.push(s);
      }
    },
    run<T, R>(
      tasks: readonly T[],
      jobs: number,
      onResult: (index: number, result: R) => void,
      onLost: (index: number, error: Error) => void,
      local?: (task: T) => Promise<R>,
    ): Promise<void> {
      const threads = Math.max(1, Math.min(jobs, tasks.length)) - (local ? 1 : 0);
      // Threads started for more work than there is stop now, rather than finish loading for nothing.
      for (const s of started.splice(threads)) void s.worker.terminate();
      // Workers take from the front (callers put large files first); this thread from the back,
      // one small task at a time, so that it answers the workers promptly in between.
      let next = 0;
      let last = tasks.length;
      // Several batches per thread, so that the last ones finish close together.
      const batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(tasks.length / (Math.max(1, threads) * 8))));
      const take = (): [number, T][] => {
        const items: [number, T][] = [];
        while (items.length < batch && next < last) items.push([next, tasks[next++]!]);
        return items;
      };
      const thread = (): Promise<void> =>
        new Promise<void>((done) => {
          const worker = takeWorker();
          // Batches sent and not yet answered, oldest first (a worker answers in order).
          const inFlight: [number, T][][] = [];
          let finished = false;
          let ended = false;
          const feed = (): void => {
            while (!ended && inFlight.length < IN_FLIGHT) {
              const items = take();
              if (items.length === 0) {
                // Nothing more to hand out: the worker finishes once its batches are answered.
                if (inFlight.length === 0) {
                  ended = true;
                  worker.postMessage(null satisfies Request<T>);
                }
                return;
              }
              inFlight.push(items);
              worker.postMessage({ items } satisfies Request<T>);
            }
          };
          // A thread that dies takes its batches with it; a new thread takes over the rest.
          const lose = (error: Error): void => {
            if (finished) return;
            finished = true;
            for (const items of inFlight) for (const [index] of items) onLost(index, error);
            inFlight.length = 0;
            void worker.terminate();
            if (next < last) thread().then(done, done);
            else done();
          };
          worker.on('message', (reply: Reply<R>) => {
            inFlight.shift();
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
      const here = async (): Promise<void> => {
        if (!local) return;
        while (next < last) {
          const index = --last;
          try {
            onResult(index, await local(tasks[index]!));
          } catch (e) {
            onLost(index, e instanceof Error ? e : new Error(String(e)));
          }
          // Let the workers' answers in (and hand them more) between two tasks of our own.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      };
      return Promise.all([here(), ...Array.from({ length: threads }, thread)]).then(() => undefined);
    },
  };
}

/**
 * The worker's side: answers each batch with `handle`'s results, in the order given, until told to
 * finish. Batches that arrive while one is running wait their turn. A handler should turn its own
 * failures into results; what it throws kills the thread (and its batches are reported lost).
 */
export function serveTasks<T, R>(handle: (task: T) => R | Promise<R>): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs only in a worker thread');
  const queue: Request<T>[] = [];
  let busy = false;
  const serveQueued = async (): Promise<void> => {
    busy = true;
    for (let request = queue.shift(); request !== undefined; request = queue.shift()) {
      if (request === null) {
        port.close();
        return;
      }
      const results: [number, R][] = [];
      for (const [index, task] of request.items) results.push([index, await handle(task)]);
      port.postMessage({ results } satisfies Reply<R>);
    }
    busy = false;
  };
  port.on('message', (request: Request<T>) => {
    queue.push(request);
    if (busy) return;
    serveQueued().catch((e: unknown) => {
      // Rethrown outside the promise: an uncaught exception ends the thread, and the pool reports it.
      setImmediate(() => {
        throw e;
      });
    });
  });
}
