/**
 * `llvm-bytecode nm FILE|ARCHIVE…`: the symbols of modules and of an archive's bytecode members,
 * as LLVM 1.9's llvm-nm printed them (src/nm). Options in llvm-nm's spelling: `-format=bsd|sysv|posix`
 * (also `--format`, `-f`), `-B`, `-P`, `-u`/`-undefined-only`, `-defined-only`, `-g`/`-extern-only`.
 * A file that cannot be read is reported on one line and the others are still listed (as llvm-nm
 * did); the exit status is then 1.
 */
import { UsageError } from './args.js';
import { NM_HELP, TOOL } from './help.js';
import type { CliIo } from './io.js';
import { describeError } from './describe-error.js';
import { parseLimits } from './cli-limits.js';
import { boundsFor, isArchiveHead, isBytecodeHead } from './input-kinds.js';
import { InputRefused } from './bounded-read.js';

interface NmOptions {
  limits: string[];
  format: 'bsd' | 'sysv' | 'posix';
  undefinedOnly: boolean;
  definedOnly: boolean;
  externalOnly: boolean;
  inputs: string[];
}

function parseNmArgs(argv: readonly string[]): NmOptions | 'help' {
  const o: NmOptions = { limits: [], format: 'bsd', undefinedOnly: false, definedOnly: false, externalOnly: false, inputs: [] };
  let onlyFiles = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyFiles || !arg.startsWith('-') || arg === '-') {
      o.inputs.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyFiles = true;
      continue;
    }
    const [flag, inline] = splitOption(arg.replace(/^--?/, ''));
    switch (flag) {
      case 'h':
      case 'help':
        return 'help';
      case 'format':
      case 'f': {
        const value = inline ?? argv[++i];
        if (value !== 'bsd' && value !== 'sysv' && value !== 'posix') {
          throw new UsageError(`nm: -format needs bsd, sysv or posix, got '${value ?? ''}'`);
        }
        o.format = value;
        break;
      }
      case 'limit': {
        const value = inline ?? argv[++i];
        if (value === undefined) throw new UsageError(`option '--limit' needs a value`);
        o.limits.push(value);
        break;
      }
      case 'B':
        o.format = 'bsd';
        break;
      case 'P':
        o.format = 'posix';
        break;
      case 'u':
      case 'undefined-only':
        o.undefinedOnly = true;
        break;
      case 'defined-only':
        o.definedOnly = true;
        break;
      case 'g':
      case 'extern-only':
        o.externalOnly = true;
        break;
      default:
        throw new UsageError(`nm: unknown option '${arg}' (see '${TOOL} nm --help')`);
    }
  }
  if (o.inputs.length === 0) o.inputs.push('-');
  return o;
}

function splitOption(s: string): [string, string | undefined] {
  const eq = s.indexOf('=');
  return eq < 0 ? [s, undefined] : [s.slice(0, eq), s.slice(eq + 1)];
}

/** A file name as the bytes llvm-nm would print (one character per byte). */
function asBytes(name: string): string {
  return Buffer.from(name, 'utf8').toString('latin1');
}

export async function nm(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseNmArgs(argv);
  if (parsed === 'help') {
    io.stdout(NM_HELP);
    return 0;
  }
  const limits = parseLimits(parsed.limits.length > 0 ? parsed.limits.join('\n') : undefined);
  // llvm-nm's words for a file that is neither (said on its first bytes, before more is read).
  const bounds = {
    ...boundsFor('any', limits),
    checkHead: (head: Uint8Array) => {
      if (head.length >= 4 && !isBytecodeHead(head) && !isArchiveHead(head)) throw new InputRefused('unrecognizable file type');
    },
  };
  const [{ readModule: read }, archive, nmLib] = await Promise.all([import('../read.js'), import('../archive/index.js'), import('../nm/index.js')]);
  const readModule = (bytes: Uint8Array): ReturnType<typeof read> => read(bytes, { limits: limits.reader });
  const listing = (id: string, module: Parameters<typeof nmLib.nmSymbols>[0], heading: boolean): string => {
    const symbols = nmLib
      .nmSymbols(module)
      .filter(
        (s) =>
          !(parsed.undefinedOnly && s.letter !== 'U') &&
          !(parsed.definedOnly && s.letter === 'U') &&
          !(parsed.externalOnly && (s.letter === 't' || s.letter === 'd')),
      );
    return nmLib.formatNm(id, symbols, { format: parsed.format, heading });
  };
  let multipleFiles = parsed.inputs.length > 1;
  let failed = false;
  for (const input of parsed.inputs) {
    const label = input === '-' ? '<stdin>' : input;
    try {
      const bytes = input === '-' ? await io.readStdin(bounds) : io.readFile(input, bounds);
      if (input === '-' || archive.classifyContents(bytes) === 'bytecode' || archive.classifyContents(bytes) === 'compressed-bytecode') {
        // llvm-nm named a module read from standard input '<stdin>'.
        io.stdout(listing(input === '-' ? '<stdin>' : asBytes(input), readModule(bytes), multipleFiles));
      } else if (archive.isArchive(bytes)) {
        // Every member is read before anything is printed, as Archive::getAllModules did.
        const modules = archive.readArchiveModules(archive.readArchive(bytes, { limits: limits.reader }), { limits: limits.reader });
        multipleFiles = true;
        io.stdout(modules.map(({ member, module }) => listing(`${asBytes(input)}(${member.llvmName})`, module, true)).join(''));
      } else {
        throw new InputRefused('unrecognizable file type');
      }
    } catch (e) {
      failed = true;
      const message = describeError(e);
      io.stderr(`${TOOL}: error: ${label}: ${message}\n`);
    }
  }
  return failed ? 1 : 0;
}
