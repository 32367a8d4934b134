/**
 * The package's public API (issue 32, item 6): the root exports the verbs, the graph's types, the
 * builder and the error family; internals are in documented subpath exports, each with types.
 * Every verb of the CLI is a library verb: `rewrite --bytecode-version 7` is `convertToVersion7`
 * then `writeModule`, and `writeModule` alone points at the verb, not at a source folder.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as archive from '../src/subpaths/archive.js';
import * as container from '../src/subpaths/container.js';
import * as format from '../src/subpaths/format.js';
import * as graph from '../src/subpaths/graph.js';

const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, { types: string; import: string }> };
const hello = (): Uint8Array => new Uint8Array(readFileSync(new URL('../corpus/hello.bc', import.meta.url)));

describe('the package root', () => {
  it('exports a library verb for every command of the CLI', () => {
    const verbs = [
      'readModule',
      'printModule',
      'writeModule',
      'convertToVersion7',
      'analyzeBytes',
      'formatAnalysis',
      'printModern',
      'parseAssembly',
      'readArchive',
      'writeArchive',
      'nmSymbols',
      'formatNm',
      'linkModules',
      'linkInputs',
      'verifyModule',
    ];
    for (const verb of verbs) expect(typeof (root as Record<string, unknown>)[verb], verb).toBe('function');
  });

  it('exports every error class of the family, each an LlvmBytecodeError', () => {
    const errors = [
      'BytecodeError',
      'UnsupportedVersionError',
      'ArchiveError',
      'AssemblyError',
      'EncodeError',
      'WriteRangeError',
      'InvalidModuleError',
      'PrintError',
      'UpgradeError',
      'LinkError',
      'ConversionError',
    ];
    for (const name of errors) {
      const cls = (root as Record<string, unknown>)[name] as typeof root.LlvmBytecodeError;
      expect(cls.prototype, name).toBeInstanceOf(root.LlvmBytecodeError);
    }
    expect(root.BuildError).toBeDefined();
  });

  it('keeps the internals out: they are in the subpath exports', () => {
    const moved = {
      FORMAT_TABLE: format,
      formatFor: format,
      unwrapContainer: container,
      wrapContainer: container,
      loadBzip2: container,
      decodeSymbolTable: archive,
      encodeSymbolTable: archive,
      llvmCompress: archive,
      isSigned: graph,
      collectUses: graph,
    };
    for (const [name, subpath] of Object.entries(moved)) {
      expect(name in root, name).toBe(false);
      expect(typeof (subpath as Record<string, unknown>)[name], name).not.toBe('undefined');
    }
    for (const leftover of ['writeModuleAsync', 'wrapContainerAsync', 'writeArchiveAsync']) {
      expect(leftover in root || leftover in container || leftover in archive, leftover).toBe(false);
    }
  });
});

describe('writing version 7 from an LLVM 1.x module', () => {
  it('writeModule alone refuses, naming the verb that converts (not a source folder)', () => {
    let message = '';
    try {
      root.writeModule(root.readModule(hello()), { bytecodeVersion: 7 });
    } catch (e) {
      expect(e).toBeInstanceOf(root.EncodeError);
      message = (e as Error).message;
    }
    expect(message).toContain('convertToVersion7(module)');
    expect(message).not.toContain('src/');
  });

  it('convertToVersion7 then writeModule writes what rewrite --bytecode-version 7 writes, and it reads back', () => {
    const v7 = root.writeModule(root.convertToVersion7(root.readModule(hello())), { bytecodeVersion: 7 });
    const back = root.readModule(v7);
    expect(back.source?.bytecodeVersion).toBe(7);
    expect(back.functions.map((f) => f.name)).toEqual(root.readModule(hello()).functions.map((f) => f.name));
  });
});

describe('package.json exports', () => {
  it('maps the root and each documented subpath to its JavaScript and its types', () => {
    expect(Object.keys(PACKAGE.exports).sort()).toEqual(['.', './archive', './container', './format', './graph']);
    for (const [path, entry] of Object.entries(PACKAGE.exports)) {
      const base = path === '.' ? './dist/index' : `./dist/subpaths/${path.slice(2)}`;
      expect(entry).toEqual({ types: `${base}.d.ts`, import: `${base}.js` });
    }
  });
});
