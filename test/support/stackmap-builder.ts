/**
 * Hand-built stack map sections for tests, written field by field from the layouts in
 * ../shared/stackmaps/README.md — independently of the library's encoder, so a test of the decoder
 * checks it against the documented layout, not against itself.
 */
export type Endian = 'little' | 'big';

export interface LocationSpec {
  kind: number;
  size?: number;
  reg?: number;
  offset?: number;
}
export interface RecordSpec {
  id: bigint | number;
  offset: number;
  locations?: LocationSpec[];
  liveOuts?: Array<{ reg: number; size: number }>;
}
export interface SectionSpec {
  version: 0 | 1 | 2 | 3;
  endian?: Endian;
  /** 'manticore': version 1 with u32 record counts; 'manticore-u64': with u64 ones; 'v3': the version-3 layout whatever the byte. */
  layout?: 'llvm' | 'manticore' | 'manticore-u64' | 'v3';
  functions?: Array<{ address?: bigint; stackSize: bigint | number; count?: number }>;
  constants?: bigint[];
  records: RecordSpec[];
}

/** A growable byte writer in one byte order. */
export class Bytes {
  private readonly out: number[] = [];
  constructor(readonly endian: Endian = 'little') {}
  get length(): number {
    return this.out.length;
  }
  private int(v: bigint, n: number): this {
    const b: number[] = [];
    let x = BigInt.asUintN(n * 8, v);
    for (let i = 0; i < n; i++) {
      b.push(Number(x & 0xffn));
      x >>= 8n;
    }
    this.out.push(...(this.endian === 'little' ? b : b.reverse()));
    return this;
  }
  u8(v: number): this {
    return this.int(BigInt(v), 1);
  }
  u16(v: number): this {
    return this.int(BigInt(v), 2);
  }
  u32(v: number): this {
    return this.int(BigInt(v), 4);
  }
  u64(v: bigint | number): this {
    return this.int(BigInt(v), 8);
  }
  align(n: number): this {
    while (this.out.length % n) this.out.push(0);
    return this;
  }
  raw(b: ArrayLike<number>): this {
    this.out.push(...Array.from(b));
    return this;
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

/** A section of `spec.version` as LLVM (or the named variant) wrote it. */
export function buildSection(spec: SectionSpec): Uint8Array {
  const w = new Bytes(spec.endian ?? 'little');
  const layout = spec.layout ?? 'llvm';
  const functions = spec.functions ?? [];
  const constants = spec.constants ?? [];
  const wide = layout === 'v3' || spec.version === 3;
  if (spec.version === 0) {
    w.u32(0).u32(constants.length);
    constants.forEach((c) => w.u64(c));
    w.u32(spec.records.length);
    for (const r of spec.records) {
      w.u32(Number(r.id))
        .u32(r.offset)
        .u16(0)
        .u16(r.locations?.length ?? 0);
      for (const l of r.locations ?? [])
        w.u8(l.kind)
          .u8(0)
          .u16(l.reg ?? 0)
          .u32(l.offset ?? 0);
    }
    return w.bytes();
  }
  w.u8(spec.version).u8(0).u16(0).u32(functions.length).u32(constants.length).u32(spec.records.length);
  for (const f of functions) {
    w.u64(f.address ?? 0n).u64(f.stackSize);
    if (layout === 'manticore') w.u32(f.count ?? 0);
    else if (spec.version >= 2 || layout === 'v3' || layout === 'manticore-u64') w.u64(f.count ?? 0);
  }
  constants.forEach((c) => w.u64(c));
  for (const r of spec.records) {
    w.u64(r.id)
      .u32(r.offset)
      .u16(0)
      .u16(r.locations?.length ?? 0);
    for (const l of r.locations ?? []) {
      if (wide)
        w.u8(l.kind)
          .u8(0)
          .u16(l.size ?? 8)
          .u16(l.reg ?? 0)
          .u16(0)
          .u32(l.offset ?? 0);
      else
        w.u8(l.kind)
          .u8(l.size ?? 8)
          .u16(l.reg ?? 0)
          .u32(l.offset ?? 0);
    }
    if (wide) w.align(8);
    w.u16(0).u16(r.liveOuts?.length ?? 0);
    for (const lo of r.liveOuts ?? []) w.u16(lo.reg).u8(0).u8(lo.size);
    w.align(8);
  }
  return w.bytes();
}

/** A small section of the version with something of everything: two functions, a constant, live-outs. */
export function sampleSpec(version: 0 | 1 | 2 | 3, endian: Endian = 'little'): SectionSpec {
  if (version === 0) {
    return {
      version,
      endian,
      constants: [10000000000n],
      records: [
        {
          id: 2,
          offset: 1,
          locations: [
            { kind: 1, reg: 5 },
            { kind: 4, offset: 10 },
            { kind: 5, offset: 0 },
          ],
        },
        { id: 3, offset: 9, locations: [{ kind: 3, reg: 6, offset: -16 }] },
      ],
    };
  }
  return {
    version,
    endian,
    functions: [
      { stackSize: 16, count: 2 },
      { stackSize: (1n << 64n) - 1n, count: 1 },
    ],
    constants: [10000000000n],
    records: [
      {
        id: 2,
        offset: 1,
        locations: [
          { kind: 1, reg: 5 },
          { kind: 4, offset: -10, size: 4 },
          { kind: 5, offset: 0 },
        ],
        liveOuts: [{ reg: 7, size: 8 }],
      },
      {
        id: 3n,
        offset: 9,
        locations: [
          { kind: 2, reg: 4, offset: -8 },
          { kind: 3, reg: 6, offset: -16 },
        ],
      },
      {
        id: 1n << 40n,
        offset: 4,
        locations: [],
        liveOuts: [
          { reg: 0, size: 8 },
          { reg: 7, size: 8 },
        ],
      },
    ],
  };
}
