/**
 * The anomaly catalogue (codes, titles, explanations) on its own: the page shows it before any
 * log is read, and `core/trace`'s index would bring every log importer with it.
 */
export * from '../trace/anomaly-catalogue'
// The English of anomaly details and import errors (a table, no importer), for the UI's resources.
export { TRACE_TEXT } from '../trace/trace-text'
// The English of edit refusals and diff cells (a table).
export { DEBUG_TEXT } from '../debug/debug-text'
