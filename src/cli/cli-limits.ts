/**
 * `--limit NAME=VALUE`: every limit an error can name, raised (or lowered) from the command line.
 * The names are the library's (`Limits`, docs/limits.md), the assembler's (`maxNesting`,
 * `maxTypeNodes`) and `maxInputSize`, the most bytes the CLI reads of one input (a file, standard
 * input, an archive). Values are whole numbers, optionally with a binary suffix: `512K`, `1G`.
 */
import { DEFAULT_LIMITS, LIMIT_NAMES, type Limits } from '../limits.js';
import { UsageError, type OptionSpec } from './args.js';

/**
 * The names of the assembler's limits (`DEFAULT_ASSEMBLY_LIMITS`, src/asm/parser.ts; a test keeps
 * the two lists equal). Named here so that parsing options does not load the assembler.
 */
export const ASSEMBLY_LIMIT_NAMES = ['maxNesting', 'maxTypeNodes'] as const;
type AssemblyLimitName = (typeof ASSEMBLY_LIMIT_NAMES)[number];

/** The limits a command runs with: plain data, so a batch can send them to its threads. */
export interface CliLimits {
  /** The library's limits that were given (the rest keep their defaults). */
  readonly reader: Partial<Limits>;
  /** The assembler's limits that were given. */
  readonly assembly: Partial<Record<AssemblyLimitName, number>>;
}

export const NO_LIMITS_GIVEN: CliLimits = { reader: {}, assembly: {} };

export const LIMIT_OPTION: OptionSpec = { name: 'limit', takesValue: true, repeatable: true };

/** Every name `--limit` takes, for help and errors. */
export function limitNames(): string[] {
  return [...LIMIT_NAMES, ...ASSEMBLY_LIMIT_NAMES];
}

const SUFFIX: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** The limits in `--limit` values (newline-separated, as args.ts keeps a repeated option); throws UsageError. */
export function parseLimits(values: string | undefined): CliLimits {
  if (values === undefined) return NO_LIMITS_GIVEN;
  const reader: Record<string, number> = {};
  const assembly: Record<string, number> = {};
  for (const item of values.split(/[\n,]/)) {
    const match = /^([A-Za-z]+)=([0-9][0-9_]*)([kKmMgG]?)(?:i?[bB])?$/.exec(item.trim());
    if (!match) throw new UsageError(`option '--limit' takes NAME=VALUE (e.g. maxInputSize=1G), not '${item}'`);
    const [, name, digits, suffix] = match as unknown as [string, string, string, string];
    const value = Number(digits.replace(/_/g, '')) * SUFFIX[suffix.toLowerCase()]!;
    if (!Number.isSafeInteger(value)) throw new UsageError(`option '--limit': ${name}=${digits}${suffix} is too large`);
    if (Object.hasOwn(DEFAULT_LIMITS, name)) reader[name] = value;
    else if ((ASSEMBLY_LIMIT_NAMES as readonly string[]).includes(name)) assembly[name] = value;
    else throw new UsageError(`option '--limit': unknown limit '${name}' (known: ${limitNames().join(', ')})`);
  }
  return { reader: reader as Partial<Limits>, assembly };
}

/** The limits the CLI's own reading keeps to. */
export function limitsForReading(limits: CliLimits): { maxInputSize: number } {
  return { maxInputSize: limits.reader.maxInputSize ?? DEFAULT_LIMITS.maxInputSize };
}
