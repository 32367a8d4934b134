/**
 * Vite config for the static web page (issue 10). The page lives in `web/`, imports the library's
 * platform-neutral core straight from `../src`, and builds to `../dist-web/` with relative URLs so
 * the folder works from any path (or a file server with no configuration).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * Rolldown warns ([PLUGIN_TIMINGS]) when plugins took most of a build's time, which on a loaded
 * machine (two shared cores) they do: a warning about the machine, not the page, so it is off.
 * The build must print no warning, and the browser test fails on any other.
 */
const NO_TIMING_WARNINGS = { bundlerTimings: false };

export default defineConfig({
  root: here,
  base: './',
  // Nothing is fetched from elsewhere at run time: no CDN, no fonts, no analytics.
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../dist-web/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // The worker bundle holds the whole library plus the bzip2 WebAssembly (inlined as base64).
    chunkSizeWarningLimit: 2048,
    rolldownOptions: { checks: NO_TIMING_WARNINGS },
  },
  worker: { format: 'es', rolldownOptions: { checks: NO_TIMING_WARNINGS } },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  preview: { port: 4173 },
});
