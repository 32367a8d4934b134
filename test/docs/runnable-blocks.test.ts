/**
 * The documents' examples run (issue 15: "make docs true and keep them true").
 *
 * The convention: a fenced code block of README.md or docs/*.md whose info string contains the
 * word `runnable` is run here; other blocks are left alone (output listings, grammar, fragments).
 *
 *   ```ts runnable        an ES module (TypeScript, types stripped by `typescript`), run by Node
 *                         in a scratch folder where `import … from 'llvm-bytecode'` is this
 *                         package (dist/, so `npm run build` first: npm test does) and `corpus/`
 *                         holds the project's samples; it must exit 0.
 *   ```sh runnable        a bash script (-e -o pipefail) in the same folder, with `llvm-bytecode`
 *                         on the PATH; it must exit 0.
 *   ```console runnable   a transcript: each `$ COMMAND` line is run by bash, and the lines after
 *                         it, up to the next `$ `, are its exact output (standard output and
 *                         standard error together). The exit status is not checked.
 *
 * `needs=TOOL` (e.g. ```` ```sh runnable needs=lli-16 ````) skips the block, saying so, when TOOL is
 * not on the PATH; a `NAME-N` tool tags it with Debian's LLVM N (test/support/tools.ts), so the skip
 * is counted by cause. The README's Development section describes the same convention.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { debianLlvm, needs, type ToolSet } from '../support/tools.js';

const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const CLI = join(ROOT, 'dist/cli/main.js');
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .sort()
    .map((n) => `docs/${n}`),
];

interface Block {
  file: string;
  line: number;
  language: string;
  needs: string[];
  text: string;
}

/** The runnable blocks of a Markdown text (fences of three or more backticks). */
function runnableBlocks(file: string, markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(.*)$/.exec(lines[i]!);
    // A backtick fence's info string holds no backtick (CommonMark): ```` ```ts ```` in a line of prose is not a fence.
    if (!open || open[2]!.includes('`')) continue;
    const fence = open[1]!;
    const words = open[2]!.trim().split(/\s+/).filter(Boolean);
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !(lines[i]!.startsWith(fence) && lines[i]!.trim() === fence); i++) body.push(lines[i]!);
    if (!words.includes('runnable')) continue;
    blocks.push({
      file,
      line: start + 1,
      language: words[0]!,
      needs: words.filter((w) => w.startsWith('needs=')).flatMap((w) => w.slice('needs='.length).split(',')),
      text: body.join('\n') + '\n',
    });
  }
  return blocks;
}

function have(tool: string): boolean {
  return spawnSync('bash', ['-c', `command -v ${tool}`]).status === 0;
}

/** A scratch folder where the package is installed (a link to this checkout) and `corpus/` is at hand. */
function scratch(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'doc-block-'));
  // Its own package scope: a package.json further up (in the temporary folder, say) must not
  // decide how the block's imports resolve.
  writeFileSync(join(dir, 'package.json'), '{ "name": "doc-block", "private": true, "type": "module" }\n');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules/llvm-bytecode'));
  symlinkSync(join(ROOT, 'corpus'), join(dir, 'corpus'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin/llvm-bytecode'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(dir, 'bin/llvm-bytecode'), 0o755);
  return { dir, env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env['PATH'] ?? ''}` } };
}

function run(block: Block): void {
  const { dir, env } = scratch();
  const where = `${block.file}:${block.line}`;
  if (block.language === 'ts' || block.language === 'js') {
    const js = ts.transpileModule(block.text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    writeFileSync(join(dir, 'block.mjs'), js);
    const r = spawnSync(process.execPath, ['block.mjs'], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, `${where} exited ${r.status}:\n${r.stderr}`).toBe(0);
  } else if (block.language === 'sh' || block.language === 'bash') {
    const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', block.text], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, `${where} exited ${r.status}:\n${r.stdout}${r.stderr}`).toBe(0);
  } else if (block.language === 'console') {
    const steps = block.text.split(/^\$ /m).slice(1);
    expect(steps.length, `${where}: a transcript needs '$ ' lines`).toBeGreaterThan(0);
    for (const step of steps) {
      const [command, ...expected] = step.split('\n');
      const r = spawnSync('bash', ['-c', `${command!} 2>&1`], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
      expect(`$ ${command!}\n${r.stdout}`, where).toBe(`$ ${command!}\n${expected.join('\n')}`);
    }
  } else {
    throw new Error(`${where}: no runner for \`${block.language} runnable\``);
  }
}

/** The tool sets of test/support/tools.ts that `needs=` names: Debian's LLVM N for `NAME-N`. */
function toolSetsOf(tools: readonly string[]): ToolSet[] {
  const releases = new Set(tools.flatMap((t) => /^(?:llvm-)?[a-z-]+-(\d+)$/.exec(t)?.slice(1) ?? []));
  return [...releases].map((n) => debianLlvm(Number(n)));
}

const blocks = DOCUMENTS.flatMap((file) => runnableBlocks(file, readFileSync(join(ROOT, file), 'utf8')));

describe('runnable blocks of README.md and docs/*.md', () => {
  it('finds the convention in use (README and docs)', () => {
    expect(
      blocks
        .filter((b) => b.file === 'README.md')
        .map((b) => b.language)
        .sort(),
    ).toEqual(['console', 'console', 'console', 'ts']);
    expect(blocks.some((b) => b.file.startsWith('docs/'))).toBe(true);
  });

  for (const block of blocks) {
    const missing = block.needs.filter((t) => !have(t));
    const title = `${block.file}:${block.line} (${block.language})`;
    // A block needing `lli-16` carries Debian's LLVM 16's tag, so that its skip is counted by cause.
    const options = { ...needs(...toolSetsOf(block.needs)), timeout: 90_000 };
    if (missing.length) it.skip(`${title}: needs ${missing.join(', ')}`, options, () => {});
    else it.skipIf(!existsSync(CLI))(title, options, () => run(block));
  }
});

describe('the block parser', () => {
  it('takes only blocks marked runnable, with their language and needs', () => {
    const md = ['```ts', 'a', '```', '', '```sh runnable needs=lli-16,opt-16', 'b', '```', '````console runnable', '$ x', '```', '````'].join('\n');
    expect(runnableBlocks('x.md', md)).toEqual([
      { file: 'x.md', line: 5, language: 'sh', needs: ['lli-16', 'opt-16'], text: 'b\n' },
      { file: 'x.md', line: 8, language: 'console', needs: [], text: '$ x\n```\n' },
    ]);
  });
});
