/**
 * The anomaly catalogue (codes, titles, explanations) on its own: the page shows it before any
 * log is read, and `core/trace`'s index would bring every log importer with it.
 */
export * from '../trace/anomaly-catalogue'
// The English of anomaly details and import errors (a table, no importer), for the UI's resources.
export { TRACE_TEXT } from '../trace/trace-text'
// The English of edit refusals and diff cells (a table).
export { DEBUG_TEXT } from '../debug/debug-text'
// The English of parse repairs and errors, validation verdicts and refused files (tables), and
// the helpers that word them, for the UI's resources.
export { PARSE_TEXT } from '../util/parse-text'
export { VALIDATION_TEXT } from '../validation/validation-text'
export { FILE_TEXT, wordZodIssue } from '../files/file-text'
export { lowerFirst } from '../util/phrase'
// Why a workspace cannot be exported (a table).
export { EXPORT_TEXT } from '../export/export-text'
