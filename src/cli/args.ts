/**
 * A small, strict command-line parser: each subcommand declares its options, and anything else
 * is a usage error (exit code 2) rather than being silently ignored. Accepts `--opt value`,
 * `--opt=value`, `-o value`, and `--` to end the options. A repeatable option (`--limit`) keeps
 * every value; for any other, the last occurrence wins.
 */

/** A usage mistake: reported on one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface OptionSpec {
  /** Long name without dashes, e.g. `syntax`. */
  readonly name: string;
  /** Optional one-letter alias without the dash, e.g. `o`. */
  readonly short?: string;
  /** True when the option takes a value. */
  readonly takesValue: boolean;
  /** Allowed values, checked here so every command reports them the same way. */
  readonly choices?: readonly string[];
  /** May be given several times: the values are kept, joined by newlines, in order. */
  readonly repeatable?: boolean;
}

export interface Parsed {
  /** Option values by long name; flags map to `true`. The last occurrence wins. */
  readonly options: Map<string, string | true>;
  readonly positionals: string[];
}

export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): Parsed {
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short !== undefined).map((s) => [s.short!, s]));
  const options = new Map<string, string | true>();
  const positionals: string[] = [];
  let onlyPositionals = false;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // `-` alone means standard input/output, so it is a positional or an option value.
    if (onlyPositionals || arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    let spec: OptionSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      if (eq >= 0) inline = arg.slice(eq + 1);
      spec = byLong.get(name);
    } else {
      spec = byShort.get(arg.slice(1, 2));
      if (spec && arg.length > 2) inline = arg.slice(2);
    }
    if (!spec) throw new UsageError(`unknown option '${arg}'`);
    if (!spec.takesValue) {
      if (inline !== undefined) throw new UsageError(`option '--${spec.name}' takes no value`);
      options.set(spec.name, true);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`option '--${spec.name}' needs a value`);
    if (spec.choices && !spec.choices.includes(value)) {
      throw new UsageError(`option '--${spec.name}' must be one of ${spec.choices.join(', ')}, not '${value}'`);
    }
    const earlier = options.get(spec.name);
    options.set(spec.name, spec.repeatable && typeof earlier === 'string' ? `${earlier}\n${value}` : value);
  }
  return { options, positionals };
}
