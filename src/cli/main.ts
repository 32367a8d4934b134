#!/usr/bin/env node
/** The `llvm-bytecode` command: binds `run` to the process (see run.ts for everything else). */
import { nodeIo } from './io.js';
import { run } from './run.js';

// A reader that stops early (`llvm-bytecode dis big.bc | head`) is not an error of ours.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

// exitCode, not exit(): a large listing may still be draining to a pipe.
process.exitCode = await run(process.argv.slice(2), nodeIo());
