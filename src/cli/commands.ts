/**
 * The file commands, each as a table entry: its options, how they become settings (plain
 * data, so a batch can send them to worker threads), and what one file becomes. The one-file
 * command and the batch both call `convertFile`, so a batch's outputs are the one-file command's,
 * byte for byte.
 *
 * Adding an option to a command: its `OptionSpec` in `options`, its value in the command's settings
 * (`settings`), and its use in `convertFile`.
 */
import { UsageError, type OptionSpec } from './args.js';
import { EncodeError } from '../encode/encode-error.js';
import { DEFAULT_TRIPLE } from '../modern/triple.js';
import { NO_LIMITS_GIVEN, type CliLimits } from './cli-limits.js';
import type { InputKind } from './input-kinds.js';
import { loadAnalyzer, loadPrinter, loadReader, loadUpgrader } from './engines.js';
import { ANALYZE_HELP, AS_HELP, DIS_HELP, REWRITE_HELP, UPGRADE_HELP } from './help.js';
import { DEFAULT_LLVM, NEWEST_LLVM, OLDEST_LLVM } from '../modern/llvm-versions.js';

/** The versions `upgrade --llvm` takes (13 … 22). */
const LLVM_CHOICES = Array.from({ length: NEWEST_LLVM - OLDEST_LLVM + 1 }, (_, i) => String(OLDEST_LLVM + i));

export type CommandName = 'dis' | 'rewrite' | 'analyze' | 'upgrade' | 'as';

type Dialect = '1.1' | '1.2' | '1.3' | '1.8' | '1.9' | '2.0';

/** A command's settings: plain data (a batch sends them to its threads), with the `--limit`s given. */
export type Settings = CommandSettings & { readonly limits?: CliLimits };

type CommandSettings =
  | { command: 'dis'; syntax: '1.9' | 'native' }
  | {
      command: 'rewrite';
      bytecodeVersion: number | undefined;
      compression: 'keep' | 'auto' | 'llvm' | 'none' | 'bzip2';
      dropTarget: boolean;
      dropDeplibs: boolean;
    }
  | { command: 'analyze'; format: 'summary' | 'dump' | 'json' }
  | { command: 'upgrade'; triple: string; exceptions: 'native' | 'abort'; llvm: number; emit: 'text' | 'bitcode' }
  | { command: 'as'; bytecodeVersion: number | undefined; dialect: Dialect | undefined; compression: 'auto' | 'none' | 'bzip2' };

export type Options = Map<string, string | true>;

export interface CommandSpec {
  readonly name: CommandName;
  readonly help: string;
  /** The command's own options (help, -o, --jobs are added for every command). */
  readonly options: readonly OptionSpec[];
  /** One-file use: true when the input must be named (false: standard input by default). */
  readonly inputRequired: boolean;
  /** One-file use: true when `-o` must be given (false: standard output by default). */
  readonly outputRequired: boolean;
  /** Batch use: true when `-o DIR` must be given (false: the outputs go to standard output, in order). */
  readonly batchNeedsDirectory: boolean;
  settings(options: Options): Settings;
  /** The batch output's file name for an input's (relative) name. */
  outputName(relative: string, settings: Settings): string;
  /** What a directory of a batch contributes: the files whose names end so (and, for bytecode, any file with its signature). */
  readonly inputExtension: string;
  /** What the input may be, checked on its first bytes before the rest is read. */
  readonly inputKind: InputKind;
  /** The output is bytecode (or, for some settings, bitcode): never written to a terminal. */
  readonly writesBytecode: boolean | ((settings: Settings) => boolean);
}

/** `name.bc` → `name.EXT` (a name without `.bc` keeps it whole and gains the extension). */
function replaceBc(relative: string, extension: string): string {
  return relative.replace(/\.bc$/, '') + extension;
}

export const COMMANDS: Record<CommandName, CommandSpec> = {
  dis: {
    name: 'dis',
    help: DIS_HELP,
    options: [{ name: 'syntax', takesValue: true, choices: ['1.9', 'native'] }],
    inputRequired: false,
    outputRequired: false,
    batchNeedsDirectory: true,
    settings: (o) => ({ command: 'dis', syntax: o.get('syntax') === 'native' ? 'native' : '1.9' }),
    outputName: (relative) => replaceBc(relative, '.ll'),
    inputExtension: '.bc',
    inputKind: 'bytecode',
    writesBytecode: false,
  },
  rewrite: {
    name: 'rewrite',
    help: REWRITE_HELP,
    options: [
      { name: 'bytecode-version', takesValue: true, choices: ['0', '1', '3', '5', '6', '7'] },
      { name: 'compress', takesValue: true, choices: ['auto', 'llvm', 'none', 'bzip2'] },
      { name: 'drop-target', takesValue: false },
      { name: 'drop-deplibs', takesValue: false },
    ],
    inputRequired: true,
    outputRequired: true,
    batchNeedsDirectory: true,
    settings: (o) => {
      const requested = o.get('bytecode-version');
      const compression = o.get('compress');
      return {
        command: 'rewrite',
        bytecodeVersion: typeof requested === 'string' ? Number(requested) : undefined,
        // Without --compress, a file written at its own version keeps its container (see convertFile).
        compression: typeof compression === 'string' ? (compression as 'auto' | 'llvm' | 'none' | 'bzip2') : 'keep',
        dropTarget: o.has('drop-target'),
        dropDeplibs: o.has('drop-deplibs'),
      };
    },
    outputName: (relative) => relative,
    inputExtension: '.bc',
    inputKind: 'bytecode',
    writesBytecode: true,
  },
  analyze: {
    name: 'analyze',
    help: ANALYZE_HELP,
    options: [
      { name: 'dump', takesValue: false },
      { name: 'json', takesValue: false },
    ],
    inputRequired: false,
    outputRequired: false,
    batchNeedsDirectory: false,
    settings: (o) => {
      if (o.has('dump') && o.has('json')) throw new UsageError('--dump and --json cannot be combined');
      return { command: 'analyze', format: o.has('dump') ? 'dump' : o.has('json') ? 'json' : 'summary' };
    },
    // The corpus's names for llvm-bcanalyzer's outputs.
    outputName: (relative, s) =>
      replaceBc(
        relative,
        s.command === 'analyze' && s.format === 'json' ? '.bca.json' : s.command === 'analyze' && s.format === 'dump' ? '.bcadump.txt' : '.bca.txt',
      ),
    inputExtension: '.bc',
    inputKind: 'bytecode',
    writesBytecode: false,
  },
  upgrade: {
    name: 'upgrade',
    help: UPGRADE_HELP,
    options: [
      { name: 'triple', takesValue: true },
      { name: 'exceptions', takesValue: true, choices: ['native', 'abort'] },
      { name: 'llvm', takesValue: true, choices: LLVM_CHOICES },
      { name: 'emit', takesValue: true, choices: ['text', 'bitcode'] },
    ],
    inputRequired: false,
    outputRequired: false,
    batchNeedsDirectory: true,
    settings: (o) => {
      const triple = o.get('triple');
      const exceptions = o.get('exceptions');
      const llvm = o.get('llvm');
      const emit = o.get('emit');
      const output = o.get('output');
      return {
        command: 'upgrade',
        triple: tripleChoice(typeof triple === 'string' ? triple : DEFAULT_TRIPLE),
        exceptions: exceptions === 'abort' ? 'abort' : 'native',
        llvm: typeof llvm === 'string' ? Number(llvm) : DEFAULT_LLVM,
        // `-o FILE.bc` asks for bitcode; --emit says so whatever the name.
        emit: emit === 'bitcode' || emit === 'text' ? emit : typeof output === 'string' && /\.bc$/i.test(output) ? 'bitcode' : 'text',
      };
    },
    outputName: (relative, s) => replaceBc(relative, s.command === 'upgrade' && s.emit === 'bitcode' ? '.bc' : '.ll'),
    inputExtension: '.bc',
    inputKind: 'bytecode-or-text',
    writesBytecode: (s) => s.command === 'upgrade' && s.emit === 'bitcode',
  },
  as: {
    name: 'as',
    help: AS_HELP,
    options: [
      { name: 'bytecode-version', takesValue: true, choices: ['0', '1', '3', '5', '6', '7'] },
      { name: 'dialect', takesValue: true, choices: ['1.1', '1.2', '1.3', '1.8', '1.9', '2.0'] },
      { name: 'compress', takesValue: true, choices: ['auto', 'none', 'bzip2'] },
    ],
    inputRequired: false,
    outputRequired: false,
    batchNeedsDirectory: true,
    settings: (o) => {
      const requested = o.get('bytecode-version');
      const dialect = o.get('dialect');
      const compression = o.get('compress');
      return {
        command: 'as',
        bytecodeVersion: typeof requested === 'string' ? Number(requested) : undefined,
        dialect: typeof dialect === 'string' ? (dialect as Dialect) : undefined,
        compression: typeof compression === 'string' ? (compression as 'auto' | 'none' | 'bzip2') : 'auto',
      };
    },
    outputName: (relative) => relative.replace(/\.ll$/, '') + '.bc',
    inputExtension: '.ll',
    inputKind: 'text',
    writesBytecode: true,
  },
};

/**
 * What one input became: the output (absent when the file failed before producing any), and the
 * error when it failed. Only `analyze` has both: the figures up to the damage, then the error, as
 * llvm-bcanalyzer printed them.
 */
export interface Converted {
  readonly output?: string | Uint8Array;
  /**
   * `dis` asked to stream: the listing as it is printed, in chunks of latin1 bytes, instead of
   * `output`. Iterating prints; a printer's refusal (a damaged module) is thrown between chunks.
   */
  readonly listing?: Iterable<Uint8Array>;
  readonly error?: unknown;
}

/** How the caller of convertFile takes the output. */
export interface ConvertOptions {
  /**
   * Take `dis`'s listing as chunks to write as they come (`Converted.listing`), so that the
   * whole text never exists at once (a large module's listing is many times its bytecode).
   */
  readonly stream?: boolean;
}

/**
 * One input file's bytes to its output, as the command prints or writes it. `label` names the
 * file inside the output where LLVM's tools named it (the analyzer's summary).
 */
export async function convertFile(settings: Settings, bytes: Uint8Array, label: string, options: ConvertOptions = {}): Promise<Converted> {
  const { reader: limits, assembly: assemblyLimits } = settings.limits ?? NO_LIMITS_GIVEN;
  switch (settings.command) {
    case 'dis': {
      // Load the printer and the reader together. The printer's promise is awaited only after a
      // successful read, so a failure to load it must not count as unhandled in the meantime.
      const printer = loadPrinter();
      printer.catch(() => undefined);
      const { readModule } = await loadReader();
      try {
        const module = readModule(bytes, { limits });
        // Each chunk is written out before the next is printed: one buffer serves them all.
        if (options.stream) return { listing: (await printer).printListingChunks(module, settings.syntax, undefined, true) };
        return { output: await printListing(await printer, module, settings.syntax) };
      } catch (error) {
        return { error };
      }
    }
    case 'rewrite': {
      const [{ readModule }, { writeModuleAsync, SUPPORTED_VERSIONS }] = await Promise.all([import('../read.js'), import('../encode/write.js')]);
      try {
        const module = readModule(bytes, { limits });
        // Versions 0 and 1 have no field for these: leaving them out is the user's decision, never ours.
        if (settings.dropTarget) module.targetTriple = '';
        if (settings.dropDeplibs) module.dependentLibraries = [];
        const own = module.source?.bytecodeVersion;
        const bytecodeVersion = settings.bytecodeVersion ?? (own !== undefined && SUPPORTED_VERSIONS.has(own) ? own : 6);
        // Signless integers (version 7) from an LLVM 1.x module: llvm-upgrade's conversion (src/convert).
        const signless = (await import('../format/format-table.js')).formatFor(bytecodeVersion)?.signlessIntegers === true;
        const target = signless ? (await import('../convert/to-version7.js')).convertToVersion7(module) : module;
        // Rewritten at its own version with no --compress, a file keeps its container (bare, llvc0,
        // zlib or bzip2), so that what LLVM wrote comes back byte for byte; at another version,
        // LLVM's own choice for that version.
        const container = module.source?.compression;
        if (settings.compression === 'keep' && bytecodeVersion === own && container !== undefined && container !== 'none') {
          const [stream, { wrapContainerAsync }] = await Promise.all([
            writeModuleAsync(target, { bytecodeVersion, compression: 'none' }),
            import('../container/index.js'),
          ]);
          return { output: await wrapContainerAsync(stream, container) };
        }
        const compression = settings.compression === 'keep' ? (bytecodeVersion === own ? 'none' : 'auto') : settings.compression;
        return { output: await writeModuleAsync(target, { bytecodeVersion, compression }) };
      } catch (error) {
        return { error: withRewriteHint(error) };
      }
    }
    case 'analyze': {
      const analyzer = await loadAnalyzer();
      try {
        // The analyzer does not throw on a damaged file: it returns the figures up to the damage
        // and says where it stopped, as llvm-bcanalyzer printed its partial figures.
        // (With --dump the file is walked twice, once for the listing: cheap, and it keeps the
        // CLI on the analyzer's public functions.)
        const analyzeOptions = { moduleId: label, ...(limits.maxDecompressedSize === undefined ? {} : { maxDecompressedSize: limits.maxDecompressedSize }) };
        const analysis = analyzer.analyzeBytes(bytes, analyzeOptions);
        const output =
          settings.format === 'dump'
            ? analyzer.dumpAnalysis(bytes, analyzeOptions)
            : settings.format === 'json'
              ? analyzer.analysisToJson(analysis, 2) + '\n'
              : analyzer.formatAnalysis(analysis);
        const failure = analysis.error;
        if (!failure) return { output };
        // One reader, one story: the error line is the reader's, as `dis` reports it (same wording,
        // offset and block path); the analyzer's figures up to the damage, in llvm-bcanalyzer's
        // words, come first. Input that is not bytecode at all has no figures to show: the error alone.
        const [{ readModule }, { BytecodeError }] = await Promise.all([import('../read.js'), import('../errors/bytecode-error.js')]);
        let first: unknown = new BytecodeError(failure.reason, failure.offset, failure.blockPath);
        try {
          readModule(bytes, { limits });
        } catch (e) {
          if (e instanceof BytecodeError) first = e;
        }
        return failure.phase !== 'container' && analysis.blocks.length > 0 ? { output, error: first } : { error: first };
      } catch (error) {
        return { error };
      }
    }
    case 'as': {
      try {
        const [{ detectDialect, dialectForVersion, llvm2ModuleForVersion, DIALECT_VERSION }, { writeModuleAsync }] = await Promise.all([
          import('../asm/index.js'),
          import('../encode/write.js'),
        ]);
        const text = latin1Text(bytes);
        // Without --dialect, the release that wrote the asked-for version reads the text (as its
        // llvm-as would have), unless the text says otherwise.
        const dialect = settings.dialect ?? (settings.bytecodeVersion !== undefined ? dialectForVersion(text, settings.bytecodeVersion) : detectDialect(text));
        const module = await assemble(text, label, dialect, assemblyLimits);
        // The default version is what that release's llvm-as wrote.
        const bytecodeVersion = settings.bytecodeVersion ?? DIALECT_VERSION[dialect];
        // 1.x text asked to become version 7: llvm-upgrade's conversion, as `rewrite` does. LLVM 2.0
        // text asked for a 1.x version: refused, naming the first construct 1.x lacks.
        const target =
          dialect === '2.0'
            ? llvm2ModuleForVersion(module, bytecodeVersion)
            : bytecodeVersion === 7
              ? (await import('../convert/to-version7.js')).convertToVersion7(module)
              : module;
        return { output: await writeModuleAsync(target, { bytecodeVersion, compression: settings.compression }) };
      } catch (error) {
        return { error };
      }
    }
    case 'upgrade': {
      const upgrader = loadUpgrader();
      upgrader.catch(() => undefined); // awaited only after a successful read (see dis)
      try {
        // Bytecode, or LLVM 1.x assembly text of any release (what llvm-upgrade never managed).
        const module = looksLikeAssembly(bytes)
          ? await assemble(latin1Text(bytes), label, undefined, assemblyLimits)
          : (await import('../read.js')).readModule(bytes, { limits });
        const modernOptions = { triple: settings.triple, exceptions: settings.exceptions, llvm: settings.llvm };
        const upgrade = await upgrader;
        return { output: settings.emit === 'bitcode' ? upgrade.writeModern(module, modernOptions) : upgrade.printModern(module, modernOptions) };
      } catch (error) {
        return { error };
      }
    }
  }
}

/**
 * Assembly text rather than bytecode: no bytecode or archive signature, no NUL byte in the first
 * 4 KiB, and the first thing in it is a comment, a name (`%`, or LLVM 2.0's `@`) or a word.
 */
function looksLikeAssembly(bytes: Uint8Array): boolean {
  const head = String.fromCharCode(...bytes.subarray(0, 7));
  if (head.startsWith('llvm') || head.startsWith('llvc') || head === '!<arch>') return false;
  const sample = bytes.subarray(0, 4096);
  if (sample.length === 0 || sample.includes(0)) return false;
  let i = 0;
  while (i < sample.length && (sample[i] === 0x20 || sample[i] === 0x09 || sample[i] === 0x0a || sample[i] === 0x0d)) i++;
  const c = sample[i] ?? 0;
  return c === 0x3b /* ; */ || c === 0x25 /* % */ || c === 0x40 /* @, LLVM 2.0's globals */ || c === 0x22 /* " */ || (c >= 0x61 && c <= 0x7a);
}

/** A file's text, one character per byte (names are raw bytes), decoded once per command. */
function latin1Text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** The module a text (`latin1Text`) describes. */
async function assemble(
  text: string,
  label: string,
  dialect: Dialect | undefined,
  limits: CliLimits['assembly'],
): Promise<import('../graph/module.js').Module> {
  const { parseAssembly } = await import('../asm/index.js');
  return parseAssembly(text, { fileName: label, limits, ...(dialect === undefined ? {} : { dialect }) });
}

/**
 * The listing `dis` prints for a module: the one place the CLI calls the printer. The printer's
 * chunks of latin1 bytes are joined into one array, never a string: the listing is written as it
 * was printed, with no copy into another encoding on the way out.
 */
async function printListing(
  printer: Awaited<ReturnType<typeof loadPrinter>>,
  module: Parameters<typeof printer.printListing>[0],
  syntax: '1.9' | 'native',
): Promise<Uint8Array> {
  const chunks = [...printer.printListingChunks(module, syntax)];
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * The `--triple` of `upgrade`: `keep`, `none`, `host` (this machine's triple) or a triple. Checked
 * here for the shape LLVM's triples have (ARCH-VENDOR-OS…), so a typo is a usage error.
 */
function tripleChoice(value: string): string {
  if (value === 'keep' || value === 'none') return value;
  if (value === 'host') return hostTriple();
  if (!/^[A-Za-z0-9_.]+(-[A-Za-z0-9_.]+){1,4}$/.test(value)) {
    throw new UsageError(`option '--triple' must be keep, host, none or a target triple such as x86_64-pc-linux-gnu, not '${value}'`);
  }
  return value;
}

/** The triple of the machine running this command, in LLVM's spelling. */
export function hostTriple(arch: string = process.arch, platform: string = process.platform): string {
  const cpu: Record<string, string> = {
    x64: 'x86_64',
    ia32: 'i686',
    arm64: 'aarch64',
    arm: 'armv7',
    ppc64: 'powerpc64le',
    s390x: 's390x',
    riscv64: 'riscv64',
    loong64: 'loongarch64',
  };
  const os: Record<string, string> = {
    linux: 'unknown-linux-gnu',
    darwin: 'apple-darwin',
    win32: 'pc-windows-msvc',
    freebsd: 'unknown-freebsd',
    openbsd: 'unknown-openbsd',
    netbsd: 'unknown-netbsd',
  };
  return `${cpu[arch] ?? arch}-${os[platform] ?? `unknown-${platform}`}`;
}

/** A version-0/1 refusal of the triple or the libraries, with the option that leaves them out. */
function withRewriteHint(e: unknown): unknown {
  if (!(e instanceof EncodeError)) return e;
  const construct = e.construct;
  const option = construct.startsWith('the target triple') ? '--drop-target' : construct.startsWith('dependent libraries') ? '--drop-deplibs' : undefined;
  if (option) e.message += ` (${option} leaves it out)`;
  return e;
}
