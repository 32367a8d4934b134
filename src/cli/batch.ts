/**
 * Batch mode: a command over several files and directories, `llvm-bytecode dis DIR -o OUTDIR`.
 *
 * - A directory stands for every `.bc` file under it; each output keeps the file's path relative
 *   to that directory, under OUTDIR (missing directories are created). A file named directly
 *   keeps its own name.
 * - Files are converted by `--jobs N` threads (default the core count): this one and N - 1 worker
 *   threads (pool.ts says why this one works too); each output is exactly what the one-file
 *   command writes (both call `convertFile`).
 * - An archive stands for its bytecode members, `lib.a(member.bc)` for one member
 *   (archive-inputs.ts); their outputs are named after the members.
 * - A file that fails gives one error line, in the one-file command's format, and writes nothing;
 *   the others are still written. Exit status 1 if any failed.
 * - Whatever the threads' timing, messages and standard output come in the order of the inputs
 *   (directory contents sorted by name), and on a terminal a progress line is shown on stderr.
 */
import { basename, join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { UsageError } from './args.js';
import { convertFile, type CommandSpec, type Converted, type Settings } from './commands.js';
import { archiveInputs, archiveOperandKind, readMemberOperand, safeOutputName, skippedNote, splitMemberOperand } from './archive-inputs.js';
import { describeError as describe } from './describe-error.js';
import { FileError } from './file-error.js';
import { TOOL } from './help.js';
import type { CliIo } from './io.js';

/** One file of a batch: where it is read and where its output goes (none: standard output). */
export interface BatchFile {
  readonly input: string;
  readonly output: string | undefined;
  /** Its size, to hand out large files first (so none is left running alone at the end). */
  readonly size: number;
  /** The input's bytes when they are not a file of their own (an archive member). */
  readonly bytes?: Uint8Array;
  /** Why this input cannot be converted at all (an archive member whose name is no file name). */
  readonly refusal?: string;
}

/** What one file of a batch came to, as a worker thread reports it. */
export interface BatchResult {
  /** The error line's message when the file failed (the line names the file itself). */
  readonly failure?: { file: string; message: string };
  /** Output for standard output (batches without an output directory). */
  readonly stdout?: string | Uint8Array;
}

/** A task for a worker thread: plain data only. */
export interface BatchTask {
  readonly settings: Settings;
  readonly file: BatchFile;
}

/** Does the file name look like the command's input? (What a directory contributes to a batch.) */
function isInputName(name: string, spec: CommandSpec): boolean {
  return name.endsWith(spec.inputExtension);
}

/**
 * The files of a batch, in the order of the operands (each directory's files sorted by path), with
 * their outputs. Throws a UsageError for what cannot be run at all (standard input, two inputs
 * with one output, no output directory where one is needed).
 */
export async function planBatch(spec: CommandSpec, settings: Settings, operands: readonly string[], outputDirectory: string | undefined, io: CliIo): Promise<BatchFile[]> {
  if (spec.batchNeedsDirectory && outputDirectory === undefined) {
    throw new UsageError(`${spec.name} of several files needs an output directory: -o DIR (see '${TOOL} ${spec.name} --help')`);
  }
  if (outputDirectory === '-') throw new UsageError(`${spec.name} of several files writes to a directory, not to standard output`);
  const files: BatchFile[] = [];
  for (const operand of operands) {
    if (operand === '-') throw new UsageError('standard input (-) cannot be one of several inputs');
    const archiveKind = spec.inputExtension === '.bc' ? archiveOperandKind(operand, io) : undefined;
    if (archiveKind !== undefined) {
      files.push(...(await archiveBatchFiles(spec, settings, operand, archiveKind, outputDirectory, io)));
      continue;
    }
    if (!io.isDirectory(operand)) {
      files.push({ input: operand, output: outputDirectory === undefined ? undefined : join(outputDirectory, spec.outputName(basename(operand), settings)), size: 0 });
      continue;
    }
    for (const { relative, size } of walk(operand, io, spec)) {
      files.push({ input: join(operand, relative), output: outputDirectory === undefined ? undefined : join(outputDirectory, spec.outputName(relative, settings)), size });
    }
  }
  const seen = new Map<string, string>();
  for (const f of files) {
    if (f.output === undefined) continue;
    const key = resolve(f.output);
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new UsageError(`${earlier} and ${f.input} would both be written to ${f.output}`);
    seen.set(key, f.input);
  }
  return files;
}

/** The files an archive operand contributes: every bytecode member, or the one it names. */
async function archiveBatchFiles(spec: CommandSpec, settings: Settings, operand: string, kind: 'archive' | 'member', outputDirectory: string | undefined, io: CliIo): Promise<BatchFile[]> {
  const outputFor = (fileName: string | undefined): string | undefined =>
    outputDirectory === undefined || fileName === undefined ? undefined : join(outputDirectory, spec.outputName(fileName, settings));
  if (kind === 'member') {
    const { label, bytes } = await readMemberOperand(operand, io);
    const name = splitMemberOperand(operand)!.member;
    return [{ input: label, output: outputFor(safeOutputName(name)), size: bytes.length, bytes }];
  }
  let bytes: Uint8Array;
  try {
    bytes = io.readFile(operand);
  } catch (e) {
    throw new FileError(operand, e);
  }
  const { members, skipped } = await archiveInputs(operand, bytes);
  if (skipped.length > 0) io.stderr(`${TOOL}: note: ${skippedNote(operand, skipped)}\n`);
  if (members.length === 0) throw new FileError(operand, 'the archive has no bytecode members');
  return members.map((m) => {
    const refused = outputDirectory !== undefined && m.fileName === undefined;
    return {
      input: m.label,
      output: outputFor(m.fileName),
      size: m.bytes.length,
      bytes: m.bytes,
      ...(refused ? { refusal: 'refusing to write this member: its name is not a plain file name (it has a slash, a NUL, or is . or ..)' } : {}),
    };
  });
}

/** Every input file under `root`, relative to it, sorted by path (bytewise, so stable everywhere). */
function walk(root: string, io: CliIo, spec: CommandSpec): { relative: string; size: number }[] {
  const found: { relative: string; size: number }[] = [];
  const visit = (relative: string): void => {
    for (const entry of io.listDirectory(relative === '' ? root : join(root, relative))) {
      const path = relative === '' ? entry.name : join(relative, entry.name);
      if (entry.directory) visit(path);
      else if (isInputName(entry.name, spec)) found.push({ relative: path, size: entry.size });
    }
  };
  visit('');
  return found.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/**
 * One file of a batch, start to end: read, convert, write. Runs in a worker thread or, without
 * threads, in this one; never throws (a failure is the result).
 */
export async function runBatchTask(task: BatchTask, io: CliIo): Promise<BatchResult> {
  const { settings, file } = task;
  if (file.refusal !== undefined) return { failure: { file: file.input, message: file.refusal } };
  let bytes: Uint8Array;
  try {
    bytes = file.bytes ?? io.readFile(file.input);
  } catch (e) {
    return { failure: { file: file.input, message: describe(e) } };
  }
  let converted: Converted;
  try {
    converted = await convertFile(settings, bytes, file.input);
  } catch (e) {
    converted = { error: e };
  }
  const failed = 'error' in converted;
  const failure = failed ? { file: file.input, message: describe(converted.error) } : undefined;
  if (file.output === undefined) return { ...(failure ? { failure } : {}), ...(converted.output !== undefined ? { stdout: converted.output } : {}) };
  // Into a directory: only good outputs are written (a damaged file's partial analysis is not).
  if (failure || converted.output === undefined) return failure ? { failure } : {};
  try {
    if (resolve(file.output) === resolve(file.input)) throw new UsageError('the output would replace the input');
    const slash = Math.max(file.output.lastIndexOf('/'), file.output.lastIndexOf('\\'));
    if (slash > 0) io.makeDirectory(file.output.slice(0, slash));
    io.writeFile(file.output, converted.output);
  } catch (e) {
    return { failure: { file: file.output, message: e instanceof UsageError ? e.message : describe(e) } };
  }
  return {};
}

/**
 * Starts the worker threads a batch of `jobs` will use (all but this one, see `runBatch`), so that
 * they load the engines while this thread lists the files.
 */
export function startBatchWorkers(jobs: number, io: CliIo): void {
  if (jobs <= 1 || !io.parallel?.start) return;
  tuneForBatch();
  io.parallel.start(jobs - 1);
}

/** How often the progress line may be redrawn, in milliseconds. */
const PROGRESS_INTERVAL = 100;

/**
 * V8's tier-up threshold for a batch (bytecode executed before a function is optimized; V8's
 * default is 66 KiB). A batch of small files runs the engines cold: most of its CPU time went to
 * TurboFan optimizing functions early, on the feedback of the first few files, and optimizing them
 * again each time a later file (another version, another path) deoptimized them. Waiting longer
 * gathers feedback that holds: `dis` of the 4,050 released-version files in one thread took 30 %
 * less CPU (1.9 s to 1.3 s for reading and printing); one large file's cost did not change.
 * A process-wide setting (worker threads share it), made before the engines are loaded.
 */
const BATCH_INTERRUPT_BUDGET = 1_000_000;

function tuneForBatch(): void {
  setFlagsFromString(`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`);
}

/** Runs a planned batch; returns the number of files that failed. */
export async function runBatch(settings: Settings, files: readonly BatchFile[], jobs: number, io: CliIo): Promise<number> {
  if (files.length > 1) tuneForBatch();
  const results: (BatchResult | undefined)[] = new Array(files.length);
  let reported = 0;
  let completed = 0;
  let failed = 0;
  let lastDrawn = 0;
  let progressShown = false;
  const clearProgress = (): void => {
    if (progressShown) io.stderr('\r\x1b[K');
    progressShown = false;
  };
  const drawProgress = (): void => {
    if (!io.stderrIsTerminal) return;
    const now = Date.now();
    if (now - lastDrawn < PROGRESS_INTERVAL && completed < files.length) return;
    lastDrawn = now;
    io.stderr(`\r\x1b[K${TOOL}: ${completed}/${files.length} files${failed ? `, ${failed} failed` : ''}`);
    progressShown = true;
  };
  // Results are reported in input order as soon as every earlier file is done.
  const record = (index: number, result: BatchResult): void => {
    results[index] = result;
    completed++;
    if (result.failure) failed++;
    let cleared = false;
    for (; reported < files.length && results[reported] !== undefined; reported++) {
      const r = results[reported]!;
      if (r.stdout === undefined && !r.failure) continue;
      if (!cleared) clearProgress();
      cleared = true;
      if (r.stdout !== undefined) io.stdout(r.stdout);
      if (r.failure) io.stderr(`${TOOL}: error: ${r.failure.file}: ${r.failure.message}\n`);
      results[reported] = {}; // let the output be collected
    }
    drawProgress();
  };

  // Large files first; the order of the results does not depend on it.
  const order = files.map((_, i) => i).sort((a, b) => files[b]!.size - files[a]!.size || a - b);
  const tasks = order.map((i): BatchTask => ({ settings, file: files[i]! }));
  if (io.parallel && jobs > 1 && files.length > 1) {
    await io.parallel.run<BatchTask, BatchResult>(
      tasks,
      jobs,
      (k, result) => record(order[k]!, result),
      (k, error) => record(order[k]!, { failure: { file: files[order[k]!]!.input, message: describe(error) } }),
      // This thread is one of the `jobs`: it has the engines loaded and warmed up already.
      (task) => runBatchTask(task, io),
    );
  } else {
    for (let k = 0; k < tasks.length; k++) record(order[k]!, await runBatchTask(tasks[k]!, io));
  }
  clearProgress();
  return failed;
}
