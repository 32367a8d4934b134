/** readModule's contract at its edge: bytes in, and anything else refused at once with a TypeError. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readModule } from '../src/index.js';

describe('readModule checks its argument', () => {
  const refuse = (arg: unknown) => () => readModule(arg as Uint8Array);

  it('refuses a string (a path or text is not the file), naming what to pass', () => {
    expect(refuse('abc')).toThrow(TypeError);
    expect(refuse('corpus/hello.bc')).toThrow(/expected the file's bytes as a Uint8Array, got a string \(pass the file's bytes, e\.g\. readFileSync\(path\)/);
  });

  it('refuses other values, and says how to wrap an ArrayBuffer', () => {
    expect(refuse(undefined)).toThrow(/got undefined/);
    expect(refuse(null)).toThrow(/got null/);
    expect(refuse(42)).toThrow(/got number/);
    expect(refuse([0x6c, 0x6c])).toThrow(/got an object \(Array\)/);
    expect(refuse(new ArrayBuffer(8))).toThrow(/ArrayBuffer \(wrap it: new Uint8Array\(buffer\)\)/);
  });

  it('accepts a Uint8Array and a Node Buffer', () => {
    const buffer = readFileSync(new URL('../corpus/hello.bc', import.meta.url));
    expect(readModule(buffer).functions.length).toBe(4);
    expect(readModule(new Uint8Array(buffer)).functions.length).toBe(4);
  });
});
