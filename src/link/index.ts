/** Linking modules as LLVM 1.9's `llvm-link` did (docs/link.md). */
export { linkModules, type LinkOptions } from './link-modules.js';
export { LinkError } from './link-error.js';
export { linkInputs, undefinedSymbols, type LinkInput } from './archive-members.js';
