/**
 * The upgrade against the real tool: every `.bc` of the corpus (all versions, plus the sound
 * historical `constexpr.ll.bc-13`) is upgraded with `printModern`, then `llvm-as-16` must accept
 * it and `opt-16 -passes=verify` must pass; the `ExecutionEngine__*` programs (which LLVM ran with
 * `lli`, expecting exit status 0) must exit 0 under `lli-16`. The files that use `invoke` or
 * `unwind` (upgraded to landing pads and the platform unwinder, docs/upgrade.md "Exceptions") must
 * also survive `opt-16 -O2` and verify afterwards (inlining and simplifying the exception code).
 *
 * Tagged with what it needs (the corpus, Debian's LLVM 16: test/support/tools.ts) and skips,
 * counted by cause, without it (`apt-get install -y llvm-16`). Running the programs under lli-16 is
 * a test of its own per folder.
 * Prints a scoreboard per version; the ratchet below may only move up, and every exception must
 * be listed with its reason.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readModule } from '../../src/read.js';
import { printModern } from '../../src/modern/index.js';
import { CORPUS_PRESENT, corpusFiles, readCorpusFile, VERSION_FOLDERS, NEEDS_CORPUS } from '../support/corpus.js';
import type { Module } from '../../src/graph/module.js';
import { findTool, LLVM16, optimizeScript, runBatched, runScriptLli, verifyScript } from './llvm16.js';
import { needs } from '../support/tools.js';

const LLVM_AS = findTool('llvm-as');
const OPT = findTool('opt');
const LLI = findTool('lli');

/** Files (folder/name) that may fail llvm-as/opt, with the reason. Keep it empty where possible. */
const VERIFY_EXCEPTIONS: ReadonlyMap<string, string> = new Map<string, string>([]);

/** ExecutionEngine programs that may fail under lli-16, with the reason. */
const LAZY_REASON =
  "its main ends in `ret int undef`: the exit status is undefined (LLVM 1.x's lli happened to give 0; under lli-16 it is printf's leftover result)";
const LLI_EXCEPTIONS: ReadonlyMap<string, string> = new Map<string, string>([
  ['v5/ExecutionEngine__2004-12-04-LazyCompileFuncs.bc', LAZY_REASON],
  ['v6/ExecutionEngine__2004-12-04-LazyCompileFuncs.bc', LAZY_REASON],
  ['v7/ExecutionEngine__2004-12-04-LazyCompileFuncs.bc', LAZY_REASON],
]);

/** Minimum number of files per folder that must pass llvm-as-16 + opt-16 (the ratchet). */
const RATCHET: Readonly<Record<string, number>> = { v0: 553, v1: 574, v3: 622, v5: 1089, v6: 1212, v7: 1537, historical: 1 };

const FOLDERS = [...VERSION_FOLDERS, 'v7', 'historical'] as const;

/**
 * Each file costs two LLVM process launches (~0.1 s of CPU); the whole corpus takes about
 * 2–4 minutes on two cores. `MODERN_VERIFY_EVERY=N` checks only every Nth file of each folder (local
 * iterations; the ratchet is then not asserted). CI runs everything.
 */
const EVERY = Math.max(1, Number(process.env['MODERN_VERIFY_EVERY'] ?? '1') || 1);
const work = mkdtempSync(join(tmpdir(), 'llvm-bytecode-modern-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Minimum number of files per folder using invoke/unwind that must survive opt-16 -O2 + verify (all of them). */
const EH_RATCHET: Readonly<Record<string, number>> = { v0: 15, v1: 16, v3: 20, v5: 35, v6: 36, v7: 42 };

function usesExceptions(m: Module): boolean {
  return m.functions.some((f) => f.blocks.some((b) => b.instructions.some((i) => i.opcode === 'invoke' || i.opcode === 'unwind')));
}

interface UpgradedFolder {
  paths: Map<string, string>;
  errors: Map<string, string>;
  exceptions: string[];
}
const upgradedFolders = new Map<string, UpgradedFolder>();

/** Upgrades every file of a folder into `work` (once: the verification and the lli test share it). */
function upgradeFolder(folder: string): UpgradedFolder {
  let done = upgradedFolders.get(folder);
  if (done === undefined) {
    done = upgradeFolderNow(folder);
    upgradedFolders.set(folder, done);
  }
  return done;
}

/** Upgrades every file of a folder into `work`; returns the written paths, upgrade errors, and the paths of files using invoke/unwind. */
function upgradeFolderNow(folder: string): UpgradedFolder {
  const names = corpusFiles(folder)
    .filter((n) => folder !== 'historical' || n === 'constexpr.ll.bc-13')
    .filter((n, i) => EVERY === 1 || i % EVERY === 0 || n.startsWith('ExecutionEngine__'));
  const paths = new Map<string, string>();
  const errors = new Map<string, string>();
  const exceptions: string[] = [];
  for (const name of names) {
    try {
      const module = readModule(readCorpusFile(folder, name));
      const text = printModern(module, { llvm: 16 });
      const path = join(work, `${folder}__${name}.ll`);
      writeFileSync(path, text);
      paths.set(path, `${folder}/${name}`);
      if (usesExceptions(module)) exceptions.push(path);
    } catch (e) {
      errors.set(`${folder}/${name}`, `upgrade: ${(e as Error).message}`);
    }
  }
  return { paths, errors, exceptions };
}

describe.skipIf(!CORPUS_PRESENT)('upgraded corpus modules are valid LLVM 16 IR', needs(LLVM16, NEEDS_CORPUS), () => {
  const scoreboard: string[] = [];
  afterAll(() => {
    if (scoreboard.length) console.log(['upgrade scoreboard (llvm-as-16 + opt-16 -passes=verify; lli-16 for ExecutionEngine__*):', ...scoreboard].join('\n  '));
  });

  for (const folder of FOLDERS) {
    it(
      `${folder}: every file upgrades, assembles and verifies; those using exceptions survive opt-16 -O2`,
      async () => {
        const { paths, errors, exceptions } = upgradeFolder(folder);
        const failures = new Map(errors);
        const verified = await runBatched(verifyScript(LLVM_AS, OPT), [...paths.keys()], 5_000);
        for (const [path, msg] of verified) failures.set(paths.get(path)!, msg);
        const total = paths.size + errors.size;
        const passed = total - failures.size;

        const optimized = await runBatched(optimizeScript(LLVM_AS, OPT), exceptions, 10_000);
        const ehFailures = new Map([...optimized].map(([path, msg]) => [paths.get(path)!, msg]));
        const ehLine = `invoke/unwind files: ${exceptions.length - ehFailures.size}/${exceptions.length} survive opt-16 -O2 + verify`;

        scoreboard.push(`${folder}: ${passed}/${total} verify; ${ehLine}`);
        for (const [id, msg] of ehFailures) console.log(`  NEW -O2 failure ${id}: ${msg}`);
        for (const [id, msg] of failures) console.log(`  ${VERIFY_EXCEPTIONS.has(id) ? 'known' : 'NEW'} verify failure ${id}: ${msg}`);

        expect([...failures.keys()].filter((id) => !VERIFY_EXCEPTIONS.has(id))).toEqual([]);
        expect([...ehFailures.keys()]).toEqual([]);
        if (EVERY === 1) expect(passed).toBeGreaterThanOrEqual(RATCHET[folder]!);
        if (EVERY === 1 && folder in EH_RATCHET) expect(exceptions.length).toBeGreaterThanOrEqual(EH_RATCHET[folder]!);
      },
      30 * 60_000,
    );

    it(
      `${folder}: every upgraded ExecutionEngine program exits 0 under lli-16`,
      async () => {
        const { paths } = upgradeFolder(folder);
        // Files that may fail verification are not run (none today: VERIFY_EXCEPTIONS is empty).
        const programs = [...paths].filter(([, id]) => id.includes('/ExecutionEngine__') && !VERIFY_EXCEPTIONS.has(id)).map(([p]) => p);
        const lliFailures = new Map<string, string>();
        const ran = await runBatched(runScriptLli(LLI), programs, 15_000);
        for (const [path, msg] of ran) lliFailures.set(paths.get(path)!, msg);
        scoreboard.push(`${folder}: lli-16 ${programs.length - lliFailures.size}/${programs.length} exit 0`);
        for (const [id, msg] of lliFailures) console.log(`  ${LLI_EXCEPTIONS.has(id) ? 'known' : 'NEW'} lli failure ${id}: ${msg}`);
        expect([...lliFailures.keys()].filter((id) => !LLI_EXCEPTIONS.has(id))).toEqual([]);
        // Every listed exception still fails (an entry that starts passing is removed).
        for (const id of LLI_EXCEPTIONS.keys())
          if (id.startsWith(`${folder}/`) && [...paths.values()].includes(id))
            expect(lliFailures.has(id), `${id} now exits 0: remove it from LLI_EXCEPTIONS`).toBe(true);
      },
      30 * 60_000,
    );
  }
});
