/** The option parser: every accepted spelling, and a usage error for everything else. */
import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError, type OptionSpec } from '../../src/cli/args.js';

const SPECS: OptionSpec[] = [
  { name: 'help', short: 'h', takesValue: false },
  { name: 'output', short: 'o', takesValue: true },
  { name: 'syntax', takesValue: true, choices: ['1.9', 'native'] },
];

describe('parseArgs', () => {
  it('accepts --opt value, --opt=value, -o value, -ovalue and flags', () => {
    for (const argv of [['--output', 'x'], ['--output=x'], ['-o', 'x'], ['-ox']]) {
      expect(parseArgs(argv, SPECS).options.get('output')).toBe('x');
    }
    expect(parseArgs(['-h'], SPECS).options.get('help')).toBe(true);
  });

  it('keeps positionals in order; - is a positional; -- ends the options', () => {
    const p = parseArgs(['a', '-', '--syntax', 'native', '--', '--help', '-o'], SPECS);
    expect(p.positionals).toEqual(['a', '-', '--help', '-o']);
    expect(p.options.get('syntax')).toBe('native');
    expect(p.options.has('help')).toBe(false);
  });

  it('lets a value start with a dash (-o -)', () => {
    expect(parseArgs(['-o', '-'], SPECS).options.get('output')).toBe('-');
  });

  it('the last occurrence wins', () => {
    expect(parseArgs(['--syntax', '1.9', '--syntax=native'], SPECS).options.get('syntax')).toBe('native');
  });

  it('refuses unknown options, missing values, values for flags and values outside the choices', () => {
    expect(() => parseArgs(['--nope'], SPECS)).toThrow(UsageError);
    expect(() => parseArgs(['-x'], SPECS)).toThrow(/unknown option '-x'/);
    expect(() => parseArgs(['--output'], SPECS)).toThrow(/needs a value/);
    expect(() => parseArgs(['--help=1'], SPECS)).toThrow(/takes no value/);
    expect(() => parseArgs(['--syntax', '2.0'], SPECS)).toThrow(/must be one of 1\.9, native/);
  });
});
