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
export {
  findAnomalies,
  ANOMALY_CODES,
  DEFAULT_TRIM_WINDOW,
  LARGE_TOOL_RESULT_CHARS,
  REPEATED_CALL_THRESHOLD,
  TRUNCATION_REASONS,
  type Anomaly,
  type AnomalyCode,
  type AnomalyOptions,
} from './anomalies'
export { ANOMALY_CATALOGUE, describeAnomaly, type AnomalyEntry, type AnomalyExample } from './anomaly-catalogue'
export { replayEvents, REPLAY_PROTOCOL, type ReplayableConversation, type ReplayOptions } from './replay-events'
export { summarize, type LocatedAnomaly, type ReplaySummary } from './summarize'
export { readArguments, type ArgumentsReading } from './arguments'
export {
  exportAnthropic,
  exportAnthropicRequest,
  exportOllama,
  exportOllamaRequest,
  exportOpenAI,
  exportOpenAIRequest,
  exportRequest,
  requestExport,
  withUniqueCallIds,
  type RenamedCallId,
  type RequestExport,
  EXPORT_TARGETS,
  MISSING_RESULT_TEXT,
  type OllamaMessage,
  type OllamaRequestBody,
  type AnthropicBlock,
  type AnthropicRequestBody,
  type AnthropicToolDefinition,
  type ExportTarget,
  type OpenAIRequestBody,
  type OpenAIToolDefinition,
  type AnthropicConversation,
  type AnthropicMessage,
  type OpenAIChatMessage,
  type OpenAIToolCall,
} from './export-messages'
export { importLogFiles, captureName, recordingOf, withRecording, type CaptureName, type LogFile } from './capture-files'
export type { RecordedResponse } from './importers/types'
export { readRecordedPrefix, playbackDelays, type PartialReply } from './recorded'
export { TRACE_TEXT, traceEnglish, tracePhrase, traceRef, type TraceTextKey } from './trace-text'
