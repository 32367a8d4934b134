/**
 * The web page in a real browser (issue 10): builds `web/` into `dist-web/`, serves it, opens it in
 * Debian's Chromium through playwright-core, loads corpus files of every version (compressed and
 * damaged ones included), and checks what the page shows against the reference tools' output and
 * against the library run directly in Node.
 *
 * Run with `npm run test:web` (kept out of the default `vitest run`: it needs a browser and takes
 * about a minute). Skips, saying why, when Chromium is absent; without the reference corpus
 * (LLVM_BYTECODE_CORPUS, else ../shared/corpus) it tests the page on the project's own sample,
 * corpus/hello.bc, and skips the corpus cases, saying so. Screenshots and the
 * timing report go to `test-results/web/` (git-ignored).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { build, createLogger, preview, type PreviewServer } from 'vite';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readModule } from '../../src/read.js';
import { BytecodeError } from '../../src/errors/bytecode-error.js';
import { printModule } from '../../src/print/index.js';
import { printModern, writeModern } from '../../src/modern/index.js';
import { writeModule } from '../../src/encode/write.js';
import { convertToVersion7 } from '../../src/convert/to-version7.js';
import { writeArchive } from '../../src/archive/index.js';
import { printStackMapReadobj, readStackMaps } from '../../src/stackmap/index.js';
import { elfObject, randomSection } from '../../tools/stackmap-samples.js';
import { seededRandom } from '../../tools/seeded-random.js';
import { analyzeBytes, type BlockNode as AnalysisBlock } from '../../src/analyze/index.js';
import { locateCorpus, NO_CORPUS_HINT } from '../../tools/corpus-location.js';
import { NEEDS_CORPUS } from '../support/corpus.js';
import { CHROMIUM, needs } from '../support/tools.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The same rule as every test and tool: LLVM_BYTECODE_CORPUS, else ../shared/corpus.
const corpusLocation = locateCorpus();
const corpus = corpusLocation.root;
const corpusPresent = corpusLocation.present;
/** The project's own sample: the page is exercised on it with or without the corpus. */
const HELLO = path.join(root, 'corpus/hello.bc');
// Chromium by the shared rule (tools/tool-location.ts): CHROMIUM_PATH, else /usr/bin/chromium.
const chromiumPath = CHROMIUM.dir;
const results = path.join(root, 'test-results', 'web');

const missing = [existsSync(chromiumPath) ? null : `no Chromium at ${chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH)`].filter(
  (m): m is string => m !== null,
);
if (missing.length) console.warn(`[test:web] SKIPPED: ${missing.join('; ')}`);
else if (!corpusPresent) console.warn(`[test:web] no corpus at ${corpus}: only the project's own sample (corpus/hello.bc) is tested; ${NO_CORPUS_HINT}`);
/** A test that needs the reference corpus. */
const corpusTest = test.skipIf(!corpusPresent);

/** A corpus file and its references: `ref19` = LLVM 1.9 syntax, `native` = the writing release's. */
interface Case {
  file: string;
  ref19: string;
  native: string;
  /** The page must match `native` even if the library does not yet (v5/v6: it does). */
  nativeRequired: boolean;
}

const CASES: Case[] = [
  { file: 'v0/Transforms__InstCombine__cast-set.bc', ref19: '.via19.ll', native: '.dis.ll', nativeRequired: false },
  { file: 'v1/Transforms__InstCombine__call.bc', ref19: '.via19.ll', native: '.dis.ll', nativeRequired: false },
  { file: 'v3/Feature__calltest.bc', ref19: '.dis19.ll', native: '.dis.ll', nativeRequired: false },
  { file: 'v5/Feature__calltest.bc', ref19: '.dis19.ll', native: '.dis.ll', nativeRequired: true },
  { file: 'v5/Bytecode__slow.bc', ref19: '.dis19.ll', native: '.dis.ll', nativeRequired: true },
  { file: 'v6/Feature__calltest.bc', ref19: '.dis.ll', native: '.dis.ll', nativeRequired: true },
  { file: 'v6/Large__big-bf.bc', ref19: '.dis.ll', native: '.dis.ll', nativeRequired: true },
  { file: 'historical/constexpr.ll.bc-13', ref19: '.dis19.ll', native: '.dis.ll', nativeRequired: false },
  // Version 7 (LLVM 2.0 development): one syntax, r36867's, whichever is chosen; its analyzer is r36867's.
  { file: 'v7/Feature__aliases.bc', ref19: '.dis.ll', native: '.dis.ll', nativeRequired: true },
];

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function refPath(c: Case, suffix: string): string {
  return path.join(corpus, c.file.replace(/\.bc$/, '') + suffix);
}

/** Reference files and the page's downloads are bytes; compare them as LLVM wrote them (Latin-1). */
function readText(p: string): string {
  return readFileSync(p, 'latin1');
}

function shortName(file: string): string {
  return file.replace(/[/.]/g, '_');
}

/** What the tree should list: the analyzer's blocks, as the page labels them (name, offset, size). */
function expectedBlocks(blocks: AnalysisBlock[]): string[] {
  const names: Record<string, string> = {
    module: 'Module',
    function: 'Function',
    constantPool: 'ConstantPool',
    symbolTable: 'SymbolTable',
    moduleGlobalInfo: 'ModuleGlobalInfo',
    globalTypePlane: 'GlobalTypePlane',
    basicBlock: 'BasicBlock',
    instructionList: 'InstructionList',
    compactionTable: 'CompactionTable',
    typeSymbolTable: 'TypeSymbolTable',
  };
  const out: string[] = [];
  const walk = (b: AnalysisBlock): void => {
    out.push(`${names[b.kind] ?? 'Unknown'}@${b.offset}+${b.headerSize + b.bodySize}`);
    b.children.forEach(walk);
  };
  blocks.forEach(walk);
  return out;
}

describe.skipIf(missing.length > 0)('web page in Chromium', needs(CHROMIUM), () => {
  let server: PreviewServer;
  let browser: Browser;
  let page: Page;
  let base = '';
  const requests: string[] = [];
  const pageErrors: string[] = [];
  /** What `vite build` warned about while building the page (it must be nothing). */
  const buildWarnings: string[] = [];

  beforeAll(async () => {
    mkdirSync(results, { recursive: true });
    const logger = createLogger('warn');
    const warn = (msg: string): void => {
      buildWarnings.push(msg);
      console.warn(msg);
    };
    logger.warn = warn;
    logger.warnOnce = warn;
    await build({ configFile: path.join(root, 'web/vite.config.ts'), logLevel: 'warn', customLogger: logger });
    server = await preview({
      configFile: path.join(root, 'web/vite.config.ts'),
      preview: { port: 0, host: '127.0.0.1', strictPort: false },
      logLevel: 'warn',
    });
    base = server.resolvedUrls?.local[0] ?? '';
    browser = await chromium.launch({ executablePath: chromiumPath, args: LAUNCH_ARGS });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(base);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()));
  });

  /** Opens a corpus file (or given bytes) through the file picker; resolves once the text is shown and analysed. */
  async function open(file: string, bytes?: Buffer): Promise<void> {
    await page.setInputFiles(
      '#file-input',
      bytes ? { name: file, mimeType: 'application/octet-stream', buffer: bytes } : path.isAbsolute(file) ? file : path.join(corpus, file),
    );
    // `loading` is set synchronously by the change handler, so this cannot see the previous file's state.
    await page.waitForSelector('body:is([data-state="ready"], [data-state="failed"])', { timeout: 60_000 });
    await page.waitForSelector('body[data-analysed="true"]', { timeout: 60_000 });
  }

  async function downloadText(): Promise<string> {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-disasm')]);
    return readText(await download.path());
  }

  async function chooseSyntax(syntax: '1.9' | 'native'): Promise<void> {
    const radio = page.locator(`input[name="syntax"][value="${syntax}"]`);
    if (await radio.isChecked()) return;
    await radio.check();
    await page.waitForSelector('body[data-printing="false"]', { timeout: 60_000 });
  }

  async function treeLabels(): Promise<string[]> {
    // Every tree item, collapsed ones included: its name, and its offset and size from the label.
    const labels = await page.locator('#tree [role="treeitem"]').evaluateAll((items) => items.map((li) => li.getAttribute('aria-label') ?? ''));
    return labels.map((l) => {
      const m = /^(\S+).*0x([0-9a-f]+) · ([\d,]+) bytes/.exec(l);
      return m ? `${m[1]}@${parseInt(m[2]!, 16)}+${m[3]!.replace(/,/g, '')}` : l;
    });
  }

  test('the empty state explains the page', async () => {
    await expect.poll(() => page.locator('#empty-title').textContent()).toMatch(/Drop an old LLVM bytecode file here/);
    expect(await page.locator('#empty').innerText()).toMatch(/nothing is uploaded|never leaves/i);
    await page.screenshot({ path: path.join(results, '00-empty-state.png') });
  });

  for (const c of CASES) {
    corpusTest(`${c.file}: disassembly and block tree`, NEEDS_CORPUS, async () => {
      const bytes = new Uint8Array(readFileSync(path.join(corpus, c.file)));
      await open(c.file);
      expect(await page.getAttribute('body', 'data-state')).toBe('ready');
      await page.click('#tab-disasm');
      // Version 7 has LLVM 2.0's syntax only: it opens in it, and "LLVM 1.9" is not offered.
      const only20 = c.file.startsWith('v7/');
      if (only20) {
        expect(await page.locator('input[name="syntax"][value="1.9"]').isDisabled()).toBe(true);
        expect(await page.locator('input[name="syntax"][value="native"]').isChecked()).toBe(true);
      } else await chooseSyntax('1.9');

      // LLVM 1.9 syntax (version 7: LLVM 2.0's): the page's text is the reference text.
      const text19 = await downloadText();
      expect(text19).toBe(readText(refPath(c, c.ref19)));
      // The virtualised view shows the same lines at the top.
      const firstLines = await page.locator('#disasm .code-line .code').evaluateAll((els) => els.slice(0, 3).map((e) => e.textContent));
      expect(firstLines).toEqual(text19.split('\n').slice(0, 3));
      await page.screenshot({ path: path.join(results, `${shortName(c.file)}-disassembly.png`) });

      // Native syntax: the reference where the library matches it (v5/v6 always), else the library's own text.
      await chooseSyntax('native');
      const native = await downloadText();
      const reference = readText(refPath(c, c.native));
      const library = printModule(readModule(bytes), { syntax: 'native' });
      if (c.nativeRequired || library === reference) expect(native).toBe(reference);
      else {
        console.warn(
          `[test:web] ${c.file}: the library's native (${c.native}) printing does not match the reference yet; checked the page against the library`,
        );
        expect(native).toBe(library);
      }
      if (!only20) await chooseSyntax('1.9');

      // The block tree lists the analyzer's blocks, each with its offset and size.
      const analysis = analyzeBytes(bytes);
      expect(await treeLabels()).toEqual(expectedBlocks(analysis.blocks));
      expect((await treeLabels())[0]).toMatch(/^Module@4\+/);
      if (!analysis.error) {
        // …and as many as LLVM's own analyzer counted (1.9's; r36867's for version 7).
        const bca = /Number Of Bytecode Blocks:\s+(\d+)/.exec(readText(refPath(c, '.bca.txt')));
        // (LLVM did not count the module block itself.)
        if (bca) expect((await treeLabels()).length - 1).toBe(Number(bca[1]));
      }
      await page.click('#tab-blocks');
      await page.locator('#tree [role="treeitem"] .tree-row').nth(1).click();
      await expect.poll(() => page.locator('#hex-status').textContent()).toContain('Module ›');
      expect(await page.locator('#hex .hb.sel').count()).toBeGreaterThan(0);
      await page.screenshot({ path: path.join(results, `${shortName(c.file)}-blocks.png`) });
      await page.click('#tab-disasm');
    });
  }

  corpusTest('Large__big-bf.bc (bzip2, 3.8 MB of text): a second load, a fast scroll, and the end of the text', NEEDS_CORPUS, async () => {
    // Loaded again on its own (the page and worker are warm, as for a user's second file). Speed is
    // not judged here (a loaded machine would fail it); the page shows its own figure to the user.
    await open('v6/Large__big-bf.bc');
    expect(await page.getAttribute('body', 'data-state')).toBe('ready');
    expect(Number(await page.getAttribute('body', 'data-shown-ms'))).toBeGreaterThanOrEqual(0);
    // A fast fling: 120 frames of 1,500 px through the 84,000 lines. The view stays virtualised
    // all the way: no frame leaves more than a screenful of lines in the DOM.
    const mostLines = (await page.evaluate(`new Promise((resolve) => {
      const el = document.getElementById('disasm');
      let most = 0;
      let n = 0;
      const step = () => {
        most = Math.max(most, el.querySelectorAll('.code-line').length);
        if (n++ === 120) return resolve(most);
        el.scrollTop += 1500;
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    })`)) as number;
    expect(mostLines).toBeGreaterThan(0);
    expect(mostLines).toBeLessThan(200);

    // Jump to the end of the virtualised view: the last line is rendered.
    await page.locator('#disasm').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.waitForTimeout(100);
    const last = await page.locator('#disasm .code-line .ln').last().innerText();
    expect(Number(last)).toBe(readText(path.join(corpus, 'v6/Large__big-bf.dis.ll')).split('\n').length - 1);
    // Only a screenful of lines exists in the DOM, however long the text.
    expect(await page.locator('#disasm .code-line').count()).toBeLessThan(200);
    await page.screenshot({ path: path.join(results, 'v6_Large__big-bf-end.png') });

    // Find (the browser's own cannot see lines that are not rendered).
    const reference = readText(path.join(corpus, 'v6/Large__big-bf.dis.ll'));
    const expectedLine = reference.slice(0, reference.indexOf('%main4')).split('\n').length;
    await page.fill('#find', '%main4');
    await page.press('#find', 'Enter');
    await expect.poll(() => page.locator('#disasm-info').textContent()).toContain(`found on line ${expectedLine}`);
    await expect.poll(() => page.locator('#disasm .code-line.found .ln').textContent()).toBe(String(expectedLine));
    await page.screenshot({ path: path.join(results, 'v6_Large__big-bf-find.png') });
    // The dark scheme (the page follows the system's).
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: path.join(results, 'v6_Large__big-bf-find-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test('modern IR (corpus/hello.bc): what printModern prints, with its default triple', async () => {
    const bytes = new Uint8Array(readFileSync(HELLO));
    await open(HELLO);
    await page.click('#tab-disasm');
    await page.locator('input[name="syntax"][value="modern"]').check();
    await page.waitForSelector('body[data-printing="false"]', { timeout: 60_000 });
    const text = await downloadText();
    expect(text).toBe(printModern(readModule(bytes)));
    // No triple, so that lli runs it on the host; the file's own stays a comment.
    expect(text).toContain('; LLVM 1.x: target triple = "i686-pc-linux-gnu"');
    await page.screenshot({ path: path.join(results, 'hello-modern.png') });
    await chooseSyntax('1.9');
  });

  corpusTest('a truncated bzip2 file: the container error, shown on the bytes of the file as given', NEEDS_CORPUS, async () => {
    const bytes = readFileSync(path.join(corpus, 'v6/Large__big-bf.bc')).subarray(0, 30_000);
    await open('Large__big-bf-truncated.bc', bytes);
    expect(await page.getAttribute('body', 'data-state')).toBe('failed');
    let expected: unknown;
    try {
      readModule(new Uint8Array(bytes));
    } catch (e) {
      expected = e;
    }
    expect(expected).toBeInstanceOf(BytecodeError);
    const error = expected as BytecodeError;
    await expect.poll(() => page.locator('#error').textContent()).toContain(error.reason);
    await expect.poll(() => page.locator('#error').textContent()).toContain(`offset ${error.offset}`);
    await expect.poll(() => page.locator('#hex-caption').textContent()).toContain('the file as given');
    await page.click('#error button');
    // A truncated stream stops the reader at its end: the hex view says so on the last byte.
    expect(error.offset).toBe(bytes.length);
    await expect.poll(() => page.locator('#hex-status').textContent()).toContain('the data ends too early');
    await page.screenshot({ path: path.join(results, 'truncated-bzip2.png') });
  });

  corpusTest('a damaged historical file: typed error, where it stopped, and the blocks up to there', NEEDS_CORPUS, async () => {
    await open('historical/slow.bc-13');
    expect(await page.getAttribute('body', 'data-state')).toBe('failed');
    const alert = page.locator('#error');
    await expect.poll(() => alert.isVisible()).toBe(true);
    await expect.poll(() => alert.textContent()).toContain('BytecodeError');
    await expect.poll(() => alert.textContent()).toContain('text-mode');
    await expect.poll(() => alert.textContent()).toContain('offset 26');
    await page.click('#error button');
    await expect.poll(() => page.locator('#hex .hb.stop').textContent()).toBe('10');
    expect(await page.locator('#hex .hb.stop').getAttribute('data-o')).toBe('26');
    await expect.poll(() => page.locator('#hex-status').textContent()).toContain('reading stopped here');
    expect((await treeLabels())[0]).toMatch(/^Module@4\+/);
    await page.screenshot({ path: path.join(results, 'historical_slow_bc-13-damaged.png') });
    await page.click('#tab-disasm');
    await expect.poll(() => page.locator('#disasm-empty').textContent()).toContain('could not be read');
  });

  corpusTest('keyboard: tabs, block tree and bytes', NEEDS_CORPUS, async () => {
    await open('v5/Feature__calltest.bc');
    await page.focus('#tab-disasm');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.locator('#tab-blocks').getAttribute('aria-selected')).toBe('true');
    await page.locator('#tree [role="treeitem"]').first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('#tree [aria-selected="true"]').count()).toBe(1);
    await expect.poll(() => page.locator('#hex-status').textContent()).toContain('Module ›');
    await page.focus('#hex');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#hex-status').textContent()).toContain('in Module');
    await page.screenshot({ path: path.join(results, 'keyboard-focus.png') });

    // From a function block to its definition in the disassembly.
    const lines = readText(path.join(corpus, 'v5/Feature__calltest.dis19.ll')).split('\n');
    const defined = lines.findIndex((l) => /^\S.*%main\(.*\{$/.test(l) && !l.startsWith('declare')) + 1;
    expect(defined).toBeGreaterThan(0);
    await page.locator('#tree .tree-row', { hasText: 'Function #1 main' }).click();
    await page.click('#show-function');
    await expect.poll(() => page.locator('#disasm-info').textContent()).toContain(`defined on line ${defined}`);
    await expect.poll(() => page.locator('#disasm .code-line.found .ln').textContent()).toBe(String(defined));
  });

  corpusTest('drag and drop opens a file', NEEDS_CORPUS, async () => {
    const b64 = readFileSync(path.join(corpus, 'v3/Feature__calltest.bc')).toString('base64');
    const dataTransfer = await page.evaluateHandle(`(() => {
      const dt = new DataTransfer();
      const bytes = Uint8Array.from(atob('${b64}'), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], 'dropped.bc'));
      return dt;
    })()`);
    await page.dispatchEvent('body', 'dragenter', { dataTransfer });
    expect(await page.locator('#drop-overlay').isVisible()).toBe(true);
    await page.dispatchEvent('body', 'drop', { dataTransfer });
    await page.waitForSelector('body[data-state="ready"]');
    await expect.poll(() => page.locator('#summary').textContent()).toContain('dropped.bc');
    expect(await page.locator('#drop-overlay').isVisible()).toBe(false);
  });

  test("assembly text (.ll, the project's own corpus/hello.ll): assembled in the page, shown as LLVM printed it, and bad text explained", async () => {
    const listing = readText(HELLO.replace(/\.bc$/, '.ll'));
    await open('hello.ll', Buffer.from(listing, 'latin1'));
    expect(await page.getAttribute('body', 'data-state')).toBe('ready');
    await page.click('#tab-disasm');
    await chooseSyntax('1.9');
    expect(await downloadText()).toBe(listing);
    expect(await page.locator('body').innerText()).toMatch(/assembled here from LLVM 1\.9 assembly text/);
    await page.screenshot({ path: path.join(results, 'assembly-text.png') });

    await open('bad.ll', Buffer.from('implementation\nint %f() {\n\tret int %nosuch\n}\n', 'latin1'));
    expect(await page.getAttribute('body', 'data-state')).toBe('failed');
    expect(await page.locator('body').innerText()).toMatch(/bad\.ll:3:10: error: use of undefined value '%nosuch'/);
  });

  corpusTest('convert: version 5 to version 6, readable by the library', NEEDS_CORPUS, async () => {
    await open('v5/Feature__calltest.bc');
    await page.selectOption('#convert-version', '6');
    await page.selectOption('#convert-compression', 'auto');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#convert-button')]);
    const written = new Uint8Array(readFileSync(await download.path()));
    const module = readModule(written);
    expect(module.source?.bytecodeVersion).toBe(6);
    expect(download.suggestedFilename()).toMatch(/\.v6\.bc$/);

    // bzip2 runs the WebAssembly encoder (libbzip2 ported) inside the worker.
    await page.selectOption('#convert-compression', 'bzip2');
    const [bz] = await Promise.all([page.waitForEvent('download'), page.click('#convert-button')]);
    const compressed = new Uint8Array(readFileSync(await bz.path()));
    expect(String.fromCharCode(...compressed.subarray(0, 5))).toBe('llvc2');
    expect(printModule(readModule(compressed))).toBe(printModule(module));
    await expect.poll(() => page.locator('#convert-status').textContent()).toContain('Wrote');
  });

  test('upgrade: the modern IR and the modern bitcode download as the library writes them', async () => {
    const hello = readModule(new Uint8Array(readFileSync(HELLO)));
    await open(HELLO);
    expect(await page.isVisible('#upgrade-card')).toBe(true);
    await page.selectOption('#upgrade-llvm', '19');
    const [bc] = await Promise.all([page.waitForEvent('download'), page.click('#upgrade-bitcode')]);
    expect(bc.suggestedFilename()).toBe('hello.llvm19.bc');
    expect(new Uint8Array(readFileSync(await bc.path()))).toEqual(writeModern(hello, { llvm: 19 }));
    const [ll] = await Promise.all([page.waitForEvent('download'), page.click('#upgrade-text')]);
    expect(ll.suggestedFilename()).toBe('hello.llvm19.ll');
    expect(readFileSync(await ll.path(), 'utf8')).toBe(printModern(hello, { llvm: 19 }));
    await expect.poll(() => page.locator('#upgrade-status').textContent()).toContain('Wrote hello.llvm19.ll');
  });

  test("corpus/hello.bc (the project's own sample, no corpus needed): disassembly, blocks, and every convert target", async () => {
    const bytes = new Uint8Array(readFileSync(HELLO));
    await open(HELLO);
    expect(await page.getAttribute('body', 'data-state')).toBe('ready');
    await page.click('#tab-disasm');
    await chooseSyntax('1.9');
    expect(await downloadText()).toBe(readText(path.join(root, 'corpus/hello.ll')));
    expect(await treeLabels()).toEqual(expectedBlocks(analyzeBytes(bytes).blocks));

    // Convert offers every writable version, 7 (LLVM 2.0 development), 0 and 1 included, and
    // starts at the file's own.
    const offered = await page.locator('#convert-version option').evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    expect(offered).toEqual(['7', '6', '5', '3', '1', '0']);
    expect(await page.locator('#convert-version').inputValue()).toBe('6');
    await page.selectOption('#convert-compression', 'none');
    // Version 7: signless integers, through llvm-upgrade's conversion as the CLI's rewrite does.
    await page.selectOption('#convert-version', '7');
    const [v7] = await Promise.all([page.waitForEvent('download'), page.click('#convert-button')]);
    expect(v7.suggestedFilename()).toBe('hello.v7.bc');
    expect(Buffer.from(readFileSync(await v7.path()))).toEqual(
      Buffer.from(writeModule(convertToVersion7(readModule(bytes)), { bytecodeVersion: 7, compression: 'none' })),
    );
    for (const version of ['6', '5', '3']) {
      await page.selectOption('#convert-version', version);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#convert-button')]);
      const written = readModule(new Uint8Array(readFileSync(await download.path())));
      expect(written.source?.bytecodeVersion).toBe(Number(version));
      expect(printModule(written)).toBe(printModule(readModule(bytes)));
    }
    // What versions 0 and 1 cannot express is refused, naming it.
    for (const version of ['1', '0']) {
      await page.selectOption('#convert-version', version);
      await page.click('#convert-button');
      await expect
        .poll(() => page.locator('#convert-status').textContent())
        .toBe(
          `Cannot convert: the target triple "i686-pc-linux-gnu" cannot be written in bytecode version ${version}: this version has no field for a target triple`,
        );
    }
    await page.selectOption('#convert-version', '6');
    await page.screenshot({ path: path.join(results, 'hello-convert-refused.png') });
  });

  test("a version-7 file (made here from corpus/hello.bc by the library): opens in LLVM 2.0's syntax, and Convert writes it back as it was", async () => {
    const v7 = writeModule(convertToVersion7(readModule(new Uint8Array(readFileSync(HELLO)))), { bytecodeVersion: 7, compression: 'none' });
    const module = readModule(v7);
    expect(module.source?.bytecodeVersion).toBe(7);
    await open('hello-v7.bc', Buffer.from(v7));
    expect(await page.getAttribute('body', 'data-state')).toBe('ready');
    await page.click('#tab-disasm');
    // LLVM 1.9 could not read version 7: its syntax is not offered, and the file opens in LLVM 2.0's.
    expect(await page.locator('input[name="syntax"][value="1.9"]').isDisabled()).toBe(true);
    expect(await page.locator('input[name="syntax"][value="native"]').isChecked()).toBe(true);
    expect(await page.locator('#native-label').textContent()).toBe('Native (LLVM 2.0)');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-disasm')]);
    expect(download.suggestedFilename()).toBe('hello-v7.ll');
    const text = readText(await download.path());
    expect(text).toBe(printModule(module, { syntax: 'native' }));
    expect(text).toMatch(/^define i32 @main\(\) \{$/m);
    expect(await page.locator('#disasm .code-line .code').evaluateAll((els) => els.slice(0, 2).map((e) => e.textContent))).toEqual(
      text.split('\n').slice(0, 2),
    );
    expect(await page.locator('#summary').innerText()).toMatch(/Bytecode version\s+7\b/);
    await page.screenshot({ path: path.join(results, 'hello-v7.png') });

    // Convert offers version 7, starts there, and writes the file back byte for byte.
    await page.selectOption('#convert-compression', 'auto');
    expect(await page.locator('#convert-version').inputValue()).toBe('7');
    const [written] = await Promise.all([page.waitForEvent('download'), page.click('#convert-button')]);
    expect(Buffer.from(readFileSync(await written.path()))).toEqual(Buffer.from(v7));

    // The next file opens in the syntax the user chose before (LLVM 1.9), not in the version-7 file's.
    await open(HELLO);
    expect(await page.locator('input[name="syntax"][value="1.9"]').isDisabled()).toBe(false);
    expect(await page.locator('input[name="syntax"][value="1.9"]').isChecked()).toBe(true);
    expect(await downloadText()).toBe(readText(path.join(root, 'corpus/hello.ll')));
  });

  test('a file that is not bytecode (a PNG): the error, and no figures of blocks it does not have', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 0)]);
    let expected: unknown;
    try {
      readModule(new Uint8Array(png));
    } catch (e) {
      expected = e;
    }
    expect(expected).toBeInstanceOf(BytecodeError);
    await open('picture.png', png);
    expect(await page.getAttribute('body', 'data-state')).toBe('failed');
    await expect.poll(() => page.locator('#error').isVisible()).toBe(true);
    expect(await page.locator('#error').innerText()).toContain((expected as BytecodeError).reason);
    const summary = await page.locator('#summary').innerText();
    expect(summary).toContain('picture.png');
    expect(summary).not.toMatch(/Blocks|Constants|Symbol tables|Compaction tables/);
    expect(await page.locator('#convert-card').isVisible()).toBe(false);
    await page.screenshot({ path: path.join(results, 'not-bytecode.png') });
  });

  test('an archive (lib.a of corpus/hello.bc twice and a text file): its members listed, the first bytecode member shown, another opened on click', async () => {
    const hello = new Uint8Array(readFileSync(HELLO));
    const other = writeModule(readModule(hello), { bytecodeVersion: 5, compression: 'none' });
    const lib = writeArchive([
      { name: 'hello.bc', data: hello },
      { name: 'README.txt', data: new Uint8Array(Buffer.from('not bytecode\n')) },
      { name: 'hello-v5.bc', data: other },
    ]);
    await open('lib.a', Buffer.from(lib));
    expect(await page.getAttribute('body', 'data-state')).toBe('ready');
    expect(await page.locator('#members-card').isVisible()).toBe(true);
    expect(await page.locator('#members li').allInnerTexts()).toEqual([
      expect.stringMatching(/^hello\.bc\s/),
      expect.stringMatching(/^README\.txt \(file\)\s/),
      expect.stringMatching(/^hello-v5\.bc\s/),
    ]);
    await page.click('#tab-disasm');
    await chooseSyntax('1.9');
    expect(await downloadText()).toBe(readText(path.join(root, 'corpus/hello.ll')));

    await page.click('#members button[data-index="1"]');
    await page.waitForSelector('body:is([data-state="ready"], [data-state="failed"])', { timeout: 60_000 });
    await page.waitForSelector('body[data-analysed="true"]', { timeout: 60_000 });
    expect(await page.locator('#summary').innerText()).toMatch(/lib\.a\(hello-v5\.bc\)/);
    expect(await page.locator('#summary').innerText()).toMatch(/\b5\b/);
    expect(await page.getAttribute('#members button[data-index="1"]', 'aria-current')).toBe('true');

    // A plain file afterwards hides the list again.
    await open(HELLO);
    expect(await page.locator('#members-card').isVisible()).toBe(false);
  });

  test('the page built without a warning', () => {
    expect(buildWarnings).toEqual([]);
  });

  test('an object file opens as its stack map sections: names, registers, and the llvm-readobj-16 text', async () => {
    const section = randomSection(seededRandom(9), { version: 3, endian: 'little', functions: 2, records: 4 });
    const object = elfObject(section, { is64: true, endian: 'little', functionNames: ['alpha', 'beta'], functionEntrySize: 24 });
    await open('stackmaps.o', Buffer.from(object));
    expect(await page.getAttribute('body', 'data-state')).toBe('ready');
    expect(await page.locator('#summary').innerText()).toMatch(/LLVM stack map section, version 3/);
    await page.click('#tab-disasm');
    const text = await downloadText();
    expect(text).toMatch(/^Stack map version 3, little-endian/);
    expect(text).toContain('function alpha');
    expect(text).toContain(printStackMapReadobj(readStackMaps(object).sections[0]!));
  });

  test('no requests leave the page, and nothing failed', () => {
    const foreign = requests.filter((u) => !u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:'));
    expect(foreign).toEqual([]);
    expect(pageErrors).toEqual([]);
    // The corpus files above cover every bytecode version in the corpus.
    const versions = new Set(CASES.map((c) => c.file.split('/')[0]));
    if (corpusPresent) for (const dir of readdirSync(corpus).filter((d) => /^v\d$/.test(d))) expect(versions.has(dir)).toBe(true);
  });
});
