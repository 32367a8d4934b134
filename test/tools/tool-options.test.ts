/** The option loop the fuzz tools share (tools/tool-options.ts). */
import { describe, expect, it } from 'vitest';
import { checkSeconds, readToolOptions } from '../../tools/tool-options.js';

describe('readToolOptions', () => {
  const read = (argv: string[]): Record<string, string | true> => {
    const seen: Record<string, string | true> = {};
    readToolOptions(argv, 'usage', (option, value) => {
      if (option === '--seconds' || option === '--seed') seen[option] = value();
      else if (option === '--flag') seen[option] = true;
      else return false;
      return true;
    });
    return seen;
  };

  it('hands each option and its value to the tool', () => {
    expect(read(['--seconds', '5', '--flag', '--seed', '7'])).toEqual({ '--seconds': '5', '--flag': true, '--seed': '7' });
  });

  it('names an option the tool does not take, or one missing its value', () => {
    expect(() => read(['--nope'])).toThrow('unknown option --nope');
    expect(() => read(['--seconds'])).toThrow('--seconds needs a value');
  });

  it('wants a positive number of seconds', () => {
    expect(() => checkSeconds(0)).toThrow('--seconds must be positive');
    expect(() => checkSeconds(Number.NaN)).toThrow('--seconds must be positive');
    expect(() => checkSeconds(1)).not.toThrow();
  });
});
