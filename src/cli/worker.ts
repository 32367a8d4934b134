/** A batch worker thread: converts the batch's files, taking them one at a time (see batch.ts, pool.ts). */
import { runBatchTask, worthSending, type BatchResult, type BatchTask } from './batch.js';
import { nodeIo } from './io.js';
import { serveTasks } from './pool.js';

export function serveBatchTasks(): void {
  const io = nodeIo();
  serveTasks<BatchTask, BatchResult>(async (task) => worthSending(await runBatchTask(task, io)));
}
