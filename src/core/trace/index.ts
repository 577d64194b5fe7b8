/** Importers of foreign logs, anomaly checks, and replay of logged conversations as session events. */
export {
  importLog,
  importLogChunked,
  importLogIncremental,
  importOpenAITools,
  LOG_FORMATS,
  type ChunkedImportOptions,
  type ImportedConversation,
  type ImportOptions,
  type ImportResult,
  type LogFormat,
  type MessageMeta,
} from './import-log'
export { IMPORTERS, detectAll } from './importers/registry'
export type { Detection, Importer, ImportStep, LogDocument } from './importers/types'
export { parseLogDocument } from './log-document'
export { findAnomalies, ANOMALY_CODES, type Anomaly, type AnomalyCode } from './anomalies'
export { replayEvents, REPLAY_PROTOCOL, type ReplayableConversation, type ReplayOptions } from './replay-events'
export { summarize, type LocatedAnomaly, type ReplaySummary } from './summarize'
export { readArguments, type ArgumentsReading } from './arguments'
