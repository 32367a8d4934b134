#!/usr/bin/env node
/**
 * The `llvm-bytecode` command: binds `run` to the process (see run.ts for everything else).
 * The same file is the batch mode's worker thread (the CLI ships as one bundle, dist/cli/main.js).
 */
import { isMainThread } from 'node:worker_threads';
import { nodeIo } from './io.js';
import { workerPool } from './pool.js';
import { describeError, run, STDOUT_LABEL } from './run.js';
import { TOOL } from './help.js';
import { serveBatchTasks } from './worker.js';

if (isMainThread) {
  // Standard output fails after `run` has handed its data over (the stream writes asynchronously):
  // a reader that stops early (`llvm-bytecode dis big.bc | head`) is not an error of ours; any other
  // failure (ENOSPC on /dev/full, EIO, …) is one line, like every other error, and exit status 1.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    process.stderr.write(`${TOOL}: error: ${STDOUT_LABEL}: cannot write output: ${describeError(e)}\n`);
    process.exit(1);
  });
  // exitCode, not exit(): a large listing may still be draining to a pipe.
  process.exitCode = await run(process.argv.slice(2), nodeIo(workerPool(new URL(import.meta.url))));
} else {
  serveBatchTasks();
}
