/**
 * The outer forms a bytecode file has had (docs/format.md): its signature and how its stream was
 * stored. Both the container layer, which reads and writes them, and the graph, whose `SourceInfo`
 * records them, name these; they live here, below both, so that the graph imports nothing above it.
 */

/**
 * The first four or five bytes of a file: `llvm` (uncompressed), `llvc0` (null compression),
 * `llvc1` (zlib), `llvc2` (bzip2).
 *
 * @category Graph
 */
export type Signature = 'llvm' | 'llvc0' | 'llvc1' | 'llvc2';

/**
 * How the stream was stored: `none` (an `llvm` file), `null` (`llvc0`), `zlib`, `bzip2`.
 *
 * @category Graph
 */
export type Compression = 'none' | 'null' | 'zlib' | 'bzip2';
