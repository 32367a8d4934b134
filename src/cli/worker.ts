/** A batch worker thread: converts the files the main thread hands it (see batch.ts, pool.ts). */
import { runBatchTask, type BatchResult, type BatchTask } from './batch.js';
import { nodeIo } from './io.js';
import { serveTasks } from './pool.js';

export function serveBatchTasks(): void {
  const io = nodeIo();
  serveTasks<BatchTask, BatchResult>((task) => runBatchTask(task, io));
}
