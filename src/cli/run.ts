/**
 * The CLI as a function: `run(argv, io)` returns the exit code. The entry point (`main.ts`) only
 * binds it to the process; tests call it directly with in-memory IO.
 *
 * A thin layer: parse options, read bytes, call the library, write the result. The commands
 * themselves are table entries (commands.ts); several inputs or a directory make a batch
 * (batch.ts). The library's modules are imported when a command needs them, so `--help` and
 * `--version` start instantly.
 *
 * Every failure is one line on standard error, `llvm-bytecode: error: FILE: MESSAGE`, where a
 * format error's MESSAGE ends in `(offset N, in BLOCK/PATH)`; exit code 1, or 2 for usage errors.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs, UsageError, type OptionSpec } from './args.js';
import { archiveOperandKind, readMemberOperand, splitMemberOperand } from './archive-inputs.js';
import type { ReadBounds } from './bounded-read.js';
import { LIMIT_OPTION, parseLimits } from './cli-limits.js';
import { boundsFor } from './input-kinds.js';
import { checkBatchOverInputs, planBatch, runBatch, startBatchWorkers } from './batch.js';
import { COMMANDS, convertFile, type CommandName, type CommandSpec, type Settings } from './commands.js';
import { describeAssemblyError, describeError, isAssemblyError } from './describe-error.js';
import { FileError } from './file-error.js';
import { refuseOutputOverInputs, STDIN_LABEL, STDOUT_LABEL } from './output-guard.js';

export { FileError } from './file-error.js';
import { AR_HELP, LINK_HELP, NM_HELP, OVERALL_HELP, TOOL } from './help.js';
import { STACKMAP_HELP } from './stackmap.js';
import type { CliIo } from './io.js';

export { describeError } from './describe-error.js';
export { hostTriple } from './commands.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export { STDOUT_LABEL };

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        io.stderr(OVERALL_HELP);
        return EXIT_USAGE;
      case '-h':
      case '--help':
      case 'help':
        return help(io, OVERALL_HELP);
      case '--version':
      case '-v':
      case '-V':
      case 'version':
        return version(io);
      case 'ar':
      case 'nm':
      case 'link':
      case 'stackmap': {
        // The same first steps as every command: usage when run bare, the same version line.
        const own = OWN_PARSERS[command];
        if (rest.length === 0 && (own.needsArguments || io.stdinIsTerminal?.() === true)) return usage(io, own.help);
        // (ar's first argument is its operation letters, `-tv` among them: only that one is looked at.)
        const options = command === 'ar' ? rest.slice(0, 1) : rest.slice(0, rest.includes('--') ? rest.indexOf('--') : rest.length);
        if (options.some((a) => VERSION_FLAGS.has(a))) return version(io);
        if (command === 'ar') return await (await import('./ar.js')).ar(rest, io);
        if (command === 'nm') return await (await import('./nm.js')).nm(rest, io);
        if (command === 'stackmap') return await (await import('./stackmap.js')).stackmap(rest, io);
        return await (await import('./link.js')).link(rest, io);
      }
      default:
        if (Object.hasOwn(COMMANDS, command)) return await runCommand(COMMANDS[command as CommandName], rest, io);
        throw new UsageError(
          `unknown command '${command}' (commands: ${[...Object.keys(COMMANDS), 'ar', 'nm', 'link', 'stackmap'].join(', ')}; see '${TOOL} --help')`,
        );
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`${TOOL}: error: ${e.message}\n`);
      return EXIT_USAGE;
    }
    if (e instanceof FileError) {
      // Bad assembly text shows where, as a compiler does; everything else is one line.
      if (isAssemblyError(e.original)) io.stderr(`${TOOL}: error: ${describeAssemblyError(e.file, e.original)}\n`);
      else io.stderr(`${TOOL}: error: ${e.file}: ${e.message}\n`);
      return EXIT_FAILURE;
    }
    io.stderr(`${TOOL}: error: ${describeError(e)}\n`);
    return EXIT_FAILURE;
  }
}

/** The commands that parse their own arguments, in LLVM's tools' syntax. */
const OWN_PARSERS = {
  ar: { help: AR_HELP, needsArguments: true },
  nm: { help: NM_HELP, needsArguments: false },
  link: { help: LINK_HELP, needsArguments: true },
  stackmap: { help: STACKMAP_HELP, needsArguments: true },
} as const;

/** Every command's spelling of "print the version". */
const VERSION_FLAGS = new Set(['-v', '-V', '--version']);

// ---------------------------------------------------------------------------------------------
// Options every file command takes

const HELP: OptionSpec = { name: 'help', short: 'h', takesValue: false };
const VERSION: OptionSpec = { name: 'version', short: 'v', takesValue: false };
const VERSION_V: OptionSpec = { name: 'version', short: 'V', takesValue: false };
const OUTPUT: OptionSpec = { name: 'output', short: 'o', takesValue: true };
const JOBS: OptionSpec = { name: 'jobs', short: 'j', takesValue: true };
/** The options every file command takes besides its own (`CommandSpec.options`). */
export const FILE_COMMAND_OPTIONS: readonly OptionSpec[] = [HELP, VERSION, VERSION_V, OUTPUT, JOBS, LIMIT_OPTION];

/**
 * One command: one input to one output (standard input and output by default), or a batch when
 * given several inputs or a directory.
 */
async function runCommand(spec: CommandSpec, argv: readonly string[], io: CliIo): Promise<number> {
  // Run bare, a command that needs a file, or that would wait for one to be typed, shows how to use it.
  if (argv.length === 0 && (spec.inputRequired || io.stdinIsTerminal?.() === true)) return usage(io, spec.help);
  const { options, positionals } = parseArgs(argv, [...FILE_COMMAND_OPTIONS, ...spec.options]);
  if (options.has('help')) return help(io, spec.help);
  if (options.has('version')) return version(io);
  const limits = parseLimits(stringOption(options, 'limit'));
  const settings: Settings = { ...spec.settings(options), limits };
  const jobsGiven = jobsOption(options);
  let output = stringOption(options, 'output');

  const only = positionals.length === 1 ? positionals[0]! : undefined;
  const onlyDirectory = only !== undefined && only !== '-' && io.isDirectory(only);
  // Before anything is read (even the first bytes that tell an archive): not over the input.
  if (only !== undefined && output !== undefined && !onlyDirectory) refuseOutputOverInputs([only], output, io);
  const archiveKind = only !== undefined && !onlyDirectory && spec.inputExtension === '.bc' ? archiveOperandKind(only, io) : undefined;
  if (archiveKind === 'archive' && spec.batchNeedsDirectory && output === undefined) {
    throw new UsageError(
      `${spec.name} of an archive writes each bytecode member to a directory: -o DIR, or name one member: '${only}(MEMBER)' (see '${TOOL} ar t ${only}')`,
    );
  }
  if (positionals.length > 1 || archiveKind === 'archive' || onlyDirectory) {
    if (output !== undefined) checkOutputDirectory(spec, output, io);
    checkBatchOverInputs(spec, settings, positionals, output, io);
    const jobs = jobsGiven ?? availableParallelism();
    startBatchWorkers(jobs, io);
    const files = await planBatch(spec, settings, positionals, output, io);
    if (files.length === 0) throw new FileError(positionals.join(', '), `no ${spec.inputKind === 'text' ? 'assembly text (.ll)' : 'bytecode'} files found`);
    const clash = files.find((f) => f.outputIsInput);
    if (clash) throw new FileError(clash.output!, `refusing to write over an input: it is ${clash.input} itself (nothing was read or written)`);
    const failed = await runBatch(settings, files, jobs, io);
    return failed ? EXIT_FAILURE : EXIT_OK;
  }

  const input = positionals[0] ?? (spec.inputRequired ? undefined : '-');
  if (input === undefined) throw new UsageError(`${spec.name} needs an input file (see '${TOOL} ${spec.name} --help')`);
  if (spec.outputRequired && output === undefined) throw new UsageError(`${spec.name} needs an output file: -o OUT (see '${TOOL} ${spec.name} --help')`);
  // `as FILE.ll` writes FILE.bc, as llvm-as did (which refused to replace a file it had not been named).
  if (spec.name === 'as' && output === undefined && input !== '-') {
    output = input.replace(/\.ll$/, '') + '.bc';
    if (io.identity?.(output) !== undefined) {
      throw new FileError(output, `already exists; 'as ${input}' writes it only when it is new: -o ${output} replaces it, -o - writes to standard output`);
    }
  }
  const target = output ?? '-';
  refuseOutputOverInputs([{ label: input, file: archiveKind === 'member' ? splitMemberOperand(input)!.archive : input }], target, io);
  if ((typeof spec.writesBytecode === 'function' ? spec.writesBytecode(settings) : spec.writesBytecode) && target === '-' && io.stdoutIsTerminal?.() === true) {
    throw new FileError(
      STDOUT_LABEL,
      `refusing to write ${spec.name === 'upgrade' ? 'bitcode' : 'bytecode'} to a terminal: give -o FILE, or send standard output to a file or a pipe`,
    );
  }
  const { label, bytes } =
    archiveKind === 'member'
      ? await readMemberOperand(input, io, limits)
      : { label: labelOf(input), bytes: await readInput(input, io, boundsFor(spec.inputKind, limits)) };
  const converted = await convertFile(settings, bytes, label, { stream: true });
  if (converted.listing !== undefined) {
    writeListing(target, converted.listing, io, label);
    return EXIT_OK;
  }
  const failed = 'error' in converted;
  // To standard output, what there is (an analysis up to the damage); to a file, only a success.
  if (converted.output !== undefined && (!failed || target === '-')) writeOutput(target, converted.output, io);
  if (failed) throw new FileError(label, converted.error);
  return EXIT_OK;
}

/**
 * A batch writes one file per input into a directory: an `-o` that is a file, or that is missing
 * and named like one (`out.ll`, `out.bc`), is a slip, refused rather than made a directory.
 */
function checkOutputDirectory(spec: CommandSpec, output: string, io: CliIo): void {
  if (output === '-' || io.isDirectory(output)) return;
  const exists = io.identity?.(output) !== undefined;
  if (exists || /\.(ll|bc|txt|json|a)$/i.test(output)) {
    throw new UsageError(
      `${spec.name} of several files writes one file per input into a directory, and '${output}' ${exists ? 'is a file' : 'is named like a file'}: give a directory, e.g. -o ${output.replace(/\.[^./]*$/, '') || 'out'}/ (see '${TOOL} ${spec.name} --help')`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Help asked for: standard output, as UTF-8 (the texts hold arrows and dashes), exit 0. */
function help(io: CliIo, text: string): number {
  io.stdout(Buffer.from(text, 'utf8'));
  return EXIT_OK;
}

/** A command run without what it needs: its help on standard error, exit status 2. */
function usage(io: CliIo, text: string): number {
  io.stderr(text);
  return EXIT_USAGE;
}

function version(io: CliIo): number {
  io.stdout(`${TOOL} ${packageVersion()}\n`);
  return EXIT_OK;
}

function stringOption(options: Map<string, string | true>, name: string): string | undefined {
  const v = options.get(name);
  return typeof v === 'string' ? v : undefined;
}

/**
 * `--jobs N`: worker threads for a batch; undefined when not given (then one per core, asked of
 * node:os only by a batch: the bundle loads that module on first use).
 */
function jobsOption(options: Map<string, string | true>): number | undefined {
  const v = stringOption(options, 'jobs');
  if (v === undefined) return undefined;
  if (!/^[1-9][0-9]{0,3}$/.test(v)) throw new UsageError(`option '--jobs' must be a whole number from 1 to 9999, not '${v}'`);
  return Number(v);
}

function labelOf(path: string): string {
  return path === '-' ? STDIN_LABEL : path;
}

async function readInput(path: string, io: CliIo, bounds: ReadBounds): Promise<Uint8Array> {
  // A user who typed `llvm-bytecode dis -` alone would otherwise wait in silence.
  if (path === '-' && io.stdinIsTerminal?.()) io.stderr(`${TOOL}: reading from standard input (end with Ctrl-D; see '${TOOL} --help')\n`);
  try {
    return path === '-' ? await io.readStdin(bounds) : io.readFile(path, bounds);
  } catch (e) {
    throw new FileError(labelOf(path), e);
  }
}

/** An error of the printer's while the listing was being written (not one of the writing). */
class ListingFailure {
  constructor(readonly error: unknown) {}
}

function* failuresMarked(chunks: Iterable<Uint8Array>): Generator<Uint8Array, void, undefined> {
  try {
    yield* chunks;
  } catch (e) {
    throw new ListingFailure(e);
  }
}

/**
 * Writes `dis`'s listing chunk by chunk as it is printed, so that only one chunk of it is held.
 * A file is still replaced whole or not at all; on standard output, a printer's refusal of a
 * damaged module comes after the part printed before it.
 */
function writeListing(path: string, chunks: Iterable<Uint8Array>, io: CliIo, label: string): void {
  try {
    if (path === '-') {
      for (const chunk of failuresMarked(chunks)) {
        try {
          // A chunk is a view of the printer's buffer, valid until the next is printed.
          if (io.stdoutNow) io.stdoutNow(chunk);
          else io.stdout(chunk.slice());
        } catch (e) {
          throw new FileError(STDOUT_LABEL, e, 'cannot write output');
        }
      }
      return;
    }
    try {
      io.writeFile(path, failuresMarked(chunks));
    } catch (e) {
      if (e instanceof ListingFailure) throw e;
      throw new FileError(path, e, 'cannot write output');
    }
  } catch (e) {
    if (e instanceof ListingFailure) throw new FileError(label, e.error);
    throw e;
  }
}

function writeOutput(path: string, data: string | Uint8Array, io: CliIo): void {
  if (path === '-') {
    try {
      io.stdout(data);
    } catch (e) {
      throw new FileError(STDOUT_LABEL, e, 'cannot write output');
    }
    return;
  }
  try {
    io.writeFile(path, data);
  } catch (e) {
    throw new FileError(path, e, 'cannot write output');
  }
}

function packageVersion(): string {
  // dist/cli/main.js (the bundle), dist/cli/run.js and src/cli/run.ts all sit two levels below
  // the package root.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'latin1')) as { version?: string };
  return pkg.version ?? 'unknown';
}
