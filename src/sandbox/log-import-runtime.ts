/**
 * The log-import worker's message loop: reads a `File`, imports it with progress, checks every
 * conversation for anomalies, and KEEPS the conversations. The page gets a compact index in
 * slices, then asks for one conversation's replay events at a time and for text searches.
 *
 * Runs in a Web Worker (see `log-import.worker.ts`); it has no DOM dependency, so unit tests
 * drive it in Node.
 */
import type { Message } from '../core/messages'
import type { ToolSpec } from '../core/tools/types'
import { findAnomalies, importLogChunked, importLogFiles, replayEvents, traceRef, withRecording, type ImportedConversation, type ImportResult } from '../core/trace/index'
import {
  hostToLogImportSchema,
  type ConversationSummary,
  type HostToLogImport,
  type ImportStage,
  type LogImportToHost,
} from './log-import-protocol'
import { errorMessage, isJsonObject, parseJsonText, phraseRef, readTextFile, type PhraseRef } from '../core/util'
import { isWorkspaceText, readSession } from '../core/files'
import { FILE_TEXT, PARSE_TEXT } from '../core/catalogue'
import { openAIArguments } from '../core/wire'

/** Conversations per `index-slice` message: small enough that the page receives each in a few ms. */
export const INDEX_SLICE = 1000
/** Files under this size are first tried as a Toolstep session, workspace or tools file. */
const SMALL_FILE_CHARS = 2_000_000
/** Minimum time between two progress messages, ms (the page need not repaint more often). */
const PROGRESS_INTERVAL_MS = 50

/** Progress spans of each stage within the overall 0..1. */
const STAGE_SPAN: Record<ImportStage, readonly [number, number]> = {
  reading: [0, 0.05],
  parsing: [0.05, 0.7],
  checking: [0.7, 0.95],
  listing: [0.95, 1],
}

interface Held {
  format: string
  conversations: ImportedConversation[]
  summaries: ConversationSummary[]
  /** Lowercased searchable text per conversation, built on the first search. */
  texts: string[] | null
}

/**
 * Creates the handler for messages from the page.
 * @param post - sends one message to the page.
 * @returns a function to call with each received message's data; it never throws.
 */
export function createLogImportDispatch(post: (message: LogImportToHost) => void): (data: unknown) => void {
  let held: Held | null = null

  /** Fails request `requestId` saying `error` (English for the CLI and tests, the phrase for the page). */
  function fail(requestId: string, error: PhraseRef): void {
    post({ type: 'failed', requestId, error: error.english, errorPhrase: error })
  }

  async function importFile(message: Extract<HostToLogImport, { type: 'import' }>): Promise<void> {
    const { requestId } = message
    const progress = progressReporter(requestId, post)
    progress('reading', 0, true)
    const parts = message.files ?? [{ name: message.name ?? '', file: message.file }]
    let texts: string[]
    try {
      // Bytes, not file.text(): that reads UTF-8 only (Windows tools save UTF-16 with a BOM), and
      // would show a binary file as garbage.
      texts = []
      for (const part of parts) {
        const decoded = readTextFile(new Uint8Array(await part.file.arrayBuffer()))
        if (!decoded.ok) {
          const error = phraseRef('parse', decoded.errorPhrase, PARSE_TEXT)
          fail(requestId, parts.length > 1 ? traceRef('workerPartCannotOpen', { file: part.name, error }) : traceRef('workerCannotOpen', { error }))
          return
        }
        texts.push(decoded.text)
      }
    } catch (error) {
      fail(requestId, traceRef('workerReadFailed', { error: errorMessage(error) }))
      return
    }
    const text = texts[0] ?? ''
    // A workspace of any size goes to the page, which opens workspaces: an importer would take
    // one over the small-file size for a one-message log.
    if (parts.length === 1 && ((text.length < SMALL_FILE_CHARS && isToolstepFile(text)) || isWorkspaceText(text))) {
      post({ type: 'passthrough', requestId, text })
      return
    }
    progress('parsing', 0, true)
    // One file is read in batches (it may be huge); several are recorded bodies of one session, each small.
    const result: ImportResult =
      parts.length === 1
        ? withRecording({ name: parts[0]!.name, text }, await importLogChunked(text, { onProgress: (fraction) => progress('parsing', fraction) }))
        : importLogFiles(parts.map((part, index) => ({ name: part.name, text: texts[index] ?? '' })))
    if (!result.ok) {
      post({ type: 'failed', requestId, error: result.error, ...(result.errorPhrase ? { errorPhrase: result.errorPhrase } : {}) })
      return
    }
    if (result.format === 'toolstep-session') {
      post({ type: 'passthrough', requestId, text })
      return
    }
    if (result.conversations.length === 0) {
      fail(requestId, traceRef('workerNoConversation'))
      return
    }
    const next: Held = { format: result.format, conversations: result.conversations, summaries: [], texts: null }
    next.summaries = summarizeAll(next.conversations, message.tools, (fraction) => progress('checking', fraction))
    held = next
    sendIndex(requestId, next, progress)
  }

  /** `read-session`: one file as the events of one session, with progress; `held` is untouched. */
  async function readOne(message: Extract<HostToLogImport, { type: 'read-session' }>): Promise<void> {
    const { requestId } = message
    const progress = progressReporter(requestId, post)
    progress('reading', 0, true)
    const decoded = readTextFile(new Uint8Array(await message.file.arrayBuffer()))
    if (!decoded.ok) {
      fail(requestId, traceRef('workerCannotOpen', { error: phraseRef('parse', decoded.errorPhrase, PARSE_TEXT) }))
      return
    }
    progress('parsing', 0, true)
    const result = withRecording({ name: message.name ?? '', text: decoded.text }, await importLogChunked(decoded.text, { onProgress: (fraction) => progress('parsing', fraction) }))
    if (!result.ok) {
      post({ type: 'failed', requestId, error: result.error, ...(result.errorPhrase ? { errorPhrase: result.errorPhrase } : {}) })
      return
    }
    if (result.format === 'toolstep-session') {
      const session = readSession(result.session ?? decoded.text)
      if (session.ok) post({ type: 'session-read', requestId, events: session.value.events, format: result.format, conversations: 1 })
      else post({ type: 'failed', requestId, error: session.error, ...(session.phrase ? { errorPhrase: phraseRef('file', session.phrase, FILE_TEXT) } : {}) })
      return
    }
    const index = message.conversation ?? 0
    const conversation = result.conversations[index]
    if (!conversation) {
      fail(requestId, result.conversations.length === 0 ? traceRef('workerLogEmpty') : traceRef('workerTooFew', { total: result.conversations.length, count: result.conversations.length, n: index + 1 }))
      return
    }
    progress('checking', 0, true)
    post({ type: 'session-read', requestId, events: replayEvents(conversation), format: result.format, conversations: result.conversations.length })
  }

  function sendIndex(requestId: string, from: Held, progress: ReturnType<typeof progressReporter>): void {
    const { summaries } = from
    for (let start = 0; start < summaries.length; start += INDEX_SLICE) {
      post({ type: 'index-slice', requestId, conversations: summaries.slice(start, start + INDEX_SLICE) })
      progress('listing', Math.min(1, (start + INDEX_SLICE) / summaries.length))
    }
    post({ type: 'imported', requestId, format: from.format, total: summaries.length })
  }

  function handle(message: HostToLogImport): void {
    switch (message.type) {
      case 'import':
        void importFile(message).catch((error: unknown) =>
          fail(message.requestId, traceRef('workerImportFailed', { error: errorMessage(error) })),
        )
        return
      case 'reindex': {
        if (!held) {
          fail(message.requestId, traceRef('workerNoLog'))
          return
        }
        const progress = progressReporter(message.requestId, post)
        held.summaries = summarizeAll(held.conversations, message.tools, (fraction) => progress('checking', fraction))
        sendIndex(message.requestId, held, progress)
        return
      }
      case 'replay': {
        const conversation = held?.conversations[message.index]
        if (!conversation) {
          fail(message.requestId, traceRef('workerNoConversationAt', { n: message.index + 1 }))
          return
        }
        post({ type: 'replayed', requestId: message.requestId, events: replayEvents(conversation, message.tools ? { tools: message.tools } : {}) })
        return
      }
      case 'read-session':
        void readOne(message).catch((error: unknown) => fail(message.requestId, traceRef('workerReadFailed', { error: errorMessage(error) })))
        return
      case 'search': {
        post({ type: 'matches', requestId: message.requestId, indexes: held ? search(held, message.text) : [] })
        return
      }
    }
  }

  return (data) => {
    const parsed = hostToLogImportSchema.safeParse(data)
    if (!parsed.success) {
      const requestId = typeof data === 'object' && data !== null && 'requestId' in data && typeof data.requestId === 'string' ? data.requestId : undefined
      post({ type: 'protocol-error', requestId, message: `Malformed request: ${parsed.error.message}` })
      return
    }
    handle(parsed.data)
  }
}

/** Posts throttled progress for one request; overall fractions never go backwards. */
function progressReporter(requestId: string, post: (message: LogImportToHost) => void) {
  let last = 0
  let lastAt = 0
  return (stage: ImportStage, fraction: number, force = false): void => {
    const [from, to] = STAGE_SPAN[stage]
    const overall = Math.max(last, Math.min(1, from + (to - from) * Math.max(0, Math.min(1, fraction))))
    const now = Date.now()
    if (!force && now - lastAt < PROGRESS_INTERVAL_MS) return
    last = overall
    lastAt = now
    post({ type: 'progress', requestId, stage, fraction: overall })
  }
}

/** True for the files the page opens itself: a Toolstep session or workspace, or a `tools` array. */
export function isToolstepFile(text: string): boolean {
  const parsed = parseJsonText(text)
  // JSONL and broken files are for the log importer, which says where they broke.
  if (!parsed.ok) return false
  const data = parsed.value
  if (isJsonObject(data)) return data['format'] === 'toolstep.session' || data['format'] === 'toolstep.workspace'
  return Array.isArray(data) && data.length > 0 && data.every((item) => isJsonObject(item) && item['type'] === 'function')
}

/** The index entry of every conversation, checked against `tools` (else the log's own tool definitions). */
export function summarizeAll(conversations: readonly ImportedConversation[], tools: readonly ToolSpec[] | null, onProgress?: (fraction: number) => void): ConversationSummary[] {
  return conversations.map((conversation, index) => {
    if (index % 200 === 0) onProgress?.(index / conversations.length)
    return summarizeOne(conversation, index, tools)
  })
}

function summarizeOne(conversation: ImportedConversation, index: number, tools: readonly ToolSpec[] | null): ConversationSummary {
  const anomalies = findAnomalies(conversation.messages, tools ?? conversation.tools, conversation.messageMeta ? { messageMeta: conversation.messageMeta } : {})
  const names = new Set<string>()
  for (const message of conversation.messages) {
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) names.add(call.name)
  }
  return {
    index,
    id: conversation.id,
    label: conversation.label,
    ...(conversation.labelPhrase ? { labelPhrase: conversation.labelPhrase } : {}),
    messageCount: conversation.messages.length,
    tools: [...names].sort(),
    anomalyCodes: [...new Set(anomalies.map((anomaly) => anomaly.code))].sort(),
    anomalyCount: anomalies.length,
  }
}

/** Indexes of the conversations containing `text` (case-insensitive) in their messages, id, label, meta, tool names or anomaly codes. */
function search(held: Held, text: string): number[] {
  const needle = text.trim().toLowerCase()
  if (needle === '') return held.summaries.map((summary) => summary.index)
  held.texts ??= held.conversations.map(searchText)
  const found: number[] = []
  held.texts.forEach((haystack, index) => {
    const summary = held.summaries[index]
    if (haystack.includes(needle) || summary?.anomalyCodes.some((code) => code.includes(needle))) found.push(index)
  })
  return found
}

function searchText(conversation: ImportedConversation): string {
  const parts: string[] = [conversation.id, conversation.label]
  for (const value of Object.values(conversation.meta)) parts.push(String(value))
  for (const message of conversation.messages as readonly Message[]) {
    if (message.content) parts.push(message.content)
    if (message.role === 'tool') parts.push(message.name)
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) parts.push(call.name, openAIArguments(call))
    }
  }
  return parts.join('\n').toLowerCase()
}
