#!/usr/bin/env node
/**
 * The `llvm-bytecode` command: binds `run` to the process (see run.ts for everything else).
 * The same file is the batch mode's worker thread (the CLI ships as one bundle, dist/cli/main.js).
 */
import { isMainThread } from 'node:worker_threads';
import { nodeIo } from './io.js';
import { workerPool } from './pool.js';
import { run } from './run.js';
import { serveBatchTasks } from './worker.js';

if (isMainThread) {
  // A reader that stops early (`llvm-bytecode dis big.bc | head`) is not an error of ours.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  // exitCode, not exit(): a large listing may still be draining to a pipe.
  process.exitCode = await run(process.argv.slice(2), nodeIo(workerPool(new URL(import.meta.url))));
} else {
  serveBatchTasks();
}
