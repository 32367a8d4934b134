/**
 * `llvm-bytecode ar OPERATION[MODIFIERS] ARCHIVE [FILES…]`, in LLVM 1.9 `llvm-ar`'s syntax, on the
 * library's archive layer (src/archive). Operations: `t` list, `x` extract, `p` print, `d` delete,
 * `q` append, `r` replace or insert. Modifiers: `c` (create quietly), `s` / `S` (write / omit LLVM's
 * symbol table; written by default, as llvm-ar did), `z` (compress members), `f` (truncate names),
 * `k` (`p` prints bytecode too), `o` (`x` keeps the stored dates), `v` / `V` (verbose).
 *
 * As llvm-ar did: the files named are taken in sorted order, once each; each new member's date,
 * uid, gid and mode (st_mode) come from the file system; the symbol table's date is llvm-ar's
 * (the clock plus 946684800 s, see docs/archive.md) and its uid/gid the process's. So `rcs` and
 * `rcsz` write the bytes LLVM 1.9's llvm-ar wrote. Unlike it, `r` replaces a member of the same
 * name (LLVM 1.9's `r` silently kept the old one).
 */
import { mkdirSync, statSync, utimesSync, existsSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import { UsageError } from './args.js';
import { NO_LIMITS_GIVEN, parseLimits, type CliLimits } from './cli-limits.js';
import { AR_HELP, TOOL } from './help.js';
import { boundsFor } from './input-kinds.js';
import { writeFileAtomically, type CliIo } from './io.js';
import { sameIdentity } from './output-guard.js';
import { FileError } from './file-error.js';

type Operation = 'd' | 'p' | 'q' | 'r' | 't' | 'x';

interface ArRequest {
  limits: CliLimits;
  operation: Operation;
  modifiers: Set<string>;
  archive: string;
  files: string[];
}

const OPERATIONS = new Set<string>(['d', 'p', 'q', 'r', 't', 'x']);
const MODIFIERS = new Set<string>(['c', 's', 'S', 'z', 'f', 'k', 'o', 'v', 'V', 'l']);

function parseArArgs(all: readonly string[]): ArRequest | 'help' {
  // `--limit NAME=VALUE` may stand anywhere; everything else is llvm-ar's syntax.
  const limitValues: string[] = [];
  const argv: string[] = [];
  for (let i = 0; i < all.length; i++) {
    const arg = all[i]!;
    if (arg === '--limit') {
      const value = all[++i];
      if (value === undefined) throw new UsageError(`option '--limit' needs a value`);
      limitValues.push(value);
    } else if (arg.startsWith('--limit=')) limitValues.push(arg.slice('--limit='.length));
    else argv.push(arg);
  }
  const limits = limitValues.length > 0 ? parseLimits(limitValues.join('\n')) : NO_LIMITS_GIVEN;
  const [ops, archive, ...files] = argv;
  if (ops === undefined || ops === '-h' || ops === '--help') return 'help';
  const letters = ops.replace(/^-/, '');
  let operation: Operation | undefined;
  const modifiers = new Set<string>();
  for (const c of letters) {
    if (OPERATIONS.has(c)) {
      if (operation !== undefined) throw new UsageError('ar: only one operation may be specified');
      operation = c as Operation;
    } else if (MODIFIERS.has(c)) {
      modifiers.add(c);
    } else {
      throw new UsageError(`ar: unsupported operation or modifier '${c}' (see '${TOOL} ar --help')`);
    }
  }
  if (operation === undefined) throw new UsageError('ar: you must specify one of the operations d, p, q, r, t, x');
  if (archive === undefined) throw new UsageError('ar: an archive name must be specified');
  if (modifiers.has('z') && operation !== 'r' && operation !== 'x')
    throw new UsageError("ar: the 'z' modifier is only applicable to the 'r' and 'x' operations");
  if (modifiers.has('f') && operation !== 'q' && operation !== 'r')
    throw new UsageError("ar: the 'f' modifier is only applicable to the 'q' and 'r' operations");
  if (modifiers.has('o') && operation !== 'x') throw new UsageError("ar: the 'o' modifier is only applicable to the 'x' operation");
  return { limits, operation, modifiers, archive, files };
}

/** A path as the bytes llvm-ar stored (one character per byte). */
function asBytes(path: string): string {
  return Buffer.from(path, 'utf8').toString('latin1');
}

export async function ar(argv: readonly string[], io: CliIo): Promise<number> {
  const request = parseArArgs(argv);
  if (request === 'help') {
    io.stdout(AR_HELP);
    return 0;
  }
  const lib = await import('../archive/index.js');
  const { operation, modifiers, archive: archivePath, files, limits } = request;
  // The archive is never one of its own new members, nor replaced by one extracted from it.
  const archiveIdentity = io.identity?.(archivePath);
  const isTheArchive = (path: string): boolean => {
    const id = archiveIdentity && io.identity?.(path);
    return id !== undefined && sameIdentity(id, archiveIdentity!);
  };
  if (operation === 'q' || operation === 'r') {
    const itself = files.find(isTheArchive);
    if (itself !== undefined) throw new FileError(itself, `refusing to add the archive to itself (it is ${archivePath}; nothing was read or written)`);
  }
  const verbose = modifiers.has('v') || modifiers.has('V');
  // The names asked for, as a set (llvm-ar's std::set<sys::Path>): sorted, each once.
  const wanted = [...new Set(files)].sort((a, b) => (asBytes(a) < asBytes(b) ? -1 : asBytes(a) > asBytes(b) ? 1 : 0));
  const wantedNames = new Set(wanted.map(asBytes));
  const selected = (m: { name: string }): boolean => wantedNames.size === 0 || wantedNames.has(m.name);

  let archive: ReturnType<typeof lib.readArchive> = { members: [] };
  if (existsSync(archivePath)) {
    archive = labelled(archivePath, () => lib.readArchive(io.readFile(archivePath, boundsFor('archive', limits)), { limits: limits.reader }));
  } else if (operation === 'q' || operation === 'r') {
    if (!modifiers.has('c')) io.stderr(`${TOOL} ar: creating ${archivePath}\n`);
  } else {
    labelled(archivePath, () => statSync(archivePath));
  }
  const fileMembers = archive.members.filter(lib.isFileMember);

  switch (operation) {
    case 't': {
      let out = '';
      for (const m of fileMembers) if (selected(m)) out += verbose ? `${verboseLine(m)}\n` : `${m.name}\n`;
      if (modifiers.has('V')) out += symbolTableListing(archive);
      io.stdout(out);
      return 0;
    }
    case 'x':
      for (const m of fileMembers) {
        if (!selected(m)) continue;
        const path = Buffer.from(m.name, 'latin1').toString('utf8');
        // Names come from the file: never write outside the current directory (llvm-ar did).
        if (path === '' || isAbsolute(path) || path.split(/[/\\]/).includes('..')) {
          const index = archive.members.indexOf(m);
          throw new FileError(
            archivePath,
            new lib.ArchiveError(`refusing to extract member '${m.name}': its name leaves the current directory`, m.headerOffset, [`member #${index}`]),
          );
        }
        if (isTheArchive(path)) throw new FileError(path, `refusing to extract member '${m.name}' over the archive it is in`);
        const data = labelled(archivePath, () => lib.memberContents(m, { limits: limits.reader }));
        labelled(path, () => {
          if (m.name.includes('/')) mkdirSync(dirname(path), { recursive: true });
          writeFileAtomically(path, data);
          if (modifiers.has('o')) utimesSync(path, m.date, m.date);
        });
      }
      return 0;
    case 'p':
      for (const m of fileMembers) {
        if (!selected(m) || (!modifiers.has('k') && lib.isBytecodeMember(m))) continue;
        if (verbose) io.stdout(`Printing ${m.name}\n`);
        io.stdout(labelled(archivePath, () => lib.memberContents(m, { limits: limits.reader })));
      }
      return 0;
    default:
      break;
  }

  // The operations that write the archive.
  type Member = Parameters<typeof lib.writeArchive>[0][number];
  let members: Member[] = fileMembers.map((m) => ({
    name: m.name,
    data: m.data,
    date: m.date,
    uid: m.uid,
    gid: m.gid,
    mode: m.mode,
    compressed: m.compressed,
  }));
  if (operation === 'd') {
    if (wanted.length === 0) return 0;
    members = members.filter((m) => !wantedNames.has(m.name));
  } else {
    const added = wanted.flatMap((path) => fromFile(path, io, limits));
    if (added.length === 0) return 0;
    for (const member of added) {
      const storedName = modifiers.has('f') ? member.name.slice(member.name.lastIndexOf('/') + 1).slice(0, 15) : member.name;
      const existing = operation === 'r' ? members.findIndex((m) => m.name === storedName) : -1;
      if (existing >= 0) members[existing] = member;
      else members.push(member);
    }
  }
  const now = Math.floor(Date.now() / 1000);
  const bytes = await labelled(archivePath, () =>
    lib.writeArchiveAsync(members, {
      symbolTable: !modifiers.has('S'),
      compress: modifiers.has('z'),
      truncateNames: modifiers.has('f'),
      // LLVM 1.9 wrote the clock through a conversion that added the 1970→2000 offset again.
      symbolTableHeader: { date: (now + 946684800) >>> 0, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 },
      ...(foreignTable(archive) ? { foreignSymbolTable: foreignTable(archive)! } : {}),
    }),
  );
  // Replaced whole or not at all: a failure leaves the archive as it was.
  labelled(archivePath, () => writeFileAtomically(archivePath, bytes));
  if (modifiers.has('V')) io.stdout(symbolTableListing(lib.readArchive(bytes)));
  return 0;

  function foreignTable(a: typeof archive): (typeof a.members)[number] | undefined {
    // llvm-ar kept the last foreign symbol table it met.
    return a.members.filter((m) => m.kind === 'foreign-symbol-table').pop();
  }
}

/** A new member from a file: its bytes, and date/uid/gid/mode from stat, as llvm-ar took them. */
function fromFile(path: string, io: CliIo, limits: CliLimits): { name: string; data: Uint8Array; date: number; uid: number; gid: number; mode: number }[] {
  return labelled(path, () => {
    let st;
    try {
      st = statSync(path);
    } catch {
      throw new UsageError(`ar: file does not exist: ${path}`);
    }
    if (st.isDirectory()) return []; // llvm-ar skipped directories without R
    return [
      { name: asBytes(path), data: io.readFile(path, boundsFor('any', limits)), date: Math.floor(st.mtimeMs / 1000), uid: st.uid, gid: st.gid, mode: st.mode },
    ];
  });
}

/** `tv`: kind, permissions, uid/gid, size, date, name, in llvm-ar's columns. */
function verboseLine(m: { kind: string; compressed: boolean; mode: number; uid: number; gid: number; data: Uint8Array; date: number; name: string }): string {
  const kind = m.kind === 'bytecode' ? 'b' : m.kind === 'compressed-bytecode' ? 'B' : m.compressed ? 'Z' : ' ';
  const rwx = (bits: number): string => `${bits & 4 ? 'r' : '-'}${bits & 2 ? 'w' : '-'}${bits & 1 ? 'x' : '-'}`;
  const perms = rwx((m.mode >> 6) & 7) + rwx((m.mode >> 3) & 7) + rwx(m.mode & 7);
  return `${kind}${perms} ${String(m.uid).padStart(4)}/${String(m.gid).padStart(4)} ${String(m.data.length).padStart(8)} ${ctimeTail(m.date).padStart(20)} ${m.name}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `ctime()` without the weekday, in local time: `Nov  7 12:00:00 2006`. */
function ctimeTail(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${MONTHS[d.getMonth()]} ${String(d.getDate()).padStart(2)} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} ${d.getFullYear()}`;
}

/** `V`: the symbol table, each symbol once (first entry wins), sorted, at absolute header offsets. */
function symbolTableListing(archive: { members: { kind: string; headerOffset: number }[]; symbolTable?: readonly { name: string; offset: number }[] }): string {
  const first = archive.members.find((m) => m.kind !== 'llvm-symbol-table' && m.kind !== 'foreign-symbol-table' && m.kind !== 'string-table');
  const base = first?.headerOffset ?? 0;
  const unique = new Map<string, number>();
  for (const s of archive.symbolTable ?? []) if (!unique.has(s.name)) unique.set(s.name, s.offset);
  let out = '\nArchive Symbol Table:\n';
  for (const name of [...unique.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) out += ` ${String(base + unique.get(name)!).padStart(9)}\t${name}\n`;
  return out;
}

/** Runs `f`, tying any failure to `file` for the one-line error. */
function labelled<T>(file: string, f: () => T): T {
  try {
    const result = f();
    if (result instanceof Promise) return result.catch((e: unknown) => Promise.reject(tag(file, e))) as T;
    return result;
  } catch (e) {
    throw tag(file, e);
  }
}

function tag(file: string, e: unknown): unknown {
  return e instanceof UsageError || e instanceof FileError ? e : new FileError(file, e);
}
