import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, LIMIT_NAMES, resolveLimits } from '../src/limits.js';

describe('limits', () => {
  it('every default is a positive safe integer', () => {
    for (const name of LIMIT_NAMES) {
      expect(Number.isSafeInteger(DEFAULT_LIMITS[name]), name).toBe(true);
      expect(DEFAULT_LIMITS[name], name).toBeGreaterThan(0);
    }
  });

  it('resolveLimits overrides only what is given', () => {
    expect(resolveLimits()).toBe(DEFAULT_LIMITS);
    const l = resolveLimits({ maxTypes: 5, maxDecompressedSize: 1024 });
    expect(l.maxTypes).toBe(5);
    expect(l.maxDecompressedSize).toBe(1024);
    expect(l.maxFunctions).toBe(DEFAULT_LIMITS.maxFunctions);
    expect(Object.isFrozen(l)).toBe(true);
  });

  it('refuses unknown names and values that are not non-negative integers', () => {
    expect(() => resolveLimits({ maxTypez: 1 } as never)).toThrow(/unknown limit 'maxTypez'/);
    expect(() => resolveLimits({ maxTypes: -1 })).toThrow(RangeError);
    expect(() => resolveLimits({ maxTypes: Infinity })).toThrow(RangeError);
    expect(() => resolveLimits({ maxTypes: 1.5 })).toThrow(RangeError);
  });

  it('docs/limits.md documents every limit', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../docs/limits.md', import.meta.url), 'utf8');
    for (const name of LIMIT_NAMES) expect(doc, name).toContain(`\`${name}\``);
  });
});
