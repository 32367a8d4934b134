/**
 * Batch mode: a command over several files and directories, `llvm-bytecode dis DIR -o OUTDIR`.
 *
 * - A directory stands for every input file under it, down to `MAX_WALK_DEPTH` levels: for the
 *   bytecode commands every file named `.bc` and every other file that starts with bytecode's
 *   signature (LLVM's own test suites kept files as `NAME.bc-NN`); for `as`, every `.ll` file.
 *   What is left out is counted by reason in one note on standard error (not the command's kind
 *   of input, a link to a directory, too deep, the output directory itself, unreadable). Each
 *   output keeps the file's path relative to that directory, under OUTDIR (missing directories are
 *   created). A file named directly keeps its own name.
 * - No output may be one of the inputs (the same file, through any link): the batch is refused
 *   before anything is read (run.ts).
 * - Files are converted by `--jobs N` threads (default the core count): this one and N - 1 worker
 *   threads (pool.ts says why this one works too); each output is exactly what the one-file
 *   command writes (both call `convertFile`).
 * - An archive stands for its bytecode members, `lib.a(member.bc)` for one member
 *   (archive-inputs.ts); their outputs are named after the members.
 * - A file that fails gives one error line, in the one-file command's format, and writes nothing;
 *   the others are still written. Exit status 1 if any failed.
 * - Whatever the threads' timing, messages and standard output come in the order of the inputs
 *   (directory contents sorted by name), and on a terminal a progress line is shown on stderr
 *   (files done of all, files per second, failures so far); nothing when stderr is not a terminal.
 */
import { basename, join, resolve, sep } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { UsageError } from './args.js';
import { convertFile, type CommandSpec, type Converted, type Settings } from './commands.js';
import { archiveInputs, archiveOperandKind, readMemberOperand, safeOutputName, skippedNote, splitMemberOperand } from './archive-inputs.js';
import { NO_LIMITS_GIVEN } from './cli-limits.js';
import { boundsFor, HEAD_LENGTH, isBytecodeHead } from './input-kinds.js';
import { describeError as describe } from './describe-error.js';
import { FileError } from './file-error.js';
import { TOOL } from './help.js';
import type { CliIo } from './io.js';
import { sameIdentity } from './output-guard.js';

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
  /** Nothing was at `output` when the batch was planned (its directory was listed then). */
  readonly outputAbsent?: boolean;
  /** `output` is the input itself (refused when the file's turn comes). */
  readonly outputIsInput?: boolean;
}

/** What one file of a batch came to, as a worker thread reports it. */
export interface BatchResult {
  /** The error line's message when the file failed (the line names the file itself). */
  readonly failure?: { file: string; message: string };
  /** Output for standard output (batches without an output directory). */
  readonly stdout?: string | Uint8Array;
}

/** What a file that went well and wrote its output says. */
const NOTHING: BatchResult = {};

/** A result a worker need not send back (nothing to print): `undefined` for the pool. */
export function worthSending(result: BatchResult): BatchResult | undefined {
  return result.failure === undefined && result.stdout === undefined ? undefined : result;
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

/** How deep a directory is walked: DIR's own files are level 1. Deeper directories are skipped, and counted. */
export const MAX_WALK_DEPTH = 32;

/** Why a walk left something out, in the words of its note. */
type SkipReason = 'not the input kind' | 'link to a directory' | 'too deep' | 'output directory' | 'unreadable';

/** What a walk of one directory found and left out. */
interface Walked {
  readonly found: { relative: string; size: number }[];
  readonly skipped: Map<SkipReason, number>;
  /** Files taken for their signature although not named like the input (`x.bc-01`), a few names. */
  readonly bySignature: { count: number; examples: string[] };
}

/**
 * The files of a batch, in the order of the operands (each directory's files sorted by path), with
 * their outputs. Throws a UsageError for what cannot be run at all (standard input, two inputs
 * with one output, no output directory where one is needed).
 */
export async function planBatch(
  spec: CommandSpec,
  settings: Settings,
  operands: readonly string[],
  outputDirectory: string | undefined,
  io: CliIo,
): Promise<BatchFile[]> {
  if (spec.batchNeedsDirectory && outputDirectory === undefined) {
    throw new UsageError(`${spec.name} of several files needs an output directory: -o DIR (see '${TOOL} ${spec.name} --help')`);
  }
  if (outputDirectory === '-') throw new UsageError(`${spec.name} of several files writes to a directory, not to standard output`);
  const files: BatchFile[] = [];
  let walked = false;
  for (const operand of operands) {
    if (operand === '-') throw new UsageError('standard input (-) cannot be one of several inputs');
    const archiveKind = spec.inputExtension === '.bc' ? archiveOperandKind(operand, io) : undefined;
    if (archiveKind !== undefined) {
      files.push(...(await archiveBatchFiles(spec, settings, operand, archiveKind, outputDirectory, io)));
      continue;
    }
    if (!io.isDirectory(operand)) {
      files.push({
        input: operand,
        output: outputDirectory === undefined ? undefined : join(outputDirectory, spec.outputName(basename(operand), settings)),
        size: 0,
      });
      continue;
    }
    walked = true;
    // join(DIR, relative) for thousands of names: the prefix once, then concatenation.
    const inputPrefix = joinPrefix(operand);
    const outputPrefix = outputDirectory === undefined ? undefined : joinPrefix(outputDirectory);
    const walkedDir = walk(operand, io, spec, outputDirectory);
    const note = walkNote(operand, spec, walkedDir);
    if (note !== undefined) io.stderr(`${TOOL}: note: ${note}\n`);
    for (const { relative, size } of walkedDir.found) {
      files.push({ input: inputPrefix + relative, output: outputPrefix === undefined ? undefined : outputPrefix + spec.outputName(relative, settings), size });
    }
  }
  if (outputDirectory === undefined) return files;
  // One directory's files have outputs of their own (distinct names ending in the input
  // extension make distinct output names); anything else is checked.
  if (!(operands.length === 1 && walked)) {
    const seen = new Map<string, string>();
    for (const f of files) {
      if (f.output === undefined) continue; // an archive member refused for its name
      const key = resolve(f.output);
      const earlier = seen.get(key);
      if (earlier !== undefined) throw new UsageError(`${earlier} and ${f.input} would both be written to ${f.output}`);
      seen.set(key, f.input);
    }
  }
  return withOutputFacts(files, io);
}

/**
 * Refuses, before anything is read or listed, a batch whose outputs would be its inputs where
 * that shows from the operands alone: a file whose output (in OUTDIR, under its own name) is the
 * file itself, or a directory that is OUTDIR for a command that keeps names (rewrite). (The
 * planned files are checked again, file by file, once listed.)
 */
export function checkBatchOverInputs(spec: CommandSpec, settings: Settings, operands: readonly string[], outputDirectory: string | undefined, io: CliIo): void {
  if (outputDirectory === undefined || !io.identity) return;
  const outDir = io.identity(outputDirectory);
  for (const operand of operands) {
    if (operand === '-') continue;
    const input = io.identity(operand);
    if (input === undefined) continue; // missing, or `lib.a(member)`: said when its turn comes
    const directory = io.isDirectory(operand);
    // A directory's files keep their names in OUTDIR only under a command that keeps names.
    const keepsNames = spec.outputName(`x${spec.inputExtension}`, settings) === `x${spec.inputExtension}`;
    const output = directory ? (keepsNames ? outDir : undefined) : io.identity(join(outputDirectory, spec.outputName(basename(operand), settings)));
    if (input !== undefined && output !== undefined && input.dev === output.dev && input.ino === output.ino) {
      const target = directory ? outputDirectory : join(outputDirectory, spec.outputName(basename(operand), settings));
      throw new FileError(
        target,
        `refusing to write over an input: it is ${operand} itself${directory ? ' (the outputs would replace the files read)' : ''} (nothing was read or written)`,
      );
    }
  }
}

/**
 * What `join(dir, name)` puts before a plain name (no separator, not `.` or `..`), so that
 * `joinPrefix(dir) + relative` is `join(dir, relative)` for a walk's clean relative paths. (A cold
 * path.join costs some 20,000 instructions: three per file were a tenth of a batch's planning.)
 */
function joinPrefix(dir: string): string {
  return join(dir, 'x').slice(0, -1);
}

/** Where a path's last name starts. */
function nameStart(path: string): number {
  return Math.max(path.lastIndexOf('/'), sep === '\\' ? path.lastIndexOf('\\') : -1) + 1;
}

/**
 * What the batch can know about its outputs before it starts, so that no file costs a look of its
 * own: which are missing (each output directory is listed once; a file's write then skips
 * looking up its target) and which would replace their input (possible only where the two names
 * are the same).
 */
function withOutputFacts(files: BatchFile[], io: CliIo): BatchFile[] {
  const namesIn = new Map<string, Set<string> | undefined>();
  const foldCase = process.platform === 'darwin' || process.platform === 'win32';
  const existingNames = (dir: string): Set<string> | undefined => {
    if (namesIn.has(dir)) return namesIn.get(dir);
    let names: Set<string> | undefined;
    try {
      // A directory that is missing has nothing in it; one that cannot be listed, unknown.
      names = new Set(io.isDirectory(dir) ? io.listDirectory(dir, { sizeOf: () => false }).map((e) => (foldCase ? e.name.toLowerCase() : e.name)) : []);
    } catch {
      names = undefined;
    }
    namesIn.set(dir, names);
    return names;
  };
  return files.map((f) => {
    if (f.output === undefined) return f;
    const at = nameStart(f.output);
    const name = f.output.slice(at);
    const names = existingNames(at === 0 ? '.' : f.output.slice(0, at));
    const outputAbsent = names !== undefined && !names.has(foldCase ? name.toLowerCase() : name);
    const outputIsInput = !outputAbsent && f.bytes === undefined && sameFile(f.input, f.output, io);
    return outputAbsent || outputIsInput ? { ...f, ...(outputAbsent ? { outputAbsent } : {}), ...(outputIsInput ? { outputIsInput } : {}) } : f;
  });
}

/** Whether two paths are one file: by device and inode where the file system says, else by name. */
function sameFile(a: string, b: string, io: CliIo): boolean {
  if (!io.identity) return resolve(a) === resolve(b);
  const x = io.identity(a);
  const y = io.identity(b);
  return x !== undefined && y !== undefined && sameIdentity(x, y);
}

/** The files an archive operand contributes: every bytecode member, or the one it names. */
async function archiveBatchFiles(
  spec: CommandSpec,
  settings: Settings,
  operand: string,
  kind: 'archive' | 'member',
  outputDirectory: string | undefined,
  io: CliIo,
): Promise<BatchFile[]> {
  const outputFor = (fileName: string | undefined): string | undefined =>
    outputDirectory === undefined || fileName === undefined ? undefined : join(outputDirectory, spec.outputName(fileName, settings));
  if (kind === 'member') {
    const { label, bytes } = await readMemberOperand(operand, io, settings.limits);
    const name = splitMemberOperand(operand)!.member;
    return [{ input: label, output: outputFor(safeOutputName(name)), size: bytes.length, bytes }];
  }
  let bytes: Uint8Array;
  try {
    bytes = io.readFile(operand, boundsFor('any', settings.limits ?? NO_LIMITS_GIVEN));
  } catch (e) {
    throw new FileError(operand, e);
  }
  const { members, skipped } = await archiveInputs(operand, bytes, settings.limits);
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

/**
 * Every input file under `root`, relative to it, sorted by path (bytewise, so stable everywhere),
 * and what was left out. A file not named like the input is looked at: its first bytes decide
 * (bytecode commands only; text has no signature to go by).
 */
function walk(root: string, io: CliIo, spec: CommandSpec, outputDirectory: string | undefined): Walked {
  const found: { relative: string; size: number }[] = [];
  const skipped = new Map<SkipReason, number>();
  const bySignature = { count: 0, examples: [] as string[] };
  const skip = (reason: SkipReason): void => void skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  const rootPrefix = joinPrefix(root);
  const sizeOf = (name: string): boolean => isInputName(name, spec);
  const bytecode = spec.inputKind !== 'text';
  const output = outputDirectory === undefined ? undefined : resolve(outputDirectory);
  // Names from a listing are plain (no separator, never . or ..): joining them is concatenating.
  const visit = (relative: string, depth: number): void => {
    const here = relative === '' ? root : rootPrefix + relative;
    for (const entry of io.listDirectory(here, { sizeOf })) {
      const path = relative === '' ? entry.name : relative + sep + entry.name;
      const full = rootPrefix + path;
      if (entry.directory) {
        if (output !== undefined && resolve(full) === output) skip('output directory');
        else if (depth >= MAX_WALK_DEPTH) skip('too deep');
        else visit(path, depth + 1);
      } else if (entry.linkToDirectory) skip('link to a directory');
      else if (isInputName(entry.name, spec)) found.push({ relative: path, size: entry.size });
      else if (!bytecode) skip('not the input kind');
      else {
        let head: Uint8Array;
        try {
          head = io.readPrefix ? io.readPrefix(full, HEAD_LENGTH) : io.readFile(full).subarray(0, HEAD_LENGTH);
        } catch {
          skip('unreadable');
          continue;
        }
        if (!isBytecodeHead(head)) {
          skip('not the input kind');
          continue;
        }
        found.push({ relative: path, size: entry.size });
        bySignature.count++;
        if (bySignature.examples.length < 3) bySignature.examples.push(path);
      }
    }
  };
  visit('', 1);
  return { found: found.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0)), skipped, bySignature };
}

/** The reasons' words in the note. */
const SKIP_WORDS: Record<SkipReason, (spec: CommandSpec) => string> = {
  'not the input kind': (spec) => (spec.inputKind === 'text' ? 'not named .ll' : 'not bytecode (neither named .bc nor starting with its signature)'),
  'link to a directory': () => 'links to directories (not followed)',
  'too deep': () => `deeper than ${MAX_WALK_DEPTH} levels`,
  'output directory': () => 'the output directory',
  unreadable: () => 'unreadable',
};

/** One note for a walked directory: what was taken by its signature and what was left out, by reason. */
function walkNote(root: string, spec: CommandSpec, walked: Walked): string | undefined {
  const parts: string[] = [];
  const { count, examples } = walked.bySignature;
  if (count > 0)
    parts.push(
      `${count} file${count === 1 ? '' : 's'} not named .bc taken for ${count === 1 ? 'its' : 'their'} bytecode signature (${examples.join(', ')}${count > examples.length ? ', …' : ''})`,
    );
  // In a fixed order, whatever order the directories were listed in.
  const left = (Object.keys(SKIP_WORDS) as SkipReason[]).filter((r) => walked.skipped.has(r)).map((r) => `${walked.skipped.get(r)!} ${SKIP_WORDS[r](spec)}`);
  const total = [...walked.skipped.values()].reduce((a, b) => a + b, 0);
  if (total > 0) parts.push(`${total} skipped: ${left.join(', ')}`);
  return parts.length === 0 ? undefined : `${root}: ${parts.join('; ')}`;
}

/** What each command reads (the table's, as plain data the worker threads have too). */
const COMMAND_INPUT = { dis: 'bytecode', rewrite: 'bytecode', analyze: 'bytecode', upgrade: 'bytecode-or-text', as: 'text' } as const;

/**
 * One file of a batch, start to end: read, convert, write. Runs in a worker thread or, without
 * threads, in this one; never throws (a failure is the result).
 */
export async function runBatchTask(task: BatchTask, io: CliIo): Promise<BatchResult> {
  const { settings, file } = task;
  if (file.refusal !== undefined) return { failure: { file: file.input, message: file.refusal } };
  let bytes: Uint8Array;
  try {
    bytes = file.bytes ?? io.readFile(file.input, boundsFor(COMMAND_INPUT[settings.command], settings.limits ?? NO_LIMITS_GIVEN));
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
    // (run.ts refuses such a batch before it starts; this is the net for any other caller.)
    if (file.outputIsInput) throw new UsageError(`refusing to write over an input: it is ${file.input} itself`);
    const at = nameStart(file.output);
    if (at > 1) io.makeDirectory(file.output.slice(0, at - 1));
    io.writeFile(file.output, converted.output, file.outputAbsent ? { known: 'absent' } : undefined);
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

let onTuning: (() => void) | undefined;

/**
 * `listener` is told before a batch changes V8's settings: a code cache written after that would
 * carry flags that the command's next run, started with V8's own, refuses (llvm-bytecode.cts).
 */
export function whenTunedForBatch(listener: () => void): void {
  onTuning = listener;
}

function tuneForBatch(): void {
  onTuning?.();
  setFlagsFromString(`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`);
  // An archive given alone is a batch started as a large input's run, without TurboFan's
  // inlining and with eager feedback (llvm-bytecode.cts): its threads run as every batch's, and
  // make the same cache.
  setFlagsFromString('--turbo-inlining --lazy-feedback-allocation');
}

/** The progress line: files done of all, the rate so far, failures so far. */
export function progressLine(done: number, total: number, failed: number, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const shown = rate >= 10 || rate === 0 ? Math.round(rate).toString() : rate.toFixed(1);
  return `${TOOL}: ${done}/${total} files, ${shown} files/s${failed ? `, ${failed} failed` : ''}`;
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
  // Asked once: the answer makes process.stderr, which every call would otherwise ask again.
  const terminal = io.stderrIsTerminal === true;
  const clearProgress = (): void => {
    if (progressShown) io.stderr('\r\x1b[K');
    progressShown = false;
  };
  const started = Date.now();
  const drawProgress = (): void => {
    if (!terminal) return;
    const now = Date.now();
    if (now - lastDrawn < PROGRESS_INTERVAL && completed < files.length) return;
    lastDrawn = now;
    io.stderr(`\r\x1b[K${progressLine(completed, files.length, failed, now - started)}`);
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
    await io.parallel.run<BatchTask, BatchResult>(tasks, {
      jobs,
      // A file written to its output directory has nothing to report: the workers do not send it.
      onResult: (k, result) => record(order[k]!, result ?? NOTHING),
      onLost: (k, error) => record(order[k]!, { failure: { file: files[order[k]!]!.input, message: describe(error) } }),
      // This thread is one of the `jobs`: it has the engines loaded and warmed up already.
      local: (task) => runBatchTask(task, io),
    });
  } else {
    for (let k = 0; k < tasks.length; k++) record(order[k]!, await runBatchTask(tasks[k]!, io));
  }
  clearProgress();
  return failed;
}
