/** Importers of foreign logs, anomaly checks, and replay of logged conversations as session events. */
export { importLog, importOpenAITools, LOG_FORMATS, type ImportedConversation, type ImportOptions, type ImportResult, type LogFormat } from './import-log'
export { findAnomalies, ANOMALY_CODES, type Anomaly, type AnomalyCode } from './anomalies'
export { replayEvents, REPLAY_PROTOCOL, type ReplayableConversation, type ReplayOptions } from './replay-events'
export { summarize, type LocatedAnomaly, type ReplaySummary } from './summarize'
export { readArguments, type ArgumentsReading } from './arguments'
