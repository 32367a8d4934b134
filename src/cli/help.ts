/** The CLI's help texts, one per command, kept apart from the logic so they read as documents. */

import { DEFAULT_LLVM, NEWEST_LLVM, OLDEST_LLVM } from '../modern/llvm-versions.js';

export const TOOL = 'llvm-bytecode';

/** Batch mode, the same for every command. */
const BATCH_NOTE = `Several FILEs or a DIR make a batch: each output goes to OUTDIR under the input's path
relative to DIR, in --jobs N threads (default: one per core). A DIR stands for its files down to
32 levels: every .bc file and every other file that starts with bytecode's signature (for as:
every .ll file); one note counts what was left out, by reason. OUTDIR must be a directory (an -o
named like a file, out.ll, is refused). A file that fails gets one error line and writes
nothing; the others are still written (exit status 1). On a terminal, a progress line on stderr.
An archive (lib.a) stands for its bytecode members, like a DIR (OUTDIR/MEMBER.ll; members that
are not bytecode are skipped, and named); 'lib.a(MEMBER)' is one member, like a FILE.`;

/** What every command promises about its outputs. */
const SAFETY_NOTE = `No output may be one of the inputs (the same file through any link): refused before anything
is read, exit status 1. Every file is written under a temporary name beside it and renamed
into place, so a failed or interrupted run leaves what was there. Bytecode is never written
to a terminal. Inputs are checked on their first bytes and held to --limit maxInputSize
(256 MiB); --limit NAME=N raises any limit an error names (docs/limits.md).`;

/** The options every file command shares, in two widths (the column of each help's options). */
function commonOptions(width: number): string {
  const line = (flags: string, text: string): string => `  ${flags.padEnd(width - 2)}${text}`;
  return [
    line('-j, --jobs N', 'batch: threads (default: the number of cores)'),
    line('--limit NAME=N', 'raise or lower a limit (repeatable; e.g. maxInputSize=1G,'),
    line('', 'maxDecompressedSize=512M; all of them: docs/limits.md)'),
    line('-v, --version', 'print the version'),
    line('-h, --help', 'show this help'),
  ].join('\n');
}

export const OVERALL_HELP = `${TOOL}: read, print and write LLVM 1.x bytecode (.bc files, versions 0-7)

usage: ${TOOL} <command> [options] [FILE]
       ${TOOL} <command> [options] FILE|DIR... -o OUTDIR     (batch)

commands:
  dis [FILE]       print the module as LLVM assembly, as llvm-dis did
  rewrite IN -o OUT
                   read a module and write it back as bytecode
  analyze [FILE]   describe the file's blocks and sizes, as llvm-bcanalyzer did
  upgrade [FILE]   print the module as modern LLVM IR (LLVM 13 to 22; typed pointers to 14), or
                   write it as LLVM bitcode (-o FILE.bc, --emit bitcode); FILE may also be
                   LLVM 1.x assembly text
  as [FILE.ll]     assemble LLVM 1.x assembly text (any release's) into bytecode, as llvm-as did
  ar OPS ARCHIVE [FILES...]
                   list, extract or build archives of bytecode, as llvm-ar did
  nm [FILE|ARCHIVE...]
                   list the symbols of modules and archives, as llvm-nm did
  link A.bc B.bc... -o OUT.bc
                   link modules (and archives' needed members) into one, as llvm-link did
  stackmap FILE... print, check or convert the LLVM stack map sections of object files

options:
  -h, --help       show this help; '${TOOL} <command> --help' for a command
  -v, --version    print the version

FILE '-' (or no FILE, for dis, analyze, upgrade and as, when standard input is not a terminal)
reads standard input. A command run with no arguments at a terminal shows its usage.
${BATCH_NOTE}
${SAFETY_NOTE}
Exit status: 0 success, 1 an input could not be read or written, 2 usage error.
`;

export const DIS_HELP = `usage: ${TOOL} dis [FILE] [-o OUT] [--syntax 1.9|native]
       ${TOOL} dis FILE|DIR... -o OUTDIR [--jobs N] [--syntax 1.9|native]

Prints the module in FILE as LLVM assembly, byte for byte as LLVM's llvm-dis printed it.
A batch writes NAME.ll for each NAME.bc.

options:
  -o, --output OUT   write to OUT instead of standard output ('-' = standard output)
  --syntax 1.9       LLVM 1.9's dialect, whatever version wrote the file (default)
  --syntax native    the dialect of the release that wrote the file (1.1, 1.2, 1.3, 1.8, 1.9)
${commonOptions(21)}
`;

export const REWRITE_HELP = `usage: ${TOOL} rewrite IN -o OUT [--bytecode-version N] [--compress auto|llvm|none|bzip2]
                     [--drop-target] [--drop-deplibs]
       ${TOOL} rewrite IN|DIR... -o OUTDIR [--jobs N] [options]

Reads the module in IN and writes it as bytecode to OUT ('-' = standard output). A file written by
LLVM 1.1, 1.2, 1.3, 1.8, 1.9 or 2.0's development trunk (version 7) comes back byte for byte as
that release wrote it. Version 7 from a version 0–6 file converts the module as
'llvm-dis-1.9 | llvm-upgrade | llvm-as' did. A batch writes each file under its own name.

options:
  -o, --output OUT        the file to write (required; '-' = standard output, not a terminal)
  --bytecode-version N    0, 1, 3, 5, 6 or 7; default: IN's own version when it is one of these,
                          else 6. What N cannot express is refused, naming it
  (no --compress)         IN's own container (bare, llvc0, zlib or bzip2) when OUT has IN's
                          version, so that the file comes back byte for byte; else as auto
  --compress auto         as LLVM did: bzip2 above 64 KiB, versions 5 and 6 (version 7's
                          llvm-as compressed only when asked)
  --compress llvm         LLVM's choice by size whatever the version (llvc0 or llvc2)
  --compress none         a bare 'llvm' stream
  --compress bzip2        always bzip2 ('llvc2'; versions 5 and later)
  --drop-target           leave out the module's target triple (versions 0 and 1 have no
                          field for it, so converting to them refuses a module that has one)
  --drop-deplibs          leave out the module's dependent libraries (likewise)
${commonOptions(26)}
`;

export const ANALYZE_HELP = `usage: ${TOOL} analyze [FILE] [-o OUT] [--dump] [--json]
       ${TOOL} analyze FILE|DIR... [-o OUTDIR] [--jobs N] [--dump | --json]

Describes the blocks of FILE and their sizes, as LLVM 1.9's llvm-bcanalyzer did. A batch prints
each analysis in turn, or with -o OUTDIR writes NAME.bca.txt (NAME.bca.json with --json,
NAME.bcadump.txt with --dump) for each NAME.bc.

A damaged file gives the same one-line error as dis (exit status 1) after the figures up to
the damage; a file that is not bytecode at all gives the error alone.

options:
  -o, --output OUT   write to OUT instead of standard output
  --dump             list every block and record before the summary (llvm-bcanalyzer -dump)
  --json             print the analysis as JSON instead of text
${commonOptions(21)}
`;

export const UPGRADE_HELP = `usage: ${TOOL} upgrade [FILE] [-o OUT] [--emit text|bitcode] [--llvm N] [--triple none|keep|host|TRIPLE] [--exceptions native|abort]
       ${TOOL} upgrade FILE|DIR... -o OUTDIR [--jobs N] [options]

Prints the module in FILE as textual IR for the tools (llvm-as, opt, lli) of LLVM N, or
writes the same module as LLVM bitcode, with no llvm-as needed. For N from 15 the pointers are
opaque (ptr), and LLVM 15 to 22 read the bitcode (14 with -opaque-pointers); for 13 and 14 they
are typed (i32*), and the bitcode of --llvm 13 is read by every LLVM from 13 to 22: pick
--llvm 13 for one .bc file that all of them take. What each LLVM 1.x construct becomes, and where
meaning can change: docs/upgrade.md. A batch writes NAME.ll (NAME.bc with --emit bitcode) for
each NAME.bc.

options:
  -o, --output OUT      write to OUT instead of standard output ('-' = standard output);
                        an OUT ending in .bc gets bitcode
  --emit text           textual IR (default, unless OUT ends in .bc)
  --emit bitcode        LLVM bitcode (never written to a terminal)
  --llvm N              the LLVM release to write for, ${OLDEST_LLVM} to ${NEWEST_LLVM} (default ${DEFAULT_LLVM}, the
                        newest): constant expressions it no longer accepts are folded or
                        become instructions; one in a global's initializer that can be
                        neither is refused. 13 and 14: typed pointers (--llvm 13 --emit
                        bitcode: the file every LLVM from 13 to 22 reads)
  --triple none         no target triple: LLVM's tools use the host they run on (default; the
                        file's triple stays as a comment). lli runs the result on this machine
  --triple keep         the file's own triple (often i686-...: lli on a 64-bit host crashes)
  --triple host         this machine's triple
  --triple TRIPLE       that triple, e.g. x86_64-pc-linux-gnu
  --exceptions native   invoke keeps its unwind edge (a landing pad) and unwind raises an
                        exception the nearest enclosing invoke catches, as in LLVM 1.x (default;
                        compiled natively it needs the C++ runtime: link with -lstdc++)
  --exceptions abort    invoke becomes a call, unwind calls abort()
${commonOptions(24)}
`;

export const AS_HELP = `usage: ${TOOL} as [FILE.ll] [-o OUT.bc] [--bytecode-version N] [--dialect R] [--compress auto|none|bzip2]
       ${TOOL} as FILE|DIR... -o OUTDIR [--jobs N] [options]

Assembles LLVM 1.x assembly text into bytecode, as that release's llvm-as did: the grammar of
every release from 1.1 to 1.9, with what LLVM's parser silently upgraded, and LLVM 2.0-development
text (define, @globals, i32, icmp; r36867's, the last llvm-as to write bytecode: version 7)
(docs/assembler.md).
An error names the line and column and shows the line. As llvm-as did, FILE.ll without -o
writes FILE.bc, and only when FILE.bc does not exist yet; standard input goes to standard
output (not a terminal). A batch writes NAME.bc for each NAME.ll.

options:
  -o, --output OUT        write to OUT ('-' = standard output, not a terminal)
  --dialect R             whose text it is: 1.1, 1.2, 1.3, 1.8, 1.9 or 2.0 (default: detected from
                          the text where it says; 'define', '@name' or 'i32' mean 2.0; else the
                          release that wrote --bytecode-version's version reads it, as its llvm-as
                          did; else 1.9)
  --bytecode-version N    0, 1, 3, 5, 6 or 7; default: what the dialect's llvm-as wrote (1.1 → 0,
                          1.2 → 1, 1.3 → 3, 1.8 → 5, 1.9 → 6, 2.0 → 7). 1.x text at 7 is
                          converted as llvm-upgrade did; 2.0 text at 0-6 is refused, naming what
                          those versions cannot hold
  --compress auto         as LLVM did: bzip2 above 64 KiB, versions 5 and later (default)
  --compress none         a bare 'llvm' stream
  --compress bzip2        always bzip2 ('llvc2'; versions 5 and later)
${commonOptions(26)}
`;

export const AR_HELP = `usage: ${TOOL} ar t|tv|x|p|d|q|r|rcs|rcsz ARCHIVE [FILES...]

Reads and writes ar archives of bytecode as LLVM 1.9's llvm-ar did (GNU, BSD and LLVM naming
read; LLVM's own written). Byte for byte, 'rcs' and 'rcsz' write what llvm-ar wrote.

operations:
  t   list the members (with v: kind, mode, uid/gid, size, date)
  x   extract the members named (all when none) into the current directory
  p   print the members named to standard output (bytecode only with k)
  d   delete the members named
  q   append the files
  r   replace the members of the same name, append the others

modifiers:
  c   do not say that the archive is being created
  s   write LLVM's symbol table (the default); S to omit it
  z   compress the members as llvm-ar z did
  f   store names truncated to 15 bytes, without directories
  k   with p: print bytecode members too
  o   with x: give the files the dates stored in the archive
  v   verbose; V also lists the symbol table

options:
  --limit NAME=N   raise or lower a limit (docs/limits.md)
  -v, --version    print the version (as the only argument)
  -h, --help       show this help

The archive is replaced whole or not at all; it is never added to itself, and no member is
extracted over it.
`;

export const NM_HELP = `usage: ${TOOL} nm [options] [FILE|ARCHIVE...]

Lists the functions and global variables of each module, and of each bytecode member of an
archive, exactly as LLVM 1.9's llvm-nm printed them. No FILE, or '-', reads standard input.

options:
  -format=bsd|sysv|posix   output layout (default bsd); -B = bsd, -P = posix
  -u, -undefined-only      only undeclared (U) symbols
  -defined-only            only defined symbols
  -g, -extern-only         only symbols that are not internal
  --limit NAME=N           raise or lower a limit (docs/limits.md)
  -v, --version            print the version
  -h, --help               show this help
`;

export const LINK_HELP = `usage: ${TOOL} link [options] A.bc B.bc... -o OUT.bc

Links the modules into one, as LLVM 1.9's llvm-link did: the first module is the destination and
each further one is linked into it in turn (named types resolved, declarations resolved to
definitions, linkage rules, appending arrays concatenated). OUT.bc is what llvm-link wrote for
the same inputs in the same order (bytecode version 6, bzip2 above 64 KiB). Inputs may be of any
version this tool reads. An archive (lib.a) among the inputs adds, round by round, the members
that define a symbol still undefined, as llvm-ld did. Where LLVM refused, the error is LLVM's
reason, e.g. 'Function ' int ()':"f" - Function is already defined!'.

options:
  -o OUT.bc                the linked module (required; never one of the inputs; '-' =
                           standard output, not a terminal)
  --disable-compression    never compress the output (llvm-link's option)
  -f                       accepted for llvm-link's sake (the output is always replaced)
  --limit NAME=N           raise or lower a limit (docs/limits.md)
  -v, --version            print the version
  -h, --help               show this help
`;
