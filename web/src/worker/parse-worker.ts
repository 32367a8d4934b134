/**
 * The parse worker: everything slow (decompressing, reading, printing, analysing, writing) runs
 * here so the page never freezes. It keeps the last module read, so switching syntax or converting
 * does not read the file again.
 */
import { unwrapContainer, type Unwrapped } from '../../../src/container/index.js';
import { readModule } from '../../../src/read.js';
import { DIALECT_VERSION, detectDialect, parseAssembly } from '../../../src/asm/index.js';
import { writeModule } from '../../../src/encode/write.js';
import { classifyContents, isArchive, isFileMember, memberContents, readArchive } from '../../../src/archive/index.js';
import { decodeLatin1 } from '../../../src/binary/latin1.js';
import { writeModuleAsync } from '../../../src/encode/write.js';
import { convertToVersion7 } from '../../../src/convert/to-version7.js';
import { BytecodeError } from '../../../src/errors/bytecode-error.js';
import { formatFor } from '../../../src/format/format-table.js';
import { withCompressedTextModeDiagnosis } from '../../../src/format/text-mode-damage.js';
import type { Module } from '../../../src/graph/module.js';
import { loadLibrary, type Analysis, type Library } from './library.js';
import { toBlockTree } from './block-tree.js';
import { errorInfo } from './error-info.js';
import { isObjectFile, stackMapView } from './stackmap.js';
import { moduleCounts, analysisCounts } from './counts.js';
import type { ArchiveEntry, BlockNode, ErrorInfo, FromWorker, Summary, Syntax, TextResult, ToWorker } from './protocol.js';

// Load the optional parts now, while the user is still choosing a file.
void loadLibrary();

interface WorkerScope {
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;

/** The file currently open: kept so that printing in another syntax or converting is cheap. */
let current: { id: number; name: string; module: Module | null; texts: Map<Syntax, TextResult> } | null = null;

/** The archive opened last: its bytecode members, so that another one opens without the file. */
let archive: { name: string; members: { name: string; bytes: Uint8Array }[] } | null = null;

/**
 * An `ar` archive: lists every member for the page, keeps the bytecode members, and opens the
 * first of them like a file (named `lib.a(member.bc)`, as the CLI names it).
 */
async function openArchive(id: number, name: string, bytes: Uint8Array, syntax: Syntax): Promise<void> {
  archive = null;
  const entries: ArchiveEntry[] = [];
  const members: { name: string; bytes: Uint8Array }[] = [];
  let problem: unknown = null;
  try {
    for (const member of readArchive(bytes).members) {
      if (!isFileMember(member)) continue;
      const contents = memberContents(member);
      const kind = member.compressed ? classifyContents(contents) : member.kind;
      const bytecode = kind === 'bytecode' || kind === 'compressed-bytecode';
      entries.push({ name: member.name, kind, size: contents.length, index: bytecode ? members.length : null });
      if (bytecode) members.push({ name: member.name, bytes: contents });
    }
  } catch (e) {
    problem = e;
  }
  if (problem === null && members.length === 0) problem = new Error('the archive has no bytecode members');
  if (problem !== null) {
    const lib = await loadLibrary();
    const summary: Summary = {
      fileName: name,
      fileSize: bytes.length,
      signature: '!<arch>',
      compression: null,
      bytecodeVersion: null,
      writtenBy: 'an ar archive',
      nativeDialect: null,
      uncompressedSize: null,
      counts: [['Members', String(entries.length)]],
    };
    const stream = bytes.slice().buffer;
    post({ type: 'archive', id, name, members: entries });
    post(
      {
        type: 'opened',
        id,
        summary,
        stream,
        streamIsFile: true,
        error: errorInfo(problem),
        text: null,
        textError: null,
        syntaxes: syntaxesOf(lib),
        canConvert: false,
        millis: { unwrap: 0, read: 0, print: 0 },
      },
      [stream],
    );
    post({ type: 'analyzed', id, summary, tree: [], treeNote: 'An archive has no blocks of its own; open one of its bytecode members.', millis: 0 });
    return;
  }
  archive = { name, members };
  post({ type: 'archive', id, name, members: entries });
  await open(id, `${name}(${members[0]!.name})`, members[0]!.bytes, syntax);
}

/** Opens bytecode member `index` of the archive opened last. */
async function openMember(id: number, index: number, syntax: Syntax): Promise<void> {
  const member = archive?.members[index];
  if (!archive || !member) throw new Error(`no archive member #${index} is open`);
  await open(id, `${archive.name}(${member.name})`, member.bytes, syntax);
}

function post(message: FromWorker, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

function lineStartsOf(text: string): Uint32Array {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) count++;
  const starts = new Uint32Array(text.length === 0 ? 0 : count);
  let n = 0;
  if (text.length > 0) starts[n++] = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
  return starts;
}

/**
 * The syntaxes the page offers for `module`. A module of signless integers (version 7, LLVM 2.0
 * development) has one listing, LLVM 2.0's as r36867's `llvm-dis` printed it: LLVM 1.9 could not
 * read the file, so there is no "LLVM 1.9" printing to offer, and it opens as its native syntax.
 */
function syntaxesOf(lib: Library, module: Module | null = null): Syntax[] {
  const version = module?.source?.bytecodeVersion;
  const only20 = version !== undefined && formatFor(version)?.typeIdScheme === 'llvm2';
  const printed: Syntax[] = only20 ? ['native'] : ['1.9', 'native'];
  return lib.modern ? [...printed, 'modern'] : printed;
}

/** Prints `module` in `syntax`, or explains why it cannot. */
function printIn(lib: Library, module: Module, syntax: Syntax): { text: TextResult | null; error: ErrorInfo | null } {
  const started = performance.now();
  try {
    let text: string;
    if (syntax === 'modern') {
      if (!lib.modern) return { text: null, error: missing('modern IR output is not part of this build yet') };
      text = lib.modern.printModern(module);
    } else {
      text = lib.print(module, syntax);
    }
    return { text: { syntax, text, lineStarts: lineStartsOf(text), millis: performance.now() - started }, error: null };
  } catch (e) {
    return { text: null, error: errorInfo(e) };
  }
}

function missing(reason: string): ErrorInfo {
  return { kind: 'Unavailable', reason, message: reason, offset: null, blockPath: [] };
}

async function open(id: number, name: string, input: Uint8Array, syntax: Syntax): Promise<void> {
  let bytes = input;
  const steps = 5;
  const progress = (stage: string, step: number): void => post({ type: 'progress', id, stage, step, steps });
  const millis = { unwrap: 0, read: 0, print: 0 };
  current = { id, name, module: null, texts: new Map() };

  progress('Loading the library', 0);
  const lib = await loadLibrary();

  // An object file: its stack map sections (stackmap.ts), the same text under every syntax.
  if (isObjectFile(bytes)) {
    progress('Reading the stack maps', 2);
    const t0 = performance.now();
    const view = stackMapView(name, bytes);
    const text = view.text === null ? null : { syntax, text: view.text, lineStarts: lineStartsOf(view.text), millis: performance.now() - t0 };
    if (text) for (const s of ['1.9', 'native', 'modern'] as const) current.texts.set(s, { ...text, syntax: s });
    const stream = bytes.slice().buffer;
    post(
      {
        type: 'opened',
        id,
        summary: view.summary,
        stream,
        streamIsFile: true,
        error: view.error,
        text,
        textError: null,
        syntaxes: syntaxesOf(lib),
        canConvert: false,
        millis: { ...millis, read: text?.millis ?? 0 },
      },
      [stream],
    );
    post({
      type: 'analyzed',
      id,
      summary: view.summary,
      tree: [],
      treeNote: 'An object file has no bytecode blocks; its stack map sections are in the text.',
      millis: 0,
    });
    return;
  }

  // Assembly text (a `.ll` file): assemble it, then show what it becomes as bytecode, written at
  // the version its dialect's `llvm-as` wrote. Everything below then reads that bytecode.
  let assembledFrom: string | null = null;
  if (looksLikeText(bytes)) {
    progress('Assembling the text', 1);
    const text = decodeLatin1(bytes, 0, bytes.length);
    try {
      const dialect = detectDialect(text);
      const written = writeModule(parseAssembly(text, { fileName: name, dialect }), { bytecodeVersion: DIALECT_VERSION[dialect], compression: 'none' });
      assembledFrom = `assembled here from LLVM ${dialect} assembly text (${bytes.length} bytes)`;
      bytes = written;
    } catch (e) {
      const summary: Summary = {
        fileName: name,
        fileSize: bytes.length,
        signature: null,
        compression: null,
        bytecodeVersion: null,
        writtenBy: 'assembly text',
        nativeDialect: null,
        uncompressedSize: null,
        counts: [],
      };
      const stream = bytes.slice().buffer;
      post(
        {
          type: 'opened',
          id,
          summary,
          stream,
          streamIsFile: true,
          error: errorInfo(e),
          text: null,
          textError: null,
          syntaxes: syntaxesOf(lib),
          canConvert: false,
          millis,
        },
        [stream],
      );
      post({ type: 'analyzed', id, summary, tree: [], treeNote: 'The text did not assemble, so there are no blocks to show.', millis: 0 });
      return;
    }
  }

  progress(bytes[3] === 0x63 ? 'Decompressing' : 'Checking the signature', 1);
  let t = performance.now();
  let unwrapped: Unwrapped | null = null;
  let error: ErrorInfo | null = null;
  try {
    unwrapped = unwrapContainer(bytes);
  } catch (e) {
    // As readModule does: a compressed file that fails to decompress may show text-mode damage.
    error = errorInfo(e instanceof BytecodeError ? withCompressedTextModeDiagnosis(e, bytes) : e);
  }
  millis.unwrap = performance.now() - t;

  let module: Module | null = null;
  if (unwrapped) {
    progress('Reading the module', 2);
    t = performance.now();
    try {
      // The stream is already unwrapped; reading it again as `llvm` costs no copy.
      module = readModule(unwrapped.stream);
      if (module.source) {
        module.source = { ...module.source, signature: unwrapped.signature, compression: unwrapped.compression };
      }
      current.module = module;
    } catch (e) {
      error = errorInfo(e);
      // Read as a bare stream, a damaged compressed file could be given readModule's text-mode
      // hint, which only an uncompressed file can deserve: take the error exactly as
      // `readModule(file)` gives it (decompressing again costs nothing next to a failure).
      if (unwrapped.compression === 'bzip2' || unwrapped.compression === 'zlib') {
        try {
          readModule(bytes);
        } catch (again) {
          error = errorInfo(again);
        }
      }
    }
    millis.read = performance.now() - t;
  }

  let text: TextResult | null = null;
  let textError: ErrorInfo | null = null;
  const syntaxes = syntaxesOf(lib, module);
  if (module) {
    progress('Disassembling', 3);
    const chosen = syntaxes.includes(syntax) ? syntax : (syntaxes[0] ?? syntax);
    ({ text, error: textError } = printIn(lib, module, chosen));
    if (text) current.texts.set(chosen, text);
    millis.print = text?.millis ?? 0;
  }

  const sniffed = unwrapped ? null : sniff(bytes);
  const summaryOf = (analysis: Analysis | null): Summary => {
    const version = module?.source?.bytecodeVersion ?? analysis?.version ?? null;
    const row = version === null ? undefined : formatFor(version);
    return {
      fileName: name,
      fileSize: input.length,
      signature: unwrapped?.signature ?? analysis?.signature ?? sniffed?.[0] ?? null,
      compression: unwrapped?.compression ?? analysis?.compression ?? sniffed?.[1] ?? null,
      bytecodeVersion: version,
      writtenBy: assembledFrom ?? row?.writtenBy ?? null,
      nativeDialect: row ? `LLVM ${row.nativeDialect}` : null,
      uncompressedSize: unwrapped?.stream.length ?? null,
      // The analyzer's figures only where it walked a module block: for a file that is not bytecode
      // they would be a row of zeros beside the error.
      counts: [...(module ? moduleCounts(module) : []), ...(analysis && analysis.blocks.length > 0 ? analysisCounts(analysis) : [])],
    };
  };

  // The stream goes to the page for the hex view; a copy, because the module may still view it.
  const stream = (unwrapped ? unwrapped.stream : bytes).slice().buffer;
  post(
    {
      type: 'opened',
      id,
      summary: summaryOf(null),
      stream,
      streamIsFile: !unwrapped,
      error,
      text,
      textError,
      syntaxes,
      canConvert: module !== null,
      millis,
    },
    [stream],
  );

  // The block walk comes second: the text is what most people wait for.
  progress('Analysing the blocks', 4);
  t = performance.now();
  let analysis: Analysis | null = null;
  let tree: BlockNode[] = [];
  let treeNote: string | null = null;
  try {
    // The analyzer never throws for bad input: a damaged file gives the blocks up to the damage.
    const result = lib.analyze(bytes);
    analysis = result.analysis;
    tree = toBlockTree(analysis, result.records);
    if (analysis.error) treeNote = `The block walk stopped at offset ${analysis.error.offset}: ${analysis.error.reason}`;
  } catch (e) {
    treeNote = `The analyzer failed: ${errorInfo(e).message}`;
  }
  if (current.id !== id) return;
  post({ type: 'analyzed', id, summary: summaryOf(analysis), tree, treeNote, millis: performance.now() - t });
}

/**
 * The signature and compression a file claims, for the summary of a file whose container could not
 * be opened (a truncated bzip2 file is still recognisably `llvc2`).
 */
const CONTAINERS = new Map([
  ['llvc0', 'null'],
  ['llvc1', 'zlib'],
  ['llvc2', 'bzip2'],
]);

/**
 * Assembly text rather than bytecode: no bytecode or archive signature, no NUL byte, and the first
 * thing in it is a comment, a name, a keyword or a type.
 */
function looksLikeText(bytes: Uint8Array): boolean {
  const head = String.fromCharCode(...bytes.subarray(0, 8));
  if (head.startsWith('llvm') || head.startsWith('llvc') || head.startsWith('!<arch>')) return false;
  const sample = bytes.subarray(0, 4096);
  if (sample.length === 0 || sample.includes(0)) return false;
  let i = 0;
  while (i < sample.length && (sample[i] === 0x20 || sample[i] === 0x09 || sample[i] === 0x0a || sample[i] === 0x0d)) i++;
  const c = sample[i] ?? 0;
  return c === 0x3b /* ; */ || c === 0x25 /* % */ || c === 0x22 /* " */ || c === 0x5b || c === 0x7b || c === 0x3c || (c >= 0x61 && c <= 0x7a);
}

function sniff(bytes: Uint8Array): [string, string] | null {
  const head = String.fromCharCode(...bytes.subarray(0, 5));
  if (head.startsWith('llvm')) return ['llvm', 'none'];
  const compression = CONTAINERS.get(head);
  return compression ? [head, compression] : null;
}

async function print(id: number, syntax: Syntax): Promise<void> {
  const lib = await loadLibrary();
  // An object file's stack map text is cached under every syntax, with no module.
  const cached = current?.texts.get(syntax);
  if (cached) {
    post({ type: 'printed', id, text: cached, error: null });
    return;
  }
  if (!current?.module) {
    post({ type: 'printed', id, text: null, error: missing('no module is open') });
    return;
  }
  const { text, error } = printIn(lib, current.module, syntax);
  if (text) current.texts.set(syntax, text);
  post({ type: 'printed', id, text, error });
}

async function convert(id: number, version: number, compression: 'auto' | 'none' | 'bzip2'): Promise<void> {
  const base = (current?.name ?? 'module').replace(/\.(bc|bca|bytecode|ll)$/i, '');
  const fileName = `${base}.v${version}${compression === 'none' ? '' : compression === 'bzip2' ? '.bz2' : ''}.bc`;
  if (!current?.module) {
    post({ type: 'converted', id, bytes: null, fileName, error: missing('no module is open') });
    return;
  }
  try {
    // Version 7 has signless integers only: an LLVM 1.x module goes through llvm-upgrade's
    // conversion first, as the CLI's `rewrite --bytecode-version 7` does (a version-7 module is
    // returned as it is).
    const signless = formatFor(version)?.typeIdScheme === 'llvm2';
    const module = signless ? convertToVersion7(current.module) : current.module;
    const out = await writeModuleAsync(module, { bytecodeVersion: version, compression });
    const copy = out.slice().buffer;
    post({ type: 'converted', id, bytes: copy, fileName, error: null }, [copy]);
  } catch (e) {
    post({ type: 'converted', id, bytes: null, fileName, error: errorInfo(e) });
  }
}

/** The upgrade for LLVM `llvm` as a download: `NAME.llvmN.ll` (modern IR) or `NAME.llvmN.bc` (bitcode). */
async function upgrade(id: number, emit: 'text' | 'bitcode', llvm: number): Promise<void> {
  const base = (current?.name ?? 'module').replace(/^.*\((.*)\)$/s, '$1').replace(/\.(bc|bc-\d+|bca|bytecode|ll)$/i, '');
  const fileName = `${base}.llvm${llvm}.${emit === 'bitcode' ? 'bc' : 'll'}`;
  const lib = await loadLibrary();
  if (!current?.module || !lib.modern) {
    post({ type: 'converted', id, bytes: null, fileName, error: missing(current?.module ? 'the upgrade is not part of this build' : 'no module is open') });
    return;
  }
  try {
    const out =
      emit === 'bitcode' ? lib.modern.writeModern(current.module, { llvm }) : new TextEncoder().encode(lib.modern.printModern(current.module, { llvm }));
    const copy = out.slice().buffer;
    post({ type: 'converted', id, bytes: copy, fileName, error: null }, [copy]);
  } catch (e) {
    post({ type: 'converted', id, bytes: null, fileName, error: errorInfo(e) });
  }
}

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const msg = event.data;
  const task =
    msg.type === 'open'
      ? isArchive(new Uint8Array(msg.bytes))
        ? openArchive(msg.id, msg.name, new Uint8Array(msg.bytes), msg.syntax)
        : ((archive = null), open(msg.id, msg.name, new Uint8Array(msg.bytes), msg.syntax))
      : msg.type === 'open-member'
        ? openMember(msg.id, msg.index, msg.syntax)
        : msg.type === 'print'
          ? print(msg.id, msg.syntax)
          : msg.type === 'upgrade'
            ? upgrade(msg.id, msg.emit, msg.llvm)
            : convert(msg.id, msg.version, msg.compression);
  task.catch((e: unknown) => {
    // Only a bug in the page itself gets here; report it like any other error.
    const info = errorInfo(e);
    if (msg.type === 'convert' || msg.type === 'upgrade') post({ type: 'converted', id: msg.id, bytes: null, fileName: '', error: info });
    else post({ type: 'printed', id: msg.id, text: null, error: info });
  });
};
