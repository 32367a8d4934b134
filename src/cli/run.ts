/**
 * The CLI as a function: `run(argv, io)` returns the exit code. The entry point (`main.ts`) only
 * binds it to the process; tests call it directly with in-memory IO.
 *
 * A thin layer: parse options, read bytes, call the library, write the result. The library's
 * modules are imported when a command needs them, so `--help` and `--version` start instantly.
 *
 * Every failure is one line on standard error, `llvm-bytecode: error: FILE: MESSAGE`, where a
 * format error's MESSAGE ends in `(offset N, in BLOCK/PATH)`; exit code 1, or 2 for usage errors.
 */
import { readFileSync } from 'node:fs';
import { parseArgs, UsageError, type OptionSpec } from './args.js';
import { ANALYZE_HELP, DIS_HELP, OVERALL_HELP, REWRITE_HELP, TOOL, UPGRADE_HELP } from './help.js';
import { loadAnalyzer, loadPrinter, loadUpgrader, type Analyzer } from './engines.js';
import type { CliIo } from './io.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** The label for standard input in messages, as llvm-dis showed it in `; ModuleID`. */
const STDIN_LABEL = '<stdin>';

/** An error already tied to the file it concerns (input or output). */
export class FileError extends Error {
  constructor(
    readonly file: string,
    readonly original: unknown,
  ) {
    super(describeError(original));
  }
}

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
        io.stdout(OVERALL_HELP);
        return EXIT_OK;
      case '--version':
      case '-V':
        io.stdout(`${TOOL} ${packageVersion()}\n`);
        return EXIT_OK;
      case 'dis':
        return await dis(rest, io);
      case 'rewrite':
        return await rewrite(rest, io);
      case 'analyze':
        return await analyze(rest, io);
      case 'upgrade':
        return await upgrade(rest, io);
      case 'ar':
        return await (await import('./ar.js')).ar(rest, io);
      case 'nm':
        return await (await import('./nm.js')).nm(rest, io);
      default:
        throw new UsageError(`unknown command '${command}' (commands: dis, rewrite, analyze, upgrade, ar, nm; see '${TOOL} --help')`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`${TOOL}: error: ${e.message}\n`);
      return EXIT_USAGE;
    }
    if (e instanceof FileError) {
      io.stderr(`${TOOL}: error: ${e.file}: ${e.message}\n`);
      return EXIT_FAILURE;
    }
    io.stderr(`${TOOL}: error: ${describeError(e)}\n`);
    return EXIT_FAILURE;
  }
}

// ---------------------------------------------------------------------------------------------
// Commands

const HELP: OptionSpec = { name: 'help', short: 'h', takesValue: false };
const OUTPUT: OptionSpec = { name: 'output', short: 'o', takesValue: true };

async function dis(argv: readonly string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [HELP, OUTPUT, { name: 'syntax', takesValue: true, choices: ['1.9', 'native'] }]);
  if (options.has('help')) return help(io, DIS_HELP);
  const input = oneInput(positionals, 'dis', false);
  const syntax = options.get('syntax') === 'native' ? 'native' : '1.9';
  const output = stringOption(options, 'output') ?? '-';

  const bytes = await readInput(input, io);
  // Load the printer and the reader together. The printer's promise is awaited only after a
  // successful read, so a failure to load it must not count as unhandled in the meantime.
  const printer = loadPrinter();
  printer.catch(() => undefined);
  const { readModule } = await import('../read.js');
  let text: string;
  try {
    const module = readModule(bytes);
    text = (await printer).printModule(module, { syntax });
  } catch (e) {
    throw new FileError(labelOf(input), e);
  }
  writeOutput(output, text, io);
  return EXIT_OK;
}

async function rewrite(argv: readonly string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [
    HELP,
    OUTPUT,
    { name: 'bytecode-version', takesValue: true, choices: ['0', '1', '3', '5', '6'] },
    { name: 'compress', takesValue: true, choices: ['auto', 'none', 'bzip2'] },
  ]);
  if (options.has('help')) return help(io, REWRITE_HELP);
  const input = oneInput(positionals, 'rewrite', true);
  const output = stringOption(options, 'output');
  if (output === undefined) throw new UsageError(`rewrite needs an output file: -o OUT (see '${TOOL} rewrite --help')`);
  const requested = stringOption(options, 'bytecode-version');
  const compression = (stringOption(options, 'compress') ?? 'auto') as 'auto' | 'none' | 'bzip2';

  const bytes = await readInput(input, io);
  const [{ readModule }, { writeModuleAsync, SUPPORTED_VERSIONS }] = await Promise.all([import('../read.js'), import('../encode/write.js')]);
  let out: Uint8Array;
  try {
    const module = readModule(bytes);
    const own = module.source?.bytecodeVersion;
    const bytecodeVersion = requested !== undefined ? Number(requested) : own !== undefined && SUPPORTED_VERSIONS.has(own) ? own : 6;
    out = await writeModuleAsync(module, { bytecodeVersion, compression });
  } catch (e) {
    throw new FileError(labelOf(input), e);
  }
  writeOutput(output, out, io);
  return EXIT_OK;
}

async function analyze(argv: readonly string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [HELP, { name: 'dump', takesValue: false }, { name: 'json', takesValue: false }]);
  if (options.has('help')) return help(io, ANALYZE_HELP);
  const input = oneInput(positionals, 'analyze', false);
  if (options.has('dump') && options.has('json')) throw new UsageError('--dump and --json cannot be combined');

  const bytes = await readInput(input, io);
  const analyzer = await loadAnalyzer();
  const label = labelOf(input);
  let analysis: ReturnType<Analyzer['analyzeBytes']>;
  let text: string;
  try {
    // The analyzer does not throw on a damaged file: it returns the figures up to the damage and
    // says where it stopped, as llvm-bcanalyzer printed its partial figures.
    // (With --dump the file is walked twice, once for the listing: cheap, and it keeps the CLI on
    // the analyzer's public functions.)
    analysis = analyzer.analyzeBytes(bytes, { moduleId: label });
    if (options.has('dump')) text = analyzer.dumpAnalysis(bytes, { moduleId: label });
    else text = options.has('json') ? analyzer.analysisToJson(analysis, 2) + '\n' : analyzer.formatAnalysis(analysis);
  } catch (e) {
    throw new FileError(label, e);
  }
  io.stdout(text);
  if (analysis.error) {
    const { reason, offset, blockPath } = analysis.error;
    const { BytecodeError } = await import('../errors/bytecode-error.js');
    throw new FileError(label, new BytecodeError(reason, offset, blockPath));
  }
  return EXIT_OK;
}

async function upgrade(argv: readonly string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, [HELP, OUTPUT]);
  if (options.has('help')) return help(io, UPGRADE_HELP);
  const input = oneInput(positionals, 'upgrade', false);
  const output = stringOption(options, 'output') ?? '-';

  const bytes = await readInput(input, io);
  const upgrader = loadUpgrader();
  upgrader.catch(() => undefined); // awaited only after a successful read (see dis)
  const { readModule } = await import('../read.js');
  let text: string;
  try {
    const module = readModule(bytes);
    text = (await upgrader).printModern(module);
  } catch (e) {
    throw new FileError(labelOf(input), e);
  }
  writeOutput(output, text, io);
  return EXIT_OK;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function help(io: CliIo, text: string): number {
  io.stdout(text);
  return EXIT_OK;
}

/** The single input operand; `-` (or none, where allowed) is standard input. */
function oneInput(positionals: string[], command: string, required: boolean): string {
  if (positionals.length > 1) throw new UsageError(`${command} takes one input file, got ${positionals.length} (see '${TOOL} ${command} --help')`);
  const input = positionals[0];
  if (input === undefined) {
    if (required) throw new UsageError(`${command} needs an input file (see '${TOOL} ${command} --help')`);
    return '-';
  }
  return input;
}

function stringOption(options: Map<string, string | true>, name: string): string | undefined {
  const v = options.get(name);
  return typeof v === 'string' ? v : undefined;
}

function labelOf(path: string): string {
  return path === '-' ? STDIN_LABEL : path;
}

async function readInput(path: string, io: CliIo): Promise<Uint8Array> {
  try {
    return path === '-' ? await io.readStdin() : io.readFile(path);
  } catch (e) {
    throw new FileError(labelOf(path), e);
  }
}

function writeOutput(path: string, data: string | Uint8Array, io: CliIo): void {
  if (path === '-') {
    io.stdout(data);
    return;
  }
  try {
    io.writeFile(path, data);
  } catch (e) {
    throw new FileError(path, e);
  }
}

/** Plain words for the file-system errors a user meets; the library's own messages otherwise. */
const ERRNO_WORDS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'not a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
};

const USER_ERRORS = new Set(['BytecodeError', 'EncodeError', 'UpgradeError']);

/** One line describing any thrown value. */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code in ERRNO_WORDS) return ERRNO_WORDS[code]!;
    // The library's own errors are meant for users (a BytecodeError carries the offset and block
    // path; EncodeError and UpgradeError name what the target cannot express); anything else is
    // our bug, and says so.
    const known = USER_ERRORS.has(e.name) || typeof code === 'string';
    return oneLine(known ? e.message : `internal error (${e.name}): ${e.message}`);
  }
  return oneLine(`internal error: ${String(e)}`);
}

/**
 * Keeps a message on one line and harmless to a terminal: messages may quote names from the file,
 * which can hold any byte, so line breaks become spaces and other control bytes `\xNN`.
 */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function packageVersion(): string {
  // dist/cli/run.js and src/cli/run.ts both sit two levels below the package root.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'latin1')) as { version?: string };
  return pkg.version ?? 'unknown';
}
