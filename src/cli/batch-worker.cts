/**
 * The script of the batch mode's worker threads (dist/cli/batch-worker.cjs): the CLI bundle,
 * started through the same loader and code cache as the command, as a worker (see batch.ts).
 */
import { startBatchWorker } from './llvm-bytecode.cjs';

startBatchWorker();
