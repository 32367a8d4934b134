export * from './type.js';
export * from './value.js';
export * from './module.js';
export * from './describe.js';
export * from './uses.js';
export * from './self-containing.js';
