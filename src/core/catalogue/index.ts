/**
 * The anomaly catalogue (codes, titles, explanations) on its own: the page shows it before any
 * log is read, and `core/trace`'s index would bring every log importer with it.
 */
export * from '../trace/anomaly-catalogue'
