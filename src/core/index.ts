/**
 * Public surface of src/core, the pure engine (no DOM, no Node APIs): one line per folder,
 * each re-exporting that folder's own index. Layers above core (sandbox, store, ui, cli)
 * import from here or from a folder index, not from files inside a folder.
 */
export * from './messages'
export * from './json'
export * from './protocols'
export * from './tools'
export * from './validation'
export * from './trace'
export * from './files'
export * from './loop'
export * from './endpoint'
export * from './debug'
export * from './evals'
export * from './narration'
export * from './export'
