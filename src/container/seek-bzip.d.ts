/**
 * Typings for `seek-bzip` 2.x (pure-JavaScript bzip2 decoder, CommonJS), covering only what
 * `bzip2.ts` uses. Its streams are duck-typed objects: the decoder calls `readByte()` for every
 * input byte and `writeByte(b)` for every output byte, which is what lets us stop a bomb early
 * (the output stream throws once the cap is reached) and stop cleanly on truncated input (the
 * input stream throws past the end instead of returning garbage).
 */
declare module 'seek-bzip' {
  namespace Bunzip {
    interface InputStream {
      /** The next byte of compressed input (0–255). */
      readByte(): number;
      /** Fills `buffer[offset…offset+length)`; returns the count read (used for the `BZh` magic). */
      read(buffer: Uint8Array, offset: number, length: number): number;
      seek(pos: number): void;
      /** If present, `decode` stops between blocks once it returns true (we leave it absent). */
      eof?(): boolean;
    }
    interface OutputStream {
      writeByte(byte: number): void;
    }
    /** Error codes carried as `errorCode` on the `TypeError`s the decoder throws. */
    const Err: {
      readonly OK: 0;
      readonly LAST_BLOCK: -1;
      readonly NOT_BZIP_DATA: -2;
      readonly UNEXPECTED_INPUT_EOF: -3;
      readonly UNEXPECTED_OUTPUT_EOF: -4;
      readonly DATA_ERROR: -5;
      readonly OUT_OF_MEMORY: -6;
      readonly OBSOLETE_INPUT: -7;
      readonly END_OF_BLOCK: -8;
    };
    const version: string;
    /**
     * Decodes a whole bzip2 stream (`multistream`: also following concatenated streams). With
     * stream objects it returns nothing; with a buffer or size for `output` it returns a Node
     * `Buffer` (not used here: core code stays Buffer-free).
     */
    function decode(input: InputStream | Uint8Array, output?: OutputStream, multistream?: boolean): void;
  }
  const Bunzip: {
    Err: typeof Bunzip.Err;
    version: string;
    decode: typeof Bunzip.decode;
  };
  export = Bunzip;
}
