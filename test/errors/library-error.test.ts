/**
 * One error family (src/errors/library-error.ts): every error the library throws for a problem in
 * its input or in a module is an `LlvmBytecodeError`, with the position it has; `instanceof` on
 * each class still tells the classes apart, and `BuildError` stays the documented `TypeError`.
 */
import { describe, expect, it } from 'vitest';
import { LlvmBytecodeError } from '../../src/errors/library-error.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { UnsupportedVersionError } from '../../src/format/version-word.js';
import { ArchiveError } from '../../src/archive/archive-error.js';
import { AssemblyError } from '../../src/asm/assembly-error.js';
import { EncodeError } from '../../src/encode/encode-error.js';
import { InvalidModuleError } from '../../src/verify/verify.js';
import { PrintError } from '../../src/print/print-error.js';
import { UpgradeError } from '../../src/modern/upgrade-error.js';
import { LinkError } from '../../src/link/link-error.js';
import { ConversionError } from '../../src/convert/to-version7.js';
import { BuildError } from '../../src/build/error.js';
import { readModule } from '../../src/read.js';
import { parseAssembly } from '../../src/asm/index.js';
import * as api from '../../src/index.js';

describe('the error family', () => {
  const family = [
    new BytecodeError('bad', 12, ['Module']),
    new UnsupportedVersionError({ version: 9, layout: 'flagged', flags: 0 }, 8, ['Module']),
    new ArchiveError('bad member', 68, ['member #1']),
    new AssemblyError('bad token', 3, 7, 'x = y'),
    new EncodeError('a packed type', 3),
    new InvalidModuleError(['a block without a terminator']),
    new PrintError('a constant that contains itself'),
    new UpgradeError('a type that contains itself'),
    new LinkError('Function is already defined', 1),
    new ConversionError('a module'),
    new BuildError('add', 'operands of different types'),
  ];

  it('has every error of ours as an LlvmBytecodeError, exported from the package root', () => {
    for (const e of family) expect(e instanceof api.LlvmBytecodeError, e.name).toBe(true);
    expect(api.LlvmBytecodeError).toBe(LlvmBytecodeError);
  });

  it('keeps the classes apart, and what is not ours out', () => {
    expect(new EncodeError('x', 6) instanceof BytecodeError).toBe(false);
    expect(new BuildError('add', 'x') instanceof BytecodeError).toBe(false);
    expect(new ArchiveError('x', 0) instanceof BytecodeError).toBe(true);
    expect(new Error('x') instanceof LlvmBytecodeError).toBe(false);
    expect(new TypeError('x') instanceof LlvmBytecodeError).toBe(false);
    expect((null as unknown) instanceof LlvmBytecodeError).toBe(false);
  });

  it('leaves BuildError the TypeError the builder documents', () => {
    const e = new BuildError('add', 'operands of different types');
    expect(e).toBeInstanceOf(TypeError);
    expect(e.name).toBe('BuildError');
  });

  it('gives the position each error has: bytes, text, or none', () => {
    expect(new BytecodeError('bad', 12, ['Module', 'Function #0']).position).toEqual({ kind: 'bytes', offset: 12, blockPath: ['Module', 'Function #0'] });
    expect(new AssemblyError('bad token', 3, 7, 'x = y').position).toEqual({ kind: 'text', line: 3, column: 7 });
    expect(new EncodeError('a packed type', 3).position).toBeUndefined();
  });

  it('is what reading damaged bytes and bad text throw', () => {
    expect(() => readModule(new Uint8Array([0x6c, 0x6c, 0x76, 0x6d, 1, 2]))).toThrow(LlvmBytecodeError);
    expect(() => parseAssembly('int %f( {')).toThrow(LlvmBytecodeError);
  });
});
