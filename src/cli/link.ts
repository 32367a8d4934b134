/**
 * `llvm-bytecode link A.bc B.bc … -o OUT.bc`: LLVM 1.9's `llvm-link` (src/link). The output is
 * what llvm-link wrote (version 6, bzip2 above 64 KiB as LLVM's writer did; `--disable-compression`
 * as llvm-link's option). An archive among the inputs contributes the members that define symbols
 * still undefined, as llvm-ld did (docs/link.md). A refused link is one line with LLVM's reason.
 * The output is never one of the inputs (refused before anything is read), `-o -` is standard
 * output (never a terminal), and a file is replaced whole or not at all.
 */
import { UsageError } from './args.js';
import { parseLimits, type CliLimits } from './cli-limits.js';
import { LINK_HELP, TOOL } from './help.js';
import { boundsFor } from './input-kinds.js';
import type { CliIo } from './io.js';
import { FileError } from './file-error.js';
import { refuseOutputOverInputs } from './output-guard.js';

interface LinkArgs {
  inputs: string[];
  output: string;
  compress: boolean;
  limits: CliLimits;
}

function parseLinkArgs(argv: readonly string[]): LinkArgs | 'help' {
  const inputs: string[] = [];
  let output: string | undefined;
  let compress = true;
  let onlyFiles = false;
  const limits: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyFiles || !arg.startsWith('-') || arg === '-') {
      inputs.push(arg);
    } else if (arg === '--') {
      onlyFiles = true;
    } else if (arg === '-h' || arg === '--help') {
      return 'help';
    } else if (arg === '-o' || arg === '--output') {
      output = argv[++i];
      if (output === undefined) throw new UsageError('link: -o needs a file name');
    } else if (arg.startsWith('-o') && arg.length > 2) {
      output = arg.slice(2);
    } else if (arg === '-f' || arg === '--force') {
      // llvm-link's "overwrite the output": we always replace the output file whole.
    } else if (arg === '--disable-compression' || arg === '-disable-compression') {
      compress = false;
    } else if (arg === '--limit') {
      const value = argv[++i];
      if (value === undefined) throw new UsageError(`option '--limit' needs a value`);
      limits.push(value);
    } else if (arg.startsWith('--limit=')) {
      limits.push(arg.slice('--limit='.length));
    } else {
      throw new UsageError(`link: unknown option '${arg}' (see '${TOOL} link --help')`);
    }
  }
  if (inputs.length === 0) throw new UsageError('link: no input files');
  if (output === undefined) throw new UsageError('link: -o OUT.bc is required');
  return { inputs, output, compress, limits: parseLimits(limits.length > 0 ? limits.join('\n') : undefined) };
}

export async function link(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseLinkArgs(argv);
  if (parsed === 'help') {
    io.stdout(LINK_HELP);
    return 0;
  }
  const [{ readModule }, archive, linker, { writeModuleAsync }] = await Promise.all([
    import('../read.js'),
    import('../archive/index.js'),
    import('../link/index.js'),
    import('../encode/write.js'),
  ]);
  const toStdout = parsed.output === '-';
  // Nothing is read before the output is known not to be an input, nor bytecode bound for a screen.
  refuseOutputOverInputs(parsed.inputs, parsed.output, io);
  if (toStdout && io.stdoutIsTerminal?.() === true)
    throw new FileError('<stdout>', 'refusing to write bytecode to a terminal: give -o FILE, or send standard output to a file or a pipe');
  const { limits } = parsed;
  const bounds = boundsFor('bytecode-or-archive', limits);
  const inputs: import('../link/index.js').LinkInput[] = [];
  for (const file of parsed.inputs) {
    try {
      const bytes = file === '-' ? await io.readStdin(bounds) : io.readFile(file, bounds);
      if (archive.isArchive(bytes)) {
        const members = archive.readArchiveModules(archive.readArchive(bytes, { limits: limits.reader }), { limits: limits.reader });
        inputs.push({ kind: 'archive', members: members.map(({ member, module }) => ({ module, identifier: member.name })) });
      } else {
        inputs.push({ kind: 'module', module: readModule(bytes, { limits: limits.reader }), identifier: file });
      }
    } catch (e) {
      throw new FileError(file, e);
    }
  }
  let module;
  try {
    module = linker.linkInputs(inputs, { onWarning: (w) => io.stderr(`${TOOL}: ${w}\n`) });
  } catch (e) {
    if (e instanceof linker.LinkError) {
      const at = Math.min(e.moduleIndex, parsed.inputs.length - 1);
      throw new FileError(parsed.inputs[at] ?? parsed.inputs[0]!, e.message, 'link error');
    }
    throw e;
  }
  let bytes: Uint8Array;
  try {
    bytes = await writeModuleAsync(module, { bytecodeVersion: 6, compression: parsed.compress ? 'auto' : 'none' });
  } catch (e) {
    throw new FileError(parsed.output, e, 'linked module is broken');
  }
  try {
    if (toStdout) io.stdout(bytes);
    else io.writeFile(parsed.output, bytes);
  } catch (e) {
    throw new FileError(toStdout ? '<stdout>' : parsed.output, e, 'cannot write');
  }
  return 0;
}
