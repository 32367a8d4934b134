/**
 * Drag and drop anywhere on the page: an overlay says the file will be opened, and the first
 * dropped file goes to `onFile`. (Counting enter/leave pairs keeps the overlay from flickering as
 * the pointer crosses child elements.)
 */
export function setupDrop(overlay: HTMLElement, onFile: (file: File) => void): void {
  let depth = 0;
  window.addEventListener('dragenter', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    depth++;
    overlay.hidden = false;
  });
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  window.addEventListener('dragover', (e) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  });
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    overlay.hidden = true;
    const file = e.dataTransfer?.files[0];
    if (file) onFile(file);
  });
}
