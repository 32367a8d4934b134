/**
 * A conformance worker thread: receives small batches of `{ root, folder, name }` tasks and answers
 * each batch with its `FileResult`s. Small batches keep the pool balanced (one large file costs as
 * much as hundreds of small ones) without a message round trip per file.
 */
import { parentPort } from 'node:worker_threads';
import { checkFile, prepare } from './conformance-check.js';

export interface Task {
  root: string;
  folder: string;
  name: string;
}

const port = parentPort;
if (!port) throw new Error('conformance-worker.js runs only as a worker thread');

await prepare();
port.postMessage({ ready: true });
port.on('message', (batch: Task[] | null) => {
  if (batch === null) {
    port.close();
    return;
  }
  port.postMessage({ results: batch.map((t) => checkFile(t.root, t.folder, t.name)) });
});
