/**
 * Helpers shared by the importers: walking a document's records, naming conversations,
 * and small JSON accessors. Pure.
 */
import { jsonDepth, MAX_FILE_DEPTH } from '../../util/json-walk'
import type { JsonValue, Message } from '../../messages'
import type { ToolSpec } from '../../tools/types'
import { describeJson, isJsonObject } from '../arguments'
import { BadField, child } from '../openai-log'
import type { ImportedConversation, LogDocument, MessageMeta } from './types'
import { engineJsonError } from '../../util/json-engine-error'
import { expectedGot, type ExpectedKey, traceEnglish, tracePhrase } from '../trace-text'
import type { Phrase } from '../../util/phrase'

/** A JSON object. */
export type JsonObject = Record<string, JsonValue>

/** One top-level record of a document with the path it sits at (`[3]`, `line 4: `, or `''`). */
export interface LogRecord {
  value: JsonValue
  path: string
  /** 0-based position among the document's records. */
  index: number
}

/**
 * The records of a document: each line of JSONL, each item of a top-level array, or the
 * single top-level object. `arrayIsRecord` keeps a top-level array whole (for dialects
 * where a bare array is one conversation).
 */
export function recordsOf(document: LogDocument, arrayIsRecord = false): LogRecord[] {
  if (document.kind === 'lines') return document.lines.map((line, index) => ({ value: line.value, path: `line ${line.line}: `, index }))
  const { value } = document
  if (Array.isArray(value) && !arrayIsRecord) return value.map((item, index) => ({ value: item, path: child('', index), index }))
  return [{ value, path: '', index: 0 }]
}

/** The first record, for detection (a bounded look: detection must stay cheap on big files). */
export function firstRecord(document: LogDocument): JsonValue | undefined {
  if (document.kind === 'lines') return document.lines[0]?.value
  return Array.isArray(document.value) ? document.value[0] : document.value
}

/** `value[key]` when `value` is an object holding an object there. */
export function objectAt(value: JsonValue | undefined, key: string): JsonObject | undefined {
  if (!isJsonObject(value)) return undefined
  const found = value[key]
  return isJsonObject(found) ? found : undefined
}

/** `value[key]` when `value` is an object holding an array there. */
export function arrayAt(value: JsonValue | undefined, key: string): JsonValue[] | undefined {
  if (!isJsonObject(value)) return undefined
  const found = value[key]
  return Array.isArray(found) ? found : undefined
}

/** `value[key]` when it is a string. */
export function stringAt(value: JsonValue | undefined, key: string): string | undefined {
  if (!isJsonObject(value)) return undefined
  const found = value[key]
  return typeof found === 'string' ? found : undefined
}

/** Requires an object at `path`. @throws BadField */
export function expectObject(value: JsonValue | undefined, path: string, what: ExpectedKey): JsonObject {
  if (!isJsonObject(value)) throw new BadField(path, expectedGot(what, describeJson(value)))
  return value
}

/** Requires an array at `path`. @throws BadField */
export function expectArray(value: JsonValue | undefined, path: string, what: ExpectedKey): JsonValue[] {
  if (!Array.isArray(value)) throw new BadField(path, expectedGot(what, describeJson(value)))
  return value
}

/** Requires a string at `path`. @throws BadField */
export function expectString(value: JsonValue | undefined, path: string): string {
  if (typeof value !== 'string') throw new BadField(path, expectedGot('expString', describeJson(value)))
  return value
}

/** Text for a value that should be text: strings as they are, anything else as compact JSON (`null` → `''`). */
export function asText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** Parses a JSON string attribute (OTel and OpenInference store structures as JSON text). @throws BadField */
export function parseJsonText(text: string, path: string): JsonValue {
  let value: JsonValue
  try {
    value = JSON.parse(text) as JsonValue
  } catch (error) {
    throw new BadField(path, tracePhrase('fieldJsonText', { error: engineJsonError(error) }))
  }
  // The importers walk what they read level by level: JSON text inside a field gets the file's depth limit.
  if (jsonDepth(value, MAX_FILE_DEPTH) > MAX_FILE_DEPTH) throw new BadField(path, tracePhrase('fieldJsonDeep', { limit: MAX_FILE_DEPTH }))
  return value
}

/** The record's scalar fields, for display and search. */
export function scalars(record: JsonValue): ImportedConversation['meta'] {
  if (!isJsonObject(record)) return {}
  // fromEntries defines own properties, so a logged "__proto__" key stays a plain field.
  return Object.fromEntries(
    Object.entries(record).filter((entry): entry is [string, string | number | boolean | null] => entry[1] === null || typeof entry[1] !== 'object'),
  )
}

/** A conversation's label: the English (search, the CLI) and, when Toolstep worded part of it, the phrase the UI translates. */
export interface Label {
  label: string
  labelPhrase?: Phrase
}

/** `head` as a label: a phrase of `TRACE_TEXT` (`labelConversation`, …) rendered in English, or the log's own text as it is. */
export function labelled(head: Phrase | string): Label {
  return typeof head === 'string' ? { label: head } : { label: traceEnglish(head), labelPhrase: head }
}

/** A label as the `head` parameter of a longer label phrase (`labelCalls`, …): its phrase, or its text when the log named it. */
export function labelHead(label: Label): Phrase | string {
  return label.labelPhrase ?? label.label
}

/** Id and label from the record's own id (`id`, `custom_id`, `trace_id`), or τ-bench's `task_id` / `trial` / `reward`. */
export function naming(record: JsonValue, index: number): { id: string } & Label {
  if (!isJsonObject(record)) return { id: String(index), ...labelled(tracePhrase('labelConversation', { index })) }
  const own = ['id', 'custom_id', 'traceId', 'trace_id'].map((key) => record[key]).find((value) => typeof value === 'string' || typeof value === 'number')
  const task = record['task_id']
  const trial = record['trial']
  const reward = record['reward']
  let head: Phrase | string
  let id = String(index)
  if (own !== undefined && own !== null) {
    id = String(own)
    head = String(own)
  } else if (typeof task === 'string' || typeof task === 'number') {
    id = `task-${task}`
    head = tracePhrase('labelTask', { task })
    if (typeof trial === 'string' || typeof trial === 'number') {
      id += `-trial-${trial}`
      head = tracePhrase('labelTrial', { head, trial })
    }
  } else {
    head = tracePhrase('labelConversation', { index })
  }
  if (typeof reward === 'number' || typeof reward === 'string') head = tracePhrase('labelReward', { head, reward })
  return { id, ...labelled(head) }
}

/** Ids must be unique for selection; a repeated one gets `#n` appended. Keeps state across calls so it works on a stream. */
export function uniqueIdGiver(): (conversation: ImportedConversation) => ImportedConversation {
  const seen = new Set<string>()
  let count = 0
  return (conversation) => {
    const index = count++
    const id = seen.has(conversation.id) ? `${conversation.id}#${index}` : conversation.id
    seen.add(id)
    return id === conversation.id ? conversation : { ...conversation, id }
  }
}

/** Builds a conversation, leaving out empty optional parts. */
export function conversationOf(fields: {
  id: string
  label: string
  labelPhrase?: Phrase | undefined
  messages: Message[]
  path: string
  meta?: ImportedConversation['meta']
  tools?: ToolSpec[] | undefined
  messageMeta?: Map<number, MessageMeta> | Record<number, MessageMeta> | undefined
}): ImportedConversation {
  const conversation: ImportedConversation = { id: fields.id, label: fields.label, messages: fields.messages, path: fields.path, meta: fields.meta ?? {} }
  if (fields.labelPhrase) conversation.labelPhrase = fields.labelPhrase
  if (fields.tools && fields.tools.length > 0) conversation.tools = fields.tools
  const entries = fields.messageMeta instanceof Map ? [...fields.messageMeta] : Object.entries(fields.messageMeta ?? {}).map(([key, value]) => [Number(key), value] as const)
  if (entries.length > 0) conversation.messageMeta = Object.fromEntries(entries)
  return conversation
}

/** Keys of an object for error messages: `keys "a", "b"` (at most 8), a phrase of `TRACE_TEXT`. */
export function keyList(object: JsonObject): Phrase {
  const keys = Object.keys(object)
  if (keys.length === 0) return tracePhrase('keysNone')
  const list = keys
    .slice(0, 8)
    .map((key) => `"${key}"`)
    .join(', ')
  return keys.length > 8 ? tracePhrase('keysMany', { list, total: keys.length }) : tracePhrase('keysSome', { list })
}

/** `3 messages`, `1 message`: `count` of `noun`, a phrase of `TRACE_TEXT` (`countMessage`). */
export function plural(count: number, noun: 'Line' | 'Record' | 'Event' | 'Trace' | 'Message' | 'Conversation' | 'Pair' | 'Chunk' | 'ModelCallSpan' | 'Span' | 'Step'): Phrase {
  return tracePhrase(`count${noun}`, { count })
}

/** How a stream's events are carried: `server-sent events`, `JSONL` or `a JSON array` (a phrase of `TRACE_TEXT`). */
export function carrierOf(document: LogDocument): Phrase {
  return tracePhrase(document.kind === 'lines' ? (document.sse ? 'carrierSse' : 'carrierJsonl') : 'carrierArray')
}

/** Marks of a dialect found in a list of messages or items (first `limit` entries only). */
export interface MessageStyle {
  /** Items with a string `role`. */
  roles: number
  /** OpenAI: `tool_calls` arrays, `tool` roles with `tool_call_id`. */
  openai: boolean
  /** Anthropic: content blocks `tool_use` / `tool_result`. */
  anthropic: boolean
  /** AI SDK: content parts `tool-call` / `tool-result`. */
  vercel: boolean
  /** Responses API items (`function_call`, `function_call_output`, `message` with `input_text`/`output_text`). */
  responses: boolean
  /** OTel GenAI messages (`parts` arrays). */
  otel: boolean
  /** Content given as an array of typed blocks. */
  blocks: boolean
}

/** Looks for dialect marks in the first `limit` entries of a list. Cheap and never throws. */
export function messageStyle(items: readonly JsonValue[], limit = 200): MessageStyle {
  const style: MessageStyle = { roles: 0, openai: false, anthropic: false, vercel: false, responses: false, otel: false, blocks: false }
  for (const item of items.slice(0, limit)) {
    if (!isJsonObject(item)) continue
    if (typeof item['role'] === 'string') style.roles++
    if (Array.isArray(item['tool_calls']) || typeof item['tool_call_id'] === 'string') style.openai = true
    if (Array.isArray(item['parts'])) style.otel = true
    const type = item['type']
    if (type === 'function_call' || type === 'function_call_output' || type === 'reasoning') style.responses = true
    const content = item['content']
    if (!Array.isArray(content)) continue
    for (const part of content) {
      if (!isJsonObject(part)) continue
      style.blocks = true
      const partType = part['type']
      if (partType === 'tool_use' || partType === 'tool_result' || partType === 'thinking') style.anthropic = true
      if (partType === 'tool-call' || partType === 'tool-result') style.vercel = true
      if (partType === 'input_text' || partType === 'output_text') style.responses = true
    }
  }
  return style
}
