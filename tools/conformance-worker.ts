/**
 * A conformance worker thread: checks the files the main thread hands it (through the pool of
 * src/cli/pool.ts, as the CLI's batch mode does) and answers with their `FileResult`s.
 */
import { serveTasks } from '../src/cli/pool.js';
import { checkFile, prepare, type FileResult } from './conformance-check.js';

export interface Task {
  root: string;
  folder: string;
  name: string;
  /** Time each stage (`--timings`). */
  timed?: boolean;
}

await prepare();
serveTasks<Task, FileResult>((t) => checkFile(t.root, t.folder, t.name, t.timed));
