/**
 * The upgrade scoreboard's comparison of two `llvm-dis` listings of one module: ours (from the
 * bitcode `writeModern` wrote) and LLVM's (from `llvm-as` of the text `printModern` wrote). The
 * `; ModuleID` and `source_filename` lines name the files, and attribute groups are numbered in
 * the order LLVM meets them: each `#N` is replaced by what its group holds before comparing.
 */

/** The listing with file names dropped and attribute group numbers replaced by their contents. */
export function normaliseDisassembly(text: string): string[] {
  const groups = new Map<string, string>();
  const lines = text.split('\n');
  for (const l of lines) {
    const m = /^attributes (#[0-9]+) = (\{.*\})$/.exec(l);
    if (m) groups.set(m[1]!, m[2]!);
  }
  return lines
    .filter((l) => !l.startsWith('; ModuleID') && !l.startsWith('source_filename') && !l.startsWith('attributes #'))
    .map((l) => l.replace(/#[0-9]+\b/g, (g) => groups.get(g) ?? g));
}

/** Undefined when the two listings are the same modulo the above, else the first difference. */
export function sameDisassembly(ours: string, reference: string): string | undefined {
  const a = normaliseDisassembly(ours);
  const b = normaliseDisassembly(reference);
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: ours '${(a[i] ?? '(end)').slice(0, 160)}', LLVM's '${(b[i] ?? '(end)').slice(0, 160)}'`;
  }
  return undefined;
}
