/**
 * The `llvm-bytecode` command: binds `run` to the process (see run.ts for everything else).
 * The entry of the CLI bundle (dist/cli/cli-bundle.cjs), whose loader (llvm-bytecode.cts) calls
 * `startCli` in the main thread and `startBatchWorker` in the batch mode's worker threads. Nothing
 * here asks node:worker_threads which thread this is: loading that module costs every start
 * several milliseconds, and only a batch needs it.
 */
import { whenTunedForBatch } from './batch.js';
import { nodeIo, toBytes } from './io.js';
import { workerPool, type ParallelRunner } from './pool.js';
import { describeError, run, STDOUT_LABEL } from './run.js';
import { TOOL } from './help.js';
import { directStdout } from './stdout.js';
import { serveBatchTasks } from './worker.js';

/**
 * Runs the command in `process.argv`. `workerScript` gives what the batch mode's threads run;
 * `onBatch` is told when a batch starts them or changes V8's settings (the loader's code cache is
 * then not this kind of run's).
 */
export function startCli(workerScript: () => URL, onBatch?: () => void): void {
  if (onBatch) whenTunedForBatch(onBatch);
  // Standard output goes to file descriptor 1 directly (stdout.ts); `process.stdout` is made only
  // when that cannot be done. It may fail after `run` has handed its data over (the stream writes
  // asynchronously): a reader that stops early (`llvm-bytecode dis big.bc | head`) is not an error
  // of ours; any other failure (ENOSPC on /dev/full, EIO, …) is one line, like every other error,
  // and exit status 1.
  const stream = (): NodeJS.WriteStream =>
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(0);
      process.stderr.write(`${TOOL}: error: ${STDOUT_LABEL}: cannot write output: ${describeError(e)}\n`);
      process.exit(1);
    });
  let pool: ParallelRunner | undefined;
  const threads = (): ParallelRunner => {
    onBatch?.();
    return (pool ??= workerPool(workerScript()));
  };
  // Every argument is passed on as it is (`local` makes this thread one of the batch's, `start`
  // starts the workers while the files are listed; see pool.ts), so none can be dropped here.
  const parallel: ParallelRunner = {
    run: (...args) => threads().run(...args),
    start: (count) => threads().start?.(count),
  };
  const io = nodeIo(parallel);
  const write = directStdout(stream);
  io.stdout = (data) => write(toBytes(data));
  io.stdoutNow = write;
  void run(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}

/** A batch worker thread: converts the files the main thread hands it. */
export function startBatchWorker(): void {
  serveBatchTasks();
}
