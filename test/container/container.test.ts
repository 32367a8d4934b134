import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { deflate } from 'pako';
import { describe, expect, it } from 'vitest';
import { CORPUS_PRESENT, CORPUS_ROOT, NEEDS_CORPUS } from '../support/corpus.js';
import {
  compressBzip2,
  isBzip2Loaded,
  llvmDefaultCompression,
  loadBzip2,
  unwrapContainer,
  wrapContainer,
  wrapContainerAsync,
} from '../../src/container/index.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';

const CORPUS = CORPUS_ROOT + '/';
const haveCorpus = CORPUS_PRESENT;

const haveBzip2Tool = spawnSync('bzip2', ['--help'], { stdio: 'ignore' }).error === undefined;
if (!haveBzip2Tool) console.warn('container tests: system `bzip2` not found; `bzip2 -t` cross-checks skipped (apt-get install -y bzip2)');

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** A small stream: `llvm`, a long-form module header, a few body bytes covering all byte values. */
const body = concat(
  Uint8Array.of(1, 0, 0, 0, 0, 1, 0, 0),
  Uint8Array.from({ length: 256 }, (_, i) => i),
);
const STREAM = concat(ascii('llvm'), body);

/** Runs `bzip2 -t` on `data`; true if the system tool accepts it as a valid bzip2 stream. */
function bzip2Accepts(data: Uint8Array): boolean {
  const r = spawnSync('bzip2', ['-t'], { input: data });
  return r.status === 0;
}

/** The error `fn` throws, asserted to be a BytecodeError. */
function bytecodeErrorOf(fn: () => unknown): BytecodeError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BytecodeError);
    return e as BytecodeError;
  }
  throw new Error('expected a BytecodeError, nothing was thrown');
}

describe('bzip2 compression without loadBzip2()', () => {
  it('works synchronously (loadBzip2 is kept for old callers and only precompiles)', () => {
    expect(isBzip2Loaded()).toBe(true);
    const file = wrapContainer(STREAM, 'bzip2');
    expect(unwrapContainer(file).stream).toEqual(STREAM);
  });
});

describe('unwrapContainer: signatures', () => {
  it('returns an `llvm` file unchanged, as the stream itself', () => {
    const r = unwrapContainer(STREAM);
    expect(r.signature).toBe('llvm');
    expect(r.compression).toBe('none');
    expect(r.stream).toBe(STREAM);
  });

  it('llvc0: the payload after the 5-byte signature follows `llvm`, so offsets match an uncompressed file', () => {
    const file = concat(ascii('llvc0'), body);
    const r = unwrapContainer(file);
    expect(r.signature).toBe('llvc0');
    expect(r.compression).toBe('null');
    expect(r.stream).toEqual(STREAM);
    expect(r.stream[4]).toBe(file[5]); // offset 4 = first byte after the signature
  });

  it('llvc1: a zlib stream (pako) follows the signature', () => {
    const file = concat(ascii('llvc1'), deflate(body, { level: 6 }));
    const r = unwrapContainer(file);
    expect(r.signature).toBe('llvc1');
    expect(r.compression).toBe('zlib');
    expect(r.stream).toEqual(STREAM);
    expect(r.trailingBytes).toBe(0);
  });

  it('llvc2: a complete bzip2 stream (`BZh5…`) follows the signature', async () => {
    await loadBzip2();
    const file = concat(ascii('llvc2'), compressBzip2(body));
    expect(Array.from(file.subarray(5, 9), (b) => String.fromCharCode(b)).join('')).toBe('BZh5');
    const r = unwrapContainer(file);
    expect(r.signature).toBe('llvc2');
    expect(r.compression).toBe('bzip2');
    expect(r.stream).toEqual(STREAM);
    expect(r.trailingBytes).toBe(0);
  });

  it('an empty llvc0 payload gives just `llvm` (the decoder then reports the missing module)', () => {
    expect(unwrapContainer(ascii('llvc0')).stream).toEqual(ascii('llvm'));
  });

  it('counts bytes after the end of a compressed stream (LLVM ignored them)', async () => {
    await loadBzip2();
    const bz = unwrapContainer(concat(ascii('llvc2'), compressBzip2(body), ascii('junk')));
    expect(bz.stream).toEqual(STREAM);
    expect(bz.trailingBytes).toBe(4);
    const z = unwrapContainer(concat(ascii('llvc1'), deflate(body), ascii('xyz')));
    expect(z.stream).toEqual(STREAM);
    expect(z.trailingBytes).toBe(3);
  });
});

describe('unwrapContainer: unknown signatures', () => {
  it('names the bytes found, in hex and as text', () => {
    const e = bytecodeErrorOf(() => unwrapContainer(ascii('; ModuleID = x')));
    expect(e.offset).toBe(0);
    expect(e.reason).toContain('3b 20 4d 6f ("; Mo")');
    expect(e.reason).toContain("'llvm' or 'llvc'");
  });

  it('shows non-printable bytes as dots and recognises common impostors', () => {
    const elf = bytecodeErrorOf(() => unwrapContainer(Uint8Array.of(0x7f, 0x45, 0x4c, 0x46, 2, 1)));
    expect(elf.reason).toContain('7f 45 4c 46 (".ELF")');
    expect(elf.reason).toContain('ELF');
    const bitcode = bytecodeErrorOf(() => unwrapContainer(Uint8Array.of(0x42, 0x43, 0xc0, 0xde, 0x35, 0x14)));
    expect(bitcode.reason).toContain('LLVM 2.0+ bitcode');
    const bare = bytecodeErrorOf(() => unwrapContainer(ascii('BZh91AY&SY')));
    expect(bare.reason).toContain('bare bzip2');
  });

  it('reports files too short for a signature', () => {
    expect(bytecodeErrorOf(() => unwrapContainer(new Uint8Array(0))).reason).toContain('only 0 byte(s)');
    expect(bytecodeErrorOf(() => unwrapContainer(ascii('ll'))).reason).toContain('6c 6c ("ll")');
    expect(bytecodeErrorOf(() => unwrapContainer(ascii('llvc'))).offset).toBe(4);
  });

  it('rejects an unknown compression type byte at offset 4', () => {
    const e = bytecodeErrorOf(() => unwrapContainer(ascii('llvc3abc')));
    expect(e.offset).toBe(4);
    expect(e.reason).toContain('33 ("3")');
  });
});

describe('unwrapContainer: damaged compressed data', () => {
  it('a truncated bzip2 stream is a BytecodeError at the end of the file, wherever it is cut', async () => {
    await loadBzip2();
    const file = concat(ascii('llvc2'), compressBzip2(body));
    for (let cut = 5; cut < file.length; cut++) {
      const e = bytecodeErrorOf(() => unwrapContainer(file.subarray(0, cut)));
      expect(e.offset).toBeLessThanOrEqual(cut);
    }
  });

  it('a truncated zlib stream is a BytecodeError, wherever it is cut', () => {
    const file = concat(ascii('llvc1'), deflate(body));
    for (let cut = 5; cut < file.length; cut++) {
      bytecodeErrorOf(() => unwrapContainer(file.subarray(0, cut)));
    }
  });

  it('any corruption of compressed data yields the original stream or a BytecodeError, nothing else', async () => {
    await loadBzip2();
    const files = [concat(ascii('llvc2'), compressBzip2(body)), concat(ascii('llvc1'), deflate(body))];
    fc.assert(
      fc.property(fc.constantFrom(0, 1), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (which, edits) => {
        const file = files[which]!.slice();
        for (const [at, value] of edits) file[5 + (at % (file.length - 5))] = value;
        try {
          const r = unwrapContainer(file, { maxDecompressedSize: 1 << 20 });
          expect(r.stream.length).toBeLessThanOrEqual(4 + (1 << 20));
        } catch (e) {
          expect(e).toBeInstanceOf(BytecodeError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('unwrapContainer: the decompressed-size cap', () => {
  it('defaults to DEFAULT_LIMITS.maxDecompressedSize', () => {
    expect(DEFAULT_LIMITS.maxDecompressedSize).toBeGreaterThanOrEqual(64 * 1024 * 1024);
  });

  it('allows a payload of exactly the cap and refuses one byte more, for every compression', async () => {
    await loadBzip2();
    const n = body.length;
    for (const make of [() => concat(ascii('llvc0'), body), () => concat(ascii('llvc1'), deflate(body)), () => concat(ascii('llvc2'), compressBzip2(body))]) {
      const file = make();
      expect(unwrapContainer(file, { maxDecompressedSize: n }).stream).toEqual(STREAM);
      expect(bytecodeErrorOf(() => unwrapContainer(file, { maxDecompressedSize: n - 1 })).reason).toContain('maxDecompressedSize');
    }
  });

  // Work, not time: the error's offset is where decompression stopped in the compressed input, so
  // a bomb stopped at its cap has consumed only the first part of its data.
  it('stops a bzip2 bomb (50 MB of zeros, 1 MB cap) without decompressing it all', async () => {
    await loadBzip2();
    const bomb = concat(ascii('llvc2'), compressBzip2(new Uint8Array(50 * 1024 * 1024)));
    expect(bomb.length).toBeLessThan(100_000);
    const e = bytecodeErrorOf(() => unwrapContainer(bomb, { maxDecompressedSize: 1024 * 1024 }));
    expect(e.reason).toMatch(/beyond the limit of 1048576 bytes/);
    // bzip2 expands block by block: the cap is met in the first of the bomb's blocks.
    expect(e.offset).toBeLessThan(bomb.length / 2);
  });

  it('stops a zlib bomb (50 MB of zeros, 1 MB cap) without inflating it all', () => {
    const bomb = concat(ascii('llvc1'), deflate(new Uint8Array(50 * 1024 * 1024), { level: 9 }));
    const e = bytecodeErrorOf(() => unwrapContainer(bomb, { maxDecompressedSize: 1024 * 1024 }));
    expect(e.reason).toMatch(/beyond the limit of 1048576 bytes/);
    expect(e.offset).toBeLessThan(bomb.length / 10);
  });

  it('rejects a cap that is not a non-negative integer', () => {
    expect(() => unwrapContainer(STREAM, { maxDecompressedSize: -1 })).toThrow(RangeError);
    expect(() => unwrapContainer(STREAM, { maxDecompressedSize: Number.NaN })).toThrow(RangeError);
  });
});

describe('wrapContainer: the mirror', () => {
  it('round-trips every compression through unwrapContainer', async () => {
    await loadBzip2();
    for (const c of ['none', 'null', 'zlib', 'bzip2'] as const) {
      const file = wrapContainer(STREAM, c);
      const r = unwrapContainer(file);
      expect(r.stream).toEqual(STREAM);
      expect(r.compression).toBe(c);
    }
  });

  it('writes bzip2 exactly as the reference `bzip2 -5` does, and `bzip2 -t` accepts it', async (ctx) => {
    if (!haveBzip2Tool) ctx.skip();
    await loadBzip2();
    const file = wrapContainer(STREAM, 'bzip2');
    const payload = file.subarray(5);
    expect(bzip2Accepts(payload)).toBe(true);
    const reference = spawnSync('bzip2', ['-5', '-c'], { input: body }).stdout;
    expect(payload).toEqual(new Uint8Array(reference));
  });

  it('refuses a stream that does not start with `llvm`', () => {
    expect(() => wrapContainer(ascii('llvc0abc'), 'null')).toThrow(/'llvm'/);
  });

  it("'auto' chooses as LLVM 1.4–1.9 did: bzip2 only when the body after `llvm` exceeds 64 KiB", async () => {
    const small = concat(ascii('llvm'), new Uint8Array(64 * 1024));
    const large = concat(ascii('llvm'), new Uint8Array(64 * 1024 + 1));
    expect(llvmDefaultCompression(small)).toBe('null');
    expect(llvmDefaultCompression(large)).toBe('bzip2');
    expect(unwrapContainer(await wrapContainerAsync(small, 'auto')).signature).toBe('llvc0');
    expect(unwrapContainer(await wrapContainerAsync(large, 'auto')).signature).toBe('llvc2');
  });

  it('loading the codec leaves the host process error handlers as they were', async () => {
    const before = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
    await loadBzip2();
    expect([process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')]).toEqual(before);
  });
});

describe.skipIf(!haveCorpus)('the compressed corpus files (LLVM 1.8 and 1.9 `llvc2`)', NEEDS_CORPUS, () => {
  const files = ['v5/Large__big-bf.bc', 'v5/Bytecode__slow.bc', 'v6/Large__big-bf.bc', 'v6/Bytecode__slow.bc'];

  for (const name of files) {
    it(`${name}: unwraps to a module block filling the stream, and re-wraps byte for byte`, async () => {
      await loadBzip2();
      const original = new Uint8Array(readFileSync(CORPUS + name));
      const r = unwrapContainer(original);
      expect(r.signature).toBe('llvc2');
      expect(r.trailingBytes).toBe(0);
      const view = new DataView(r.stream.buffer, r.stream.byteOffset, r.stream.byteLength);
      expect(view.getUint32(4, true)).toBe(1); // module block id, long header
      expect(view.getUint32(8, true)).toBe(r.stream.length - 12); // its size: everything after the header
      expect(llvmDefaultCompression(r.stream)).toBe('bzip2');
      const rewrapped = wrapContainer(r.stream, 'bzip2');
      expect(rewrapped.length).toBe(original.length);
      expect(Buffer.compare(rewrapped, original)).toBe(0);
      if (haveBzip2Tool) expect(bzip2Accepts(original.subarray(5))).toBe(true);
    });
  }

  it('every v5 and v6 file re-wraps byte for byte in its own container (and v0–v3 are bare `llvm`)', async () => {
    await loadBzip2();
    const seen = new Map<string, number>();
    for (const dir of ['v0', 'v1', 'v3', 'v5', 'v6']) {
      for (const name of readdirSync(CORPUS + dir)) {
        if (!name.endsWith('.bc')) continue;
        const original = new Uint8Array(readFileSync(`${CORPUS}${dir}/${name}`));
        const r = unwrapContainer(original);
        seen.set(`${dir} ${r.signature}`, (seen.get(`${dir} ${r.signature}`) ?? 0) + 1);
        expect(r.trailingBytes).toBe(0);
        if (r.compression !== 'bzip2') {
          expect(Buffer.compare(wrapContainer(r.stream, r.compression), original), `${dir}/${name}`).toBe(0);
        }
        if (dir === 'v5' || dir === 'v6') expect(r.compression, name).toBe(llvmDefaultCompression(r.stream));
      }
    }
    for (const dir of ['v0', 'v1', 'v3']) expect([...seen.keys()].filter((k) => k.startsWith(dir))).toEqual([`${dir} llvm`]);
    expect(seen.get('v6 llvc2')).toBe(2);
    expect(seen.get('v5 llvc2')).toBe(2);
  });

  it('an uncompressed v6 file (llvc0) unwraps to a stream whose module block fills it', () => {
    const original = new Uint8Array(readFileSync(CORPUS + 'v6/Feature__testvarargs.bc'));
    const r = unwrapContainer(original);
    expect(r.signature).toBe('llvc0');
    expect(r.stream.length).toBe(original.length - 1);
    expect(llvmDefaultCompression(r.stream)).toBe('null');
    expect(Buffer.compare(wrapContainer(r.stream, 'null'), original)).toBe(0);
  });
});
