/**
 * The page: wires the file picker, drag and drop, the worker and the views together. All the
 * reading happens in the worker (`worker/parse-worker.ts`); this thread only shows results.
 */
import { byId, download, formatBytes, h, hex, latin1Bytes } from './ui/dom.js';
import { setupDrop } from './ui/drop.js';
import { llvmName } from '../../src/print/text.js';
import { DisasmView } from './ui/disasm-view.js';
import { HexView } from './ui/hex-view.js';
import { BlockTreeView } from './ui/block-tree-view.js';
import { showSummary, showError } from './ui/summary-view.js';
import { setupTabs } from './ui/tabs.js';
import type { ArchiveEntry, BlockNode, ErrorInfo, FromWorker, Syntax, TextResult, ToWorker } from './worker/protocol.js';

const ROW_HEIGHT = 20;

const worker = new Worker(new URL('./worker/parse-worker.ts', import.meta.url), { type: 'module' });
let nextId = 1;
/** The id of the newest request of each kind: answers to older ones are ignored. */
const latest = { open: 0, print: 0, convert: 0, upgrade: 0 };

const fileInput = byId<HTMLInputElement>('file-input');
const progress = byId('progress');
const progressBar = byId<HTMLProgressElement>('progress-bar');
const progressText = byId('progress-text');
const empty = byId('empty');
const workspace = byId('workspace');
const errorBox = byId('error');
const disasmInfo = byId('disasm-info');
const disasmEmpty = byId('disasm-empty');
const downloadButton = byId<HTMLButtonElement>('download-disasm');
const treeNote = byId('tree-note');
const hexStatus = byId('hex-status');
const hexCaption = byId('hex-caption');
const convertForm = byId<HTMLFormElement>('convert-form');
const convertStatus = byId('convert-status');
const convertButton = byId<HTMLButtonElement>('convert-button');
const upgradeForm = byId<HTMLFormElement>('upgrade-form');
const upgradeStatus = byId('upgrade-status');
const upgradeButtons = [byId<HTMLButtonElement>('upgrade-text'), byId<HTMLButtonElement>('upgrade-bitcode')];
const announce = byId('announce');
const membersCard = byId('members-card');
const membersList = byId<HTMLUListElement>('members');
const membersNote = byId('members-note');

const disasm = new DisasmView(byId('disasm'), ROW_HEIGHT);
let currentText: TextResult | null = null;
let fileName = '';
let tree: BlockNode[] = [];
let stopAt: number | null = null;
const timing = { open: '', analyse: '' };
function renderTiming(): void {
  byId('timing').textContent = [timing.open, timing.analyse].filter(Boolean).join(' · ');
}
/** When the user chose the current file: the page reports how long until its text was shown. */
let openedAt = 0;

const showFunction = byId<HTMLButtonElement>('show-function');
/** The name of the function block selected in the tree, if it has one. */
let selectedFunction: string | null = null;

const blocks = new BlockTreeView(byId<HTMLUListElement>('tree'), (node, path) => {
  const fn = [...path].reverse().find((n) => n.name === 'Function');
  selectedFunction = fn?.functionName || null;
  showFunction.disabled = !selectedFunction || !currentText || currentText.syntax === 'modern';
  hexView.highlight(node.offset, node.offset + node.size);
  hexStatus.textContent =
    `${path.map(label).join(' › ')}: offset ${node.offset} (0x${hex(node.offset)}), ${formatBytes(node.size)}` +
    (node.records.length ? `, ${node.records.length} records` : '');
});

const hexView = new HexView(byId('hex'), ROW_HEIGHT, (offset, commit) => {
  const byte = hexView.length ? `byte 0x${hex(bytesAt(offset), 2)}` : '';
  const path = commit ? blocks.selectOffset(offset) : pathAt(offset);
  const inner = path[path.length - 1];
  const record = inner?.records.find((r) => offset >= r.offset && offset < r.offset + r.size);
  let where = path.length ? `in ${path.map(label).join(' › ')}` : 'outside every block';
  if (record) where += `; record at ${record.offset}: ${record.label}`;
  let state = '';
  if (stopAt !== null) {
    state = offset < stopAt ? ' (read)' : offset === stopAt ? ' (reading stopped here)' : ' (not read)';
    // A stream that ends too early stops the reader just past its last byte.
    if (stopAt >= streamBytes.length && offset === streamBytes.length - 1) {
      state = ` (the last byte: reading stopped after it, at offset ${stopAt}, because the data ends too early)`;
    }
  }
  hexStatus.textContent = `Offset ${offset} (0x${hex(offset)}): ${byte}${state}, ${where}`;
});

let streamBytes = new Uint8Array(0);
function bytesAt(offset: number): number {
  return streamBytes[offset] ?? 0;
}

function label(n: BlockNode): string {
  return n.detail ? `${n.name} ${n.detail}` : n.name;
}

function pathAt(offset: number): BlockNode[] {
  const path: BlockNode[] = [];
  let level = tree;
  for (;;) {
    const hit = level.find((n) => offset >= n.offset && offset < n.offset + n.size);
    if (!hit) return path;
    path.push(hit);
    level = hit.children;
  }
}

setupTabs(byId('tab-disasm'), byId('tab-blocks'));

function send(message: ToWorker, transfer: Transferable[] = []): void {
  worker.postMessage(message, transfer);
}

/**
 * The syntax the user last chose. A file opens in it when it can be printed so; a version-7 file,
 * which has LLVM 2.0's syntax only, opens in that without changing the choice for the next file.
 */
let preferredSyntax: Syntax = '1.9';
function selectedSyntax(): Syntax {
  return preferredSyntax;
}

/** Offers the syntaxes the open file can be printed in; the others are disabled, saying why. */
function offerSyntaxes(syntaxes: Syntax[]): void {
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="syntax"]')) {
    const offered = syntaxes.includes(radio.value as Syntax);
    radio.disabled = !offered;
    const label = radio.closest('label');
    if (label) label.title = offered ? '' : radio.value === '1.9' ? "LLVM 1.9 could not read this file's bytecode version: it has LLVM 2.0's syntax only" : '';
  }
  byId('modern-option').hidden = !syntaxes.includes('modern');
}

/** The bytecode versions Convert writes (the options of its list). */
function convertVersions(): string[] {
  return [...byId<HTMLSelectElement>('convert-version').options].map((o) => o.value);
}

function setState(state: 'idle' | 'loading' | 'ready' | 'failed'): void {
  document.body.dataset['state'] = state;
}

async function openFile(file: File): Promise<void> {
  const id = nextId++;
  latest.open = id;
  fileName = file.name;
  openedAt = performance.now();
  setState('loading');
  document.body.dataset['analysed'] = 'false';
  progress.hidden = false;
  progressBar.value = 0;
  progressText.textContent = `Opening ${file.name}…`;
  membersCard.hidden = true;
  const bytes = await file.arrayBuffer();
  if (latest.open !== id) return;
  send({ type: 'open', id, name: file.name, bytes, syntax: selectedSyntax() }, [bytes]);
}

function showText(text: TextResult | null, error: ErrorInfo | null): void {
  currentText = text;
  downloadButton.disabled = !text;
  if (text) {
    disasm.show(text.text, text.lineStarts);
    disasmEmpty.hidden = true;
    disasmInfo.textContent = `${disasm.lineCount.toLocaleString('en-US')} lines, ${formatBytes(text.text.length)} (printed in ${Math.round(text.millis)} ms)`;
    const radio = document.querySelector<HTMLInputElement>(`input[name="syntax"][value="${text.syntax}"]`);
    if (radio) radio.checked = true;
  } else {
    disasm.clear();
    disasmInfo.textContent = '';
    disasmEmpty.hidden = false;
    disasmEmpty.textContent = error ? `No disassembly: ${error.message}` : 'No disassembly.';
  }
}

/**
 * Lists an archive's members; the bytecode ones open on click (the worker keeps the archive), the
 * others are shown for what they are.
 */
function showMembers(archiveName: string, members: ArchiveEntry[]): void {
  membersCard.hidden = false;
  const bytecode = members.filter((m) => m.index !== null).length;
  membersNote.textContent = `${archiveName}: ${members.length} member${members.length === 1 ? '' : 's'}, ${bytecode} of them bytecode.`;
  membersList.replaceChildren(
    ...members.map((m) => {
      const size = h('span', { class: 'muted small' }, formatBytes(m.size));
      if (m.index === null) return h('li', {}, h('span', { class: 'muted' }, `${m.name} (${m.kind})`), size);
      const button = h('button', { type: 'button', 'data-index': String(m.index), 'aria-current': m.index === 0 ? 'true' : 'false' }, m.name);
      button.addEventListener('click', () => openMember(button, archiveName, m));
      return h('li', {}, button, size);
    }),
  );
}

function openMember(button: HTMLButtonElement, archiveName: string, member: ArchiveEntry): void {
  if (button.getAttribute('aria-current') === 'true' || member.index === null) return;
  for (const b of membersList.querySelectorAll('button')) b.setAttribute('aria-current', String(b === button));
  const id = nextId++;
  latest.open = id;
  fileName = `${archiveName}(${member.name})`;
  openedAt = performance.now();
  setState('loading');
  document.body.dataset['analysed'] = 'false';
  progress.hidden = false;
  progressText.textContent = `Opening ${fileName}…`;
  send({ type: 'open-member', id, index: member.index, syntax: selectedSyntax() });
}

worker.onmessage = (event: MessageEvent<FromWorker>) => {
  const msg = event.data;
  switch (msg.type) {
    case 'progress':
      if (msg.id !== latest.open) return;
      progressBar.max = msg.steps;
      progressBar.value = msg.step;
      progressText.textContent = `${msg.stage}…`;
      return;
    case 'archive':
      if (msg.id !== latest.open) return;
      showMembers(msg.name, msg.members);
      return;
    case 'opened': {
      if (msg.id !== latest.open) return;
      empty.hidden = true;
      workspace.hidden = false;
      showSummary(byId('summary'), msg.summary);
      const m = msg.millis;
      // Measured after the views are filled (below), in the next frame: what the user waited for.
      requestAnimationFrame(() => {
        if (msg.id !== latest.open) return;
        const total = Math.round(performance.now() - openedAt);
        document.body.dataset['shownMs'] = String(total);
        announce.textContent = msg.error
          ? `${msg.summary.fileName} could not be read: ${msg.error.reason}`
          : `Opened ${msg.summary.fileName}: bytecode version ${msg.summary.bytecodeVersion ?? '?'}, ${disasm.lineCount.toLocaleString('en-US')} lines of disassembly.`;
        timing.open = `Shown ${total} ms after choosing the file (decompress ${Math.round(m.unwrap)} ms · read ${Math.round(m.read)} ms · print ${Math.round(m.print)} ms)`;
        renderTiming();
        setState(msg.error ? 'failed' : 'ready');
      });
      // The block walk is still running; say so where the tree will be.
      tree = [];
      blocks.show(tree);
      showFunction.disabled = true;
      treeNote.hidden = false;
      treeNote.textContent = 'Walking the blocks…';
      document.body.dataset['analysed'] = 'false';
      stopAt = msg.error?.offset ?? null;
      showError(
        errorBox,
        msg.error,
        true,
        () => {
          byId('tab-blocks').click();
          hexView.moveTo(stopAt ?? 0, true);
          byId('hex').focus();
        },
        msg.streamIsFile,
      );
      // The native dialect is named after the release whose llvm-dis it imitates.
      byId('native-label').textContent = msg.summary.nativeDialect ? `Native (${msg.summary.nativeDialect})` : 'Native';
      offerSyntaxes(msg.syntaxes);
      showText(msg.text, msg.textError ?? (msg.error ? { ...msg.error, message: 'the file could not be read (see above).' } : null));
      streamBytes = new Uint8Array(msg.stream);
      hexCaption.textContent = msg.streamIsFile
        ? `(the file as given, ${formatBytes(streamBytes.length)}: its container could not be opened)`
        : msg.summary.compression && msg.summary.compression !== 'none'
          ? `(decompressed stream, ${formatBytes(streamBytes.length)}: offsets as in an uncompressed file)`
          : `(${formatBytes(streamBytes.length)})`;
      hexView.show(streamBytes, stopAt);
      byId('convert-card').hidden = !msg.canConvert;
      // Convert starts at the file's own version, so that it writes the file back as it is unless told otherwise.
      const own = String(msg.summary.bytecodeVersion ?? '');
      if (msg.canConvert && convertVersions().includes(own)) byId<HTMLSelectElement>('convert-version').value = own;
      convertStatus.textContent = '';
      byId('upgrade-card').hidden = !msg.canConvert || !msg.syntaxes.includes('modern');
      upgradeStatus.textContent = '';
      timing.open = timing.analyse = '';
      renderTiming();
      return;
    }
    case 'analyzed':
      if (msg.id !== latest.open) return;
      progress.hidden = true;
      showSummary(byId('summary'), msg.summary);
      timing.analyse = `analyse ${Math.round(msg.millis)} ms`;
      renderTiming();
      tree = msg.tree;
      blocks.show(tree);
      treeNote.hidden = !msg.treeNote;
      treeNote.textContent = msg.treeNote ?? '';
      document.body.dataset['analysed'] = 'true';
      return;
    case 'printed':
      if (msg.id === latest.open) {
        // An unexpected failure while opening arrives this way.
        progress.hidden = true;
        showError(errorBox, msg.error, false, () => undefined);
        setState('failed');
        document.body.dataset['analysed'] = 'true';
        return;
      }
      if (msg.id !== latest.print) return;
      showText(msg.text, msg.error);
      document.body.dataset['printing'] = 'false';
      return;
    case 'converted':
      if (msg.id === latest.upgrade) {
        for (const b of upgradeButtons) b.disabled = false;
        if (msg.bytes) {
          download(msg.bytes, msg.fileName, msg.fileName.endsWith('.ll') ? 'text/plain' : undefined);
          upgradeStatus.textContent = `Wrote ${msg.fileName} (${formatBytes(msg.bytes.byteLength)}).`;
        } else {
          upgradeStatus.textContent = `Cannot upgrade: ${msg.error?.message ?? 'unknown error'}`;
        }
        return;
      }
      if (msg.id !== latest.convert) return;
      convertButton.disabled = false;
      if (msg.bytes) {
        download(msg.bytes, msg.fileName);
        convertStatus.textContent = `Wrote ${msg.fileName} (${formatBytes(msg.bytes.byteLength)}).`;
      } else {
        convertStatus.textContent = `Cannot convert: ${msg.error?.message ?? 'unknown error'}`;
      }
      return;
  }
};

worker.onerror = (e) => {
  progress.hidden = true;
  showError(
    errorBox,
    { kind: 'Error', reason: e.message, message: `The page's worker failed: ${e.message}`, offset: null, blockPath: [] },
    false,
    () => undefined,
  );
  setState('failed');
};

fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (file) void openFile(file);
  fileInput.value = '';
});

for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="syntax"]')) {
  radio.addEventListener('change', () => {
    if (!radio.checked) return;
    preferredSyntax = radio.value as Syntax;
    if (document.body.dataset['state'] !== 'ready') return;
    if (currentText?.syntax === radio.value) return;
    const id = nextId++;
    latest.print = id;
    document.body.dataset['printing'] = 'true';
    disasmInfo.textContent = 'Printing…';
    send({ type: 'print', id, syntax: radio.value as Syntax });
  });
}

const findInput = byId<HTMLInputElement>('find');
let findBackwards = false;
findInput.addEventListener('keydown', (e) => {
  findBackwards = e.key === 'Enter' && e.shiftKey;
});
byId<HTMLFormElement>('find-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const line = disasm.find(findInput.value, findBackwards);
  findBackwards = false;
  disasmInfo.textContent = !findInput.value ? '' : line < 0 ? `“${findInput.value}” not found` : `“${findInput.value}” found on line ${line + 1}`;
});

showFunction.addEventListener('click', () => {
  if (!selectedFunction) return;
  const line = disasm.showDefinition(llvmName(selectedFunction));
  byId('tab-disasm').click();
  byId('disasm').focus();
  disasmInfo.textContent = line < 0 ? `No definition of ${selectedFunction} found` : `${llvmName(selectedFunction)} is defined on line ${line + 1}`;
});

downloadButton.addEventListener('click', () => {
  if (!currentText) return;
  // A member `lib.a(x.bc)` downloads as `x.ll`.
  const base = fileName.replace(/^.*\((.*)\)$/s, '$1').replace(/\.(bc|bc-\d+)$/i, '');
  // A file with one printed syntax (version 7: LLVM 2.0's) downloads its listing as plain `.ll`.
  const onlyNative = byId<HTMLInputElement>('syntax-19').disabled;
  const suffix = currentText.syntax === 'modern' ? '.modern.ll' : currentText.syntax === 'native' && !onlyNative ? '.native.ll' : '.ll';
  download(latin1Bytes(currentText.text), base + suffix, 'text/plain');
});

convertForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const id = nextId++;
  latest.convert = id;
  convertButton.disabled = true;
  convertStatus.textContent = 'Writing…';
  const version = Number(byId<HTMLSelectElement>('convert-version').value);
  const compression = byId<HTMLSelectElement>('convert-compression').value as 'auto' | 'none' | 'bzip2';
  send({ type: 'convert', id, version, compression });
});

upgradeForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const emit = (e.submitter as HTMLButtonElement | null)?.value === 'bitcode' ? 'bitcode' : 'text';
  const id = nextId++;
  latest.upgrade = id;
  for (const b of upgradeButtons) b.disabled = true;
  upgradeStatus.textContent = emit === 'bitcode' ? 'Writing bitcode…' : 'Upgrading…';
  send({ type: 'upgrade', id, emit, llvm: Number(byId<HTMLSelectElement>('upgrade-llvm').value) });
});

// Drag and drop anywhere on the page.
setupDrop(byId('drop-overlay'), (file) => void openFile(file));
