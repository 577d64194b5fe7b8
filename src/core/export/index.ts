/** Public surface of core/export: a workspace as a runnable TypeScript loop or a Vitest test. */
export { adaptTools, DEFAULT_EXPORT_NAME, ExportError, topLevelNames, type AdaptedTools } from './adapt-tools'
export { recordedRun, writeLoopProgram, writeLoopTest, type ExportBundle, type ExportInput, type RecordedRun } from './loop-program'
export { EXPORT_TEXT, exportPhrase, type ExportTextKey } from './export-text'
