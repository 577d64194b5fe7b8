/**
 * Lenient JSON for model output: {@link readJson} reads one value with named repairs and spans,
 * {@link findJsonValues} finds the values embedded in prose.
 */
export * from './read-json'
export * from './find-json'
