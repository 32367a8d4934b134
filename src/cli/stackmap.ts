/**
 * `llvm-bytecode stackmap FILE…`: the stack map sections of object files (ELF, Mach-O incl.
 * universal, COFF) or bare sections (src/stackmap): printed (`--syntax readobj|text`, the default
 * human view, `--json`), checked (`--check`) or written at another version (`--to-version N -o OUT`).
 * A file that cannot be read is reported on one line and the others are still done; the exit
 * status is then 1.
 */
import { parseArgs, UsageError } from './args.js';
import { TOOL } from './help.js';
import type { CliIo } from './io.js';
import { describeError } from './describe-error.js';
import { refuseOutputOverInputs } from './output-guard.js';
import { LIMIT_OPTION, parseLimits } from './cli-limits.js';
import { boundsFor } from './input-kinds.js';

export const STACKMAP_HELP = `usage: ${TOOL} stackmap [options] FILE...

Print, check or convert the LLVM stack map sections (.llvm_stackmaps, __LLVM_STACKMAPS) of
object files (ELF 32/64-bit of either byte order, Mach-O incl. universal files, COFF) or of
bare sections (as 'llvm-objcopy --dump-section' writes them): every version LLVM wrote
(0: LLVM 3.4, 1: 3.5-3.9, 2: 4.0, 3: 5.0 onwards) and ManticoreProject's version 1. LLILC's
flat version 2 and ykllvm's extended version 3 are recognised and refused by name.

options:
  --syntax readobj   print what llvm-readobj-16 --stackmap prints, from its version line on
  --syntax text      print LLVM 3.7's llvm-readobj -stackmap text (4.0's for version 2)
  --json             print the sections as JSON (64-bit values as decimal strings)
  --check            report what is wrong or noteworthy (exit status 1 when errors)
  --to-version N     write the section as version N (0-3) to -o OUT: the object file with the
                     section replaced when its size is unchanged, else the bare section
  --endian little|big
                     a bare section's byte order (default: found from its sizes)
  -o, --output OUT   where --to-version writes (never onto the input: refused before anything
                     is read; the file is replaced whole or not at all)
  --limit maxInputSize=N
                     refuse inputs larger than N bytes (default 256M; K, M, G suffixes)
  -h, --help         show this help

Without --syntax or --json, a human view: function names (from the relocations and symbols),
register names (x86-64, AArch64, PowerPC64, SystemZ), statepoints read as calling convention,
flags, deopt values and (base, derived) pairs. Version 1 has no per-function record counts;
records are grouped by the rule in docs/stackmaps.md or left ungrouped, never guessed.
`;

/** The options of `stackmap` (the bin's loader must know which of them take a value: test/cli/loader-options.test.ts). */
export const STACKMAP_OPTIONS = [
  { name: 'syntax', takesValue: true, choices: ['readobj', 'text'] },
  { name: 'json', takesValue: false },
  { name: 'check', takesValue: false },
  { name: 'to-version', takesValue: true, choices: ['0', '1', '2', '3'] },
  { name: 'endian', takesValue: true, choices: ['little', 'big'] },
  { name: 'output', short: 'o', takesValue: true },
  { name: 'help', short: 'h', takesValue: false },
  LIMIT_OPTION,
] as const;

export async function stackmap(argv: readonly string[], io: CliIo): Promise<number> {
  const { options, positionals } = parseArgs(argv, STACKMAP_OPTIONS);
  if (options.has('help')) {
    io.stdout(STACKMAP_HELP);
    return 0;
  }
  const syntax = options.get('syntax') as 'readobj' | 'text' | undefined;
  const json = options.has('json');
  const check = options.has('check');
  const toVersion = options.get('to-version');
  const output = options.get('output');
  const endian = options.get('endian') as 'little' | 'big' | undefined;
  if (positionals.length === 0) throw new UsageError(`stackmap: no input file (see '${TOOL} stackmap --help')`);
  if ([syntax !== undefined, json, check, toVersion !== undefined].filter(Boolean).length > 1) {
    throw new UsageError('stackmap: --syntax, --json, --check and --to-version are one at a time');
  }
  if (toVersion !== undefined && (typeof output !== 'string' || positionals.length !== 1)) {
    throw new UsageError('stackmap: --to-version needs one input file and -o OUT');
  }
  if (toVersion === undefined && output !== undefined) throw new UsageError('stackmap: -o is for --to-version');
  if (typeof output === 'string') refuseOutputOverInputs([positionals[0]!], output, io);
  const limit = options.get('limit');
  const bounds = boundsFor('any', parseLimits(typeof limit === 'string' ? limit : undefined));
  const lib = await import('../stackmap/index.js');
  const many = positionals.length > 1;
  let failed = false;
  const jsonOut: unknown[] = [];
  for (const input of positionals) {
    const label = input === '-' ? '<stdin>' : input;
    try {
      const bytes = input === '-' ? await io.readStdin(bounds) : io.readFile(input, bounds);
      // The bytes are this run's alone and never changed: the records are printed from them.
      const file = lib.readStackMaps(bytes, { endian, shareBytes: true });
      if (toVersion !== undefined) {
        if (file.sections.length !== 1)
          throw new UsageError(`stackmap: ${label} has ${file.sections.length} stack map sections; --to-version converts one (split a universal file first)`);
        const written = lib.writeStackMap(bytes, file.sections[0]!, { version: Number(toVersion) as 0 | 1 | 2 | 3 });
        io.writeFile(output as string, written.bytes);
        if (written.why) io.stderr(`${TOOL}: ${label}: wrote the bare section to ${String(output)}: ${written.why}\n`);
        continue;
      }
      const chunks: Array<string | Uint8Array> = [];
      let text = '';
      const flush = () => {
        if (text) chunks.push(text);
        text = '';
      };
      for (const s of file.sections) {
        const where = file.sections.length > 1 || many ? `${label}: ${s.found.format}${s.found.sectionName ? ` ${s.found.sectionName}` : ''}` : '';
        if (json) {
          jsonOut.push({ file: label, ...(lib.stackMapJson(s) as object) });
          continue;
        }
        if (check) {
          const diagnostics = lib.checkStackMap({ map: s.map, grouping: s.grouping, arch: s.found.arch });
          if (diagnostics.some((d) => d.severity === 'error')) failed = true;
          text +=
            diagnostics.length === 0
              ? `${label}: ok (${s.map.records.length} records)\n`
              : diagnostics.map((d) => `${label}: ${d.severity}: ${d.message}\n`).join('');
          continue;
        }
        if (where) text += `${where}\n`;
        if (syntax === undefined) text += lib.printStackMapHuman(s);
        else {
          flush();
          if (syntax === 'text') chunks.push(lib.printStackMapTextBytes(s));
          else if (io.stdoutNow) {
            // Read and decoded whole before this: the text goes out in pieces as it is printed,
            // after what came before it, never held whole (docs/performance.md).
            for (const c of chunks) io.stdout(c);
            chunks.length = 0;
            chunks.push(lib.printStackMapReadobjBytes(s, io.stdoutNow.bind(io)));
          } else chunks.push(lib.printStackMapReadobjBytes(s));
        }
      }
      flush();
      for (const c of chunks) io.stdout(c);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      failed = true;
      io.stderr(`${TOOL}: error: ${label}: ${describeError(e)}\n`);
    }
  }
  if (json) io.stdout(`${JSON.stringify(jsonOut, null, 2)}\n`);
  return failed ? 1 : 0;
}
