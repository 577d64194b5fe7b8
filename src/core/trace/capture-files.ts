/**
 * Importing several files as one log: recorded HTTP traffic cut into one file per body
 * (`NAME.request.json` + `NAME.response.json` / `.sse` / `.jsonl`, and for a session of several
 * turns `NAME.1.request.json`, `NAME.1.response.json`, `NAME.2.request.json`, …), as VCR
 * cassettes and proxy recorders store it. The turns of one `NAME` are one conversation: each
 * turn is read as a request/response exchange of its dialect (OpenAI Chat Completions, OpenAI
 * Responses, Anthropic Messages), a streamed response is first assembled into the body the
 * non-streamed API returns, and the turns are joined by their shared history (`threads.ts`).
 * Each turn's response is kept as recorded (`MessageMeta.recorded`), chunks and all.
 *
 * Files whose names do not follow that pattern are imported one by one and their
 * conversations listed after each other.
 *
 * Pure; never throws; linear in the total size of the files.
 */
import type { JsonValue, Message } from '../messages'
import { isJsonObject } from './arguments'
import { importLog, type ImportOptions, type ImportResult } from './import-log'
import { readAnthropicExchange } from './importers/anthropic-messages'
import { assembleAnthropicStream, isAnthropicEvent } from './importers/anthropic-stream'
import { readChatExchange } from './importers/openai-chat'
import { readResponsesExchange } from './importers/openai-responses'
import { assembleResponsesStream, isResponsesEvent } from './importers/openai-responses-stream'
import { assembleChunks, isChunk, type AssembledCompletion } from './importers/openai-stream'
import { detectAll } from './importers/registry'
import { labelled, uniqueIdGiver, type JsonObject } from './importers/shared'
import { joinExchanges, type Exchange } from './importers/threads'
import type { ImportedConversation, LogDocument, LogFormat, RecordedResponse } from './importers/types'
import { failure, parseLogDocument, type ReadFailure } from './log-document'
import { tracePhrase, traceRef } from './trace-text'
import { toOpenAIToolCall } from '../wire/openai-chat'
import { BadField, describePath } from './openai-log'
import { errorMessage, type Phrase } from '../util'

/** One file to import: its name (for pairing and errors) and its whole text. */
export interface LogFile {
  name: string
  text: string
}

/** Where a capture file sits: its capture name, turn number (0 when unnumbered) and side. */
export interface CaptureName {
  capture: string
  turn: number
  side: 'request' | 'response'
}

const CAPTURE_NAME = /^(.+?)(?:\.(\d+))?\.(request|response)\.(json|sse|jsonl|ndjson|txt)$/i

/** Reads `NAME[.N].request|response.EXT`; undefined for any other file name. */
export function captureName(fileName: string): CaptureName | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? fileName
  const match = CAPTURE_NAME.exec(base)
  if (!match) return undefined
  return { capture: match[1]!, turn: match[2] === undefined ? 0 : Number(match[2]), side: match[3]!.toLowerCase() as CaptureName['side'] }
}

/** The three dialects whose request/response pairs a capture holds. */
type PairDialect = 'openai-messages' | 'openai-responses' | 'anthropic-messages'

/**
 * Import one or more files as one log. One file is `importLog` (plus its recorded stream, when
 * it is one); several are paired into captures by name (see the module comment).
 *
 * @returns The conversations of every file, in name order of the captures; an error names the
 *   file (and the JSON path) where reading stopped.
 */
export function importLogFiles(files: readonly LogFile[], options: ImportOptions = {}): ImportResult {
  if (files.length === 0) return failure('noFile')
  if (files.length === 1) return withRecording(files[0]!, importLog(files[0]!.text, options))
  const captures = new Map<string, { turn: number; side: CaptureName['side']; file: LogFile }[]>()
  const loose: LogFile[] = []
  for (const file of files) {
    const name = captureName(file.name)
    if (!name) {
      loose.push(file)
      continue
    }
    const list = captures.get(name.capture) ?? []
    list.push({ turn: name.turn, side: name.side, file })
    captures.set(name.capture, list)
  }
  const conversations: ImportedConversation[] = []
  let format: LogFormat | undefined
  for (const [capture, parts] of [...captures].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const read = readCapture(capture, parts)
    if (!read.ok) return read
    format ??= read.format
    conversations.push(...read.conversations)
  }
  for (const file of loose) {
    const result = importLog(file.text, options)
    if (!result.ok) return failure('inFile', { file: file.name, error: result.errorPhrase ?? result.error })
    if (result.format === 'toolstep-session') return failure('captureSession', { file: file.name })
    format ??= result.format
    conversations.push(...withRecording(file, result).conversations)
  }
  const unique = uniqueIdGiver()
  return { ok: true, format: format ?? 'openai-messages', conversations: conversations.map(unique) }
}

/**
 * `result` (of importing `file` alone) as that file's: a lone conversation the log did not name
 * is labelled by the file's name (`ask.json` → `ask`), as a capture is, rather than
 * "conversation 0"; and the recorded stream is attached to its reply, when the file was one
 * streamed response (`MessageMeta.recorded` of its assistant message). Pure.
 */
export function withRecording(file: LogFile, imported: ImportResult): ImportResult & { conversations: ImportedConversation[] } {
  if (!imported.ok) return { ...imported, conversations: [] }
  const result = { ...imported, conversations: namedAfterFile(file.name, imported.conversations) }
  const streamed = result.format === 'openai-stream' || result.format === 'anthropic-stream' || result.format === 'openai-responses-stream'
  const only = result.conversations.length === 1 ? result.conversations[0] : undefined
  if (!streamed || !only) return result
  const at = only.messages.findIndex((message) => message.role === 'assistant')
  if (at < 0) return result
  return { ...result, conversations: [{ ...only, messageMeta: { ...only.messageMeta, [at]: { ...only.messageMeta?.[at], recorded: recordingOf(file.text) } } }] }
}

/**
 * `conversations` with a lone one's generated label (`conversation 0`, also as the head of
 * "conversation 0 · 2 calls") replaced by the name of the file it came from, without its
 * extension (a capture's `NAME.request.json` gives `NAME`). Several conversations, a label the
 * log gave, and a file without a name are left as they are.
 */
function namedAfterFile(fileName: string, conversations: ImportedConversation[]): ImportedConversation[] {
  const only = conversations.length === 1 ? conversations[0] : undefined
  const base = fileName.split(/[\\/]/).pop() ?? fileName
  const name = captureName(base)?.capture ?? base.replace(/\.(json|jsonl|ndjson|sse|txt)$/i, '')
  if (!only?.labelPhrase || name === '') return conversations
  const head = renamedHead(only.labelPhrase, name)
  if (head === only.labelPhrase) return conversations
  const { labelPhrase: _generated, ...rest } = only
  return [{ ...rest, ...labelled(head) }]
}

/** `label` with its innermost head, when that is `labelConversation`, replaced by `name`; `label` itself when there is none. */
function renamedHead(label: Phrase, name: string): Phrase | string {
  if (label.key === 'labelConversation') return name
  const head = label.params?.['head']
  if (typeof head !== 'object' || 'ns' in head) return label
  const renamed = renamedHead(head, name)
  return renamed === head ? label : { ...label, params: { ...label.params, head: renamed } }
}

type CaptureResult = { ok: true; format: PairDialect; conversations: ImportedConversation[] } | ReadFailure

function readCapture(capture: string, parts: readonly { turn: number; side: CaptureName['side']; file: LogFile }[]): CaptureResult {
  const turns = new Map<number, { request?: LogFile; response?: LogFile }>()
  for (const part of parts) {
    const turn = turns.get(part.turn) ?? {}
    const twice = turn[part.side]
    if (twice) return failure(part.side === 'request' ? 'captureTwoRequests' : 'captureTwoResponses', { file: part.file.name, other: twice.name, turn: part.turn, capture })
    turn[part.side] = part.file
    turns.set(part.turn, turn)
  }
  const ordered = [...turns].sort(([a], [b]) => a - b)
  const records: { record: JsonObject; path: string; recorded?: RecordedResponse; streamed?: PairDialect }[] = []
  for (const [, { request, response }] of ordered) {
    let requestBody: JsonObject | undefined
    if (request) {
      const parsed = parseLogDocument(request.text)
      if (!parsed.ok) return failure('inFile', { file: request.name, error: parsed.errorPhrase })
      if (parsed.document.kind !== 'json' || !isJsonObject(parsed.document.value)) return failure('captureNotObject', { file: request.name })
      requestBody = parsed.document.value
    }
    let body: JsonValue | undefined
    let streamed: PairDialect | undefined
    if (response) {
      const parsed = parseLogDocument(response.text)
      if (!parsed.ok) return failure('inFile', { file: response.name, error: parsed.errorPhrase })
      const assembled = responseBody(parsed.document)
      body = assembled.body
      streamed = assembled.dialect
    }
    const file = request ?? response!
    const record: JsonObject = requestBody ? { ...requestBody, ...(body !== undefined ? { response: body } : {}) } : { response: body ?? null }
    records.push({ record, path: `${file.name}: `, ...(response ? { recorded: recordingOf(response.text) } : {}), ...(streamed ? { streamed } : {}) })
  }
  const dialect = records.find((entry) => entry.streamed)?.streamed ?? dialectOf(records.map((entry) => entry.record))
  if (!dialect) return failure('captureUnknown', { capture })
  const exchanges: Exchange[] = []
  const chain = new Map<string, Exchange>()
  try {
    records.forEach((entry, index) => {
      const exchange = dialect === 'openai-messages' ? readChatExchange(entry.record, entry.path, index) : dialect === 'anthropic-messages' ? readAnthropicExchange(entry.record, entry.path, index) : readResponsesExchange(entry.record, entry.path, index, chain)
      const reply = firstReply(exchange.messages, exchange.requestLength)
      if (entry.recorded && reply >= 0) exchange.messageMeta.set(reply, { ...exchange.messageMeta.get(reply), recorded: entry.recorded })
      exchanges.push(exchange)
    })
  } catch (error) {
    if (error instanceof BadField) return failure('captureBadField', { capture, path: error.path === '' ? traceRef('theFile') : describePath(error.path), problem: error.problemParam() })
    return failure('inFile', { file: capture, error: errorMessage(error) })
  }
  const conversations = joinExchanges(exchanges).map(({ labelPhrase: _generated, ...conversation }, index, all) => ({
    ...conversation,
    id: all.length === 1 ? capture : `${capture}-${index}`,
    // joinExchanges counts calls it joined; the capture's own name is the better label. Its phrase
    // ("conversation 0") goes too: the page shows a phrase before the label, and the bare name has none.
    ...(all.length === 1
      ? labelled(records.length > 1 ? tracePhrase('labelTurns', { head: capture, n: records.length }) : capture)
      : labelled(tracePhrase('labelPart', { head: capture, n: index + 1 }))),
  }))
  return { ok: true, format: dialect, conversations }
}

/** Index of the first assistant message at or after `from`, or -1. */
function firstReply(messages: readonly Message[], from: number): number {
  for (let index = from; index < messages.length; index++) if (messages[index]?.role === 'assistant') return index
  return -1
}

/** The dialect of request/response records, as the importers' detection sees the first one. */
function dialectOf(records: readonly JsonObject[]): PairDialect | undefined {
  for (const record of records) {
    for (const { importer, detection } of detectAll({ kind: 'json', value: record })) {
      if (detection.confidence < 0.3) continue
      if (importer.id === 'openai-messages' || importer.id === 'openai-conversations' || importer.id === 'openai-jsonl') return 'openai-messages'
      if (importer.id === 'anthropic-messages' || importer.id === 'openai-responses') return importer.id
    }
  }
  return undefined
}

/** A response file's body: itself, or the body its stream of chunks or events adds up to. */
function responseBody(document: LogDocument): { body: JsonValue; dialect?: PairDialect } {
  if (document.kind === 'json' && !Array.isArray(document.value)) return { body: document.value }
  const events = document.kind === 'lines' ? document.lines.map((line) => ({ value: line.value, path: `line ${line.line}: ` })) : (document.value as JsonValue[]).map((value, index) => ({ value, path: `[${index}]` }))
  const sample = events.slice(0, 5).map((event) => event.value)
  if (sample.some(isResponsesEvent)) return { body: assembleResponsesStream(events), dialect: 'openai-responses' }
  if (sample.some(isAnthropicEvent)) return { body: assembleAnthropicStream(events), dialect: 'anthropic-messages' }
  if (sample.some(isChunk)) {
    const completion = assembleChunks(events)[0]
    return { body: completion ? completionBody(completion) : { choices: [] }, dialect: 'openai-messages' }
  }
  return { body: document.kind === 'json' ? document.value : events.map((event) => event.value) }
}

/** A reassembled stream as the `chat.completion` object the non-streamed API returns. */
function completionBody(completion: AssembledCompletion): JsonObject {
  const { message } = completion
  const wire: JsonObject = { role: 'assistant', content: completion.refusal !== undefined && message.content === completion.refusal ? null : message.content }
  if (completion.refusal !== undefined) wire['refusal'] = completion.refusal
  if (message.tool_calls) wire['tool_calls'] = message.tool_calls.map((call) => ({ ...toOpenAIToolCall(call) }))
  return {
    id: completion.id,
    object: 'chat.completion',
    choices: [{ index: 0, message: wire, finish_reason: completion.finishReason ?? null }],
    ...(completion.error !== undefined ? { error: { message: completion.error } } : {}),
  }
}

/**
 * A response body as recorded: a server-sent event stream is split into its events (blank-line
 * separated), JSON lines into lines, anything else kept whole. Source: the HTML Living Standard,
 * "Server-sent events" (events end at a blank line; `data:`, `event:`, `id:`, `retry:` fields).
 */
export function recordingOf(text: string): RecordedResponse {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const lines = body.split(/\r?\n/)
  const sse = lines.some((line) => /^(data|event):/.test(line))
  if (sse) {
    const chunks: { text: string }[] = []
    let current: string[] = []
    for (const line of lines) {
      if (line.trim() === '') {
        if (current.length > 0) chunks.push({ text: `${current.join('\n')}\n\n` })
        current = []
      } else {
        current.push(line)
      }
    }
    if (current.length > 0) chunks.push({ text: `${current.join('\n')}\n\n` })
    return { kind: 'sse', text: body, chunks }
  }
  const rows = lines.filter((line) => line.trim() !== '')
  const jsonl = rows.length > 1 && rows.every((row) => row.trimStart().startsWith('{') && row.trimEnd().endsWith('}'))
  return jsonl ? { kind: 'jsonl', text: body, chunks: rows.map((row) => ({ text: `${row}\n` })) } : { kind: 'json', text: body }
}
