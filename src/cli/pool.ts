/**
 * A pool of worker threads for work over many files: the CLI's batch mode and the conformance
 * tool share it.
 *
 * The threads pull their work themselves: each worker is sent the whole task list once, and takes
 * the next task from a counter in shared memory (`Atomics`), one task at a time, so one large file
 * holds up no other and thousands of tiny files cost no message each. A result worth sending (a
 * failure, text for standard output, a conformance verdict) goes back in a message, several to a
 * message; a task whose result is nothing at all (a batch file written to its output directory)
 * is only logged as done in shared memory, which the main thread reads when it looks. (Before, the
 * main thread handed out batches of up to eight tasks and each worker answered every batch: about
 * a thousand messages for a 4,050-file batch, each a wake-up of both threads.)
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

/** What a run reports and how: see `ParallelRunner.run`. */
export interface RunOptions<T, R> {
  /** Threads in all, this one included when `local` is given. */
  readonly jobs: number;
  /**
   * Each task's result; `undefined` for a task whose handler had nothing to report (it returned
   * `undefined`). Called on this thread, in completion order, once per task not lost.
   */
  readonly onResult: (index: number, result: R | undefined) => void;
  /** Each task whose thread died under it (out of memory, say), once the run is over. */
  readonly onLost: (index: number, error: Error) => void;
  /**
   * Runs a task on this thread, which is then one of the `jobs` (it should turn its own failures
   * into results; what it throws is reported as a lost task).
   */
  readonly local?: (task: T) => Promise<R | undefined>;
}

export interface ParallelRunner {
  /** Runs every task in up to `jobs` threads (see RunOptions). */
  run<T, R>(tasks: readonly T[], options: RunOptions<T, R>): Promise<void>;
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

/**
 * The shared memory of one run, an Int32Array: how many tasks are left to take (a thread takes one
 * only after counting it off here, so the two ends never overlap), the next task from the front,
 * how many quiet completions are logged, then the log itself (task index + 1 in each slot, 0 while
 * not yet written). Workers take from the front (callers put large files first); this thread
 * takes from the back, alone, so its end needs no shared counter.
 */
const LEFT = 0;
const FRONT = 1;
const LOGGED = 2;
const LOG = 3;

/** The next task a worker takes, or -1 when none is left. */
function takeFront(view: Int32Array): number {
  return Atomics.sub(view, LEFT, 1) > 0 ? Atomics.add(view, FRONT, 1) : -1;
}

/** What the main thread sends a worker: the run's tasks and its shared memory; then null to finish. */
type Request<T> = { tasks: readonly T[]; shared: SharedArrayBuffer } | null;
/** What a worker sends: results worth sending; `done` with its last ones, when no task is left. */
interface Reply<R> {
  results: [number, R][];
  done: boolean;
}

/** A worker sends its results when it holds this many, or has held the oldest this long. */
const FLUSH_COUNT = 16;
const FLUSH_MS = 50;
/** A worker returns to its event loop at least this often (see `serveTasks`). */
const YIELD_MS = 4;

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
    async run<T, R>(tasks: readonly T[], options: RunOptions<T, R>): Promise<void> {
      const { onResult, onLost, local } = options;
      const count = tasks.length;
      const threads = Math.max(1, Math.min(options.jobs, count)) - (local ? 1 : 0);
      // Threads started for more work than there is stop now, rather than finish loading for nothing.
      for (const s of started.splice(threads)) void s.worker.terminate();
      const shared = new SharedArrayBuffer(4 * (LOG + count));
      const view = new Int32Array(shared);
      view[LEFT] = count;
      const reported = new Uint8Array(count);
      const report = (index: number, result: R | undefined): void => {
        reported[index] = 1;
        onResult(index, result);
      };
      // Quiet completions, as the workers logged them; read whenever this thread gets to it.
      let logRead = 0;
      const readLog = (): void => {
        for (; logRead < count; logRead++) {
          const entry = Atomics.load(view, LOG + logRead);
          if (entry === 0) return; // taken, not yet written: the next look reads it
          report(entry - 1, undefined);
        }
      };
      let lostBecause: Error | undefined;

      const thread = (): Promise<void> =>
        new Promise<void>((done) => {
          const worker = takeWorker();
          const takenBefore = Atomics.load(view, FRONT);
          let finished = false;
          worker.on('message', (reply: Reply<R>) => {
            for (const [index, result] of reply.results) report(index, result);
            readLog();
            if (!reply.done) return;
            finished = true;
            worker.postMessage(null satisfies Request<T>);
            done();
          });
          // A thread that dies takes its task (and results not yet sent) with it: they are reported
          // lost at the end. A new thread carries on if this one got anywhere (one that died before
          // taking a task, failing to load, would only die again).
          const lose = (error: Error): void => {
            if (finished) return;
            finished = true;
            lostBecause ??= error;
            void worker.terminate();
            const progressed = Atomics.load(view, FRONT) > takenBefore;
            if (progressed && Atomics.load(view, LEFT) > 0) thread().then(done, done);
            else done();
          };
          worker.on('error', lose);
          worker.on('exit', (code) => lose(new Error(`worker thread exited with code ${code}`)));
          worker.postMessage({ tasks, shared } satisfies Request<T>);
        });

      const here = async (): Promise<void> => {
        if (!local) return;
        // The small files at the back: measured, this thread's share then cost less CPU than the
        // same share taken from the front (the workers warm up on the large ones).
        let last = count;
        while (Atomics.sub(view, LEFT, 1) > 0) {
          const index = --last;
          try {
            report(index, await local(tasks[index]!));
          } catch (e) {
            reported[index] = 1;
            onLost(index, e instanceof Error ? e : new Error(String(e)));
          }
          readLog();
          // Let the workers' messages in between two tasks of our own.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      };

      await Promise.all([here(), ...Array.from({ length: threads }, thread)]);
      readLog();
      const error = lostBecause ?? new Error('no thread was left to run it');
      for (let index = 0; index < count; index++) if (!reported[index]) onLost(index, error);
    },
  };
}

/**
 * The worker's side: takes tasks from the run's shared counter and runs `handle` on each until
 * none is left. A result other than `undefined` is sent back (a few at a time); `undefined` is
 * only logged as done. A handler should turn its own failures into results; what it throws kills
 * the thread (and its task is reported lost).
 */
export function serveTasks<T, R>(handle: (task: T) => R | undefined | Promise<R | undefined>): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs only in a worker thread');
  const serve = async (tasks: readonly T[], view: Int32Array): Promise<void> => {
    let results: [number, R][] = [];
    let oldest = 0;
    let yielded = performance.now();
    for (let index = takeFront(view); index >= 0; index = takeFront(view)) {
      const result = await handle(tasks[index]!);
      // Back to the event loop now and then: V8 and Node leave work there for the thread (tasks
      // of the garbage collector and the compilers) that would otherwise wait for the run's end.
      if (performance.now() - yielded >= YIELD_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        yielded = performance.now();
      }
      if (result === undefined) {
        Atomics.store(view, LOG + Atomics.add(view, LOGGED, 1), index + 1);
        continue;
      }
      if (results.length === 0) oldest = performance.now();
      results.push([index, result]);
      if (results.length >= FLUSH_COUNT || performance.now() - oldest >= FLUSH_MS) {
        port.postMessage({ results, done: false } satisfies Reply<R>);
        results = [];
      }
    }
    port.postMessage({ results, done: true } satisfies Reply<R>);
  };
  port.on('message', (request: Request<T>) => {
    if (request === null) {
      port.close();
      return;
    }
    serve(request.tasks, new Int32Array(request.shared)).catch((e: unknown) => {
      // Rethrown outside the promise: an uncaught exception ends the thread, and the pool reports it.
      setImmediate(() => {
        throw e;
      });
    });
  });
}
