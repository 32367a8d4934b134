/**
 * The command-line loop the project's tools share (`npm run fuzz`, `fuzz:asm`, `fuzz:coverage`,
 * `fuzz:llvm`): each option goes to the tool's handler, `-h`/`--help` prints the usage and
 * exits, and an option no handler takes, or one missing its value, is an error naming it.
 */

/** Takes one option (`value()` reads the argument after it); false when it is not the tool's. */
export type OptionHandler = (option: string, value: () => string) => boolean;

export function readToolOptions(argv: readonly string[], usage: string, handle: OptionHandler): void {
  for (let i = 0; i < argv.length; i++) {
    const option = argv[i]!;
    if (option === '-h' || option === '--help') {
      console.log(usage);
      process.exit(0);
    }
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${option} needs a value`);
      return v;
    };
    if (!handle(option, value)) throw new Error(`unknown option ${option}`);
  }
}

/** `--seconds` must be a positive number. */
export function checkSeconds(seconds: number): void {
  if (!(seconds > 0)) throw new Error('--seconds must be positive');
}
