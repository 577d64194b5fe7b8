/**
 * Tracing exports: OpenTelemetry spans carrying model calls, in two attribute conventions.
 *
 * Span containers read: OTLP JSON (`resourceSpans[].scopeSpans[].spans[]`, attributes as
 * `[{key, value: {stringValue | intValue | doubleValue | boolValue | arrayValue | kvlistValue}}]`,
 * per the OTLP/JSON encoding), a file per line of those (the collector's file exporter), and
 * flat span lists (`[{name, context: {trace_id, span_id}, parent_id, start_time, attributes}]`
 * as the Python SDK's console exporter prints them; `{spans: [...]}` / `{data: [...]}`; and
 * Phoenix's span dataframe records, whose attributes are top-level `attributes.*` columns).
 * Dotted attribute keys are unflattened (`a.0.b` → `{a: [{b}]}`), so flattened and nested
 * exports read alike.
 *
 * - `otel-genai`: the OpenTelemetry GenAI semantic conventions (v1.37+): `gen_ai.input.messages`
 *   and `gen_ai.output.messages` (JSON text: `[{role, parts: [{type: 'text', content} |
 *   {type: 'tool_call', id, name, arguments} | {type: 'tool_call_response', id, response}],
 *   finish_reason?}]`), `gen_ai.system_instructions` (parts), `gen_ai.tool.definitions`,
 *   `gen_ai.response.finish_reasons`.
 *   Also the older conventions: per-message span events (`gen_ai.system.message`,
 *   `gen_ai.user.message`, `gen_ai.assistant.message`, `gen_ai.tool.message`, `gen_ai.choice`;
 *   sent as OTLP log records too, `resourceLogs`), v1.26's `gen_ai.content.prompt` /
 *   `.completion` events, and Traceloop / OpenLLMetry's `gen_ai.prompt.N.*` /
 *   `gen_ai.completion.N.*` attributes with `llm.request.functions.N.*` tools.
 * - `openinference`: OpenInference (Arize Phoenix): `llm.input_messages.N.message.role` /
 *   `.content` / `.contents.K.message_content.text` / `.tool_calls.M.tool_call.id` /
 *   `.tool_call.function.name` / `.tool_call.function.arguments` (JSON text) / `.tool_call_id`,
 *   the same under `llm.output_messages`, and `llm.tools.N.tool.json_schema`.
 *
 * Every model-call span becomes an exchange (its input, then its output); spans are taken
 * in start-time order and exchanges that extend one another are joined into one
 * conversation (see `threads.ts`), so an agent's successive calls read as one loop.
 *
 * Pure.
 */
import type { AssistantMessage, JsonValue, Message, ToolCall } from '../../messages'
import { describeJson, isJsonObject, readArguments } from '../arguments'
import { BadField, child, fillToolNames, readOpenAIMessages, toToolSpecs } from '../openai-log'
import { arrayAt, asText, expectArray, expectObject, labelled, objectAt, parseJsonText, plural, recordsOf, stringAt, type JsonObject } from './shared'
import { readJoined, type Exchange } from './threads'
import type { Importer, LogDocument, MessageMeta } from './types'
import { expectedGot, recognised, tracePhrase } from '../trace-text'
import type { Phrase } from '../../util/phrase'

/** One span, normalised across containers. */
export interface SpanRecord {
  traceId: string
  spanId: string
  name: string
  /** Sortable start time: nanosecond digits zero-padded, or the ISO text as given. */
  start: string
  /** Attributes with dotted keys unflattened and OTLP values unwrapped. */
  attributes: JsonObject
  /** The span's events (or the log records that name it), in time order: name, attributes (unflattened), body. */
  events: SpanEvent[]
  /** Where the span is in the file. */
  path: string
}

/** One span event or log record, normalised. */
export interface SpanEvent {
  name: string
  attributes: JsonObject
  /** A log record's body, OTLP values unwrapped; absent for span events. */
  body?: JsonValue
  /** Sortable time, as `SpanRecord.start`. */
  time: string
}

/**
 * Unwraps an OTLP `AnyValue`. Recursive on the value's nesting, bounded by the document's depth
 * limit (`MAX_FILE_DEPTH`, checked by parseLogDocument before any importer runs).
 */
function anyValue(value: JsonValue | undefined): JsonValue {
  if (!isJsonObject(value)) return value ?? null
  if ('stringValue' in value) return value['stringValue'] ?? null
  if ('boolValue' in value) return value['boolValue'] ?? null
  if ('intValue' in value) {
    const int = value['intValue']
    return typeof int === 'string' && /^-?\d+$/.test(int) ? Number(int) : (int ?? null)
  }
  if ('doubleValue' in value) return value['doubleValue'] ?? null
  if ('arrayValue' in value) return (arrayAt(value['arrayValue'] ?? null, 'values') ?? []).map(anyValue)
  if ('kvlistValue' in value) return keyValues(arrayAt(value['kvlistValue'] ?? null, 'values') ?? [])
  return null
}

function keyValues(list: readonly JsonValue[]): JsonObject {
  const entries: [string, JsonValue][] = []
  for (const item of list) if (isJsonObject(item) && typeof item['key'] === 'string') entries.push([item['key'], anyValue(item['value'])])
  return Object.fromEntries(entries)
}

/** Keys with more dots than this are kept whole: real attribute names have a handful, and each dot would add a level of nesting. */
const MAX_KEY_PARTS = 64

/**
 * Turns dotted keys into nested objects and all-numeric key sets into arrays:
 * `{"a.0.b": 1}` → `{a: [{b: 1}]}`. Applied recursively, so Phoenix's nested records with
 * dotted keys (`{"message.role": "user"}`) come out the same as flattened OTLP attributes.
 * The recursion follows the value's own nesting, which `parseLogDocument` and `parseJsonText`
 * bound to `MAX_FILE_DEPTH` (1000) levels before any importer runs; a key adds at most
 * {@link MAX_KEY_PARTS} levels.
 */
export function unflatten(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(unflatten)
  if (!isJsonObject(value)) return value
  const root: JsonObject = {}
  for (const [key, inner] of Object.entries(value)) {
    const split = key.split('.')
    const parts = split.length > MAX_KEY_PARTS ? [key] : split
    let node = root
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        const existing = node[part]
        const next = unflatten(inner)
        // A key given both flat and nested (`a` and `a.b`) merges rather than overwrites.
        node[part] = isJsonObject(existing) && isJsonObject(next) ? { ...existing, ...next } : next
        return
      }
      const existing = node[part]
      if (!isJsonObject(existing)) node[part] = {}
      node = node[part] as JsonObject
    })
  }
  return arrayify(root)
}

/** One container being rebuilt by {@link arrayify}: its keys (objects) and the children done so far. */
interface ArrayifyFrame {
  source: JsonValue[] | JsonObject
  keys: string[] | undefined
  done: JsonValue[]
}

function arrayifyFrame(value: JsonValue): ArrayifyFrame | undefined {
  if (Array.isArray(value)) return { source: value, keys: undefined, done: [] }
  return isJsonObject(value) ? { source: value, keys: Object.keys(value), done: [] } : undefined
}

function finishArrayify(frame: ArrayifyFrame): JsonValue {
  const keys = frame.keys
  if (keys === undefined) return frame.done
  const entries = keys.map((key, index) => [key, frame.done[index] ?? null] as const)
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, item]) => item)
  }
  return Object.fromEntries(entries)
}

/** Objects whose keys are all numeric become arrays (in key order), at every level. Iterative (post-order, explicit stack). */
function arrayify(value: JsonValue): JsonValue {
  const root = arrayifyFrame(value)
  if (!root) return value
  const stack: ArrayifyFrame[] = [root]
  for (;;) {
    const top = stack[stack.length - 1]!
    const size = top.keys ? top.keys.length : (top.source as JsonValue[]).length
    if (top.done.length === size) {
      const finished = finishArrayify(top)
      stack.pop()
      const parent = stack[stack.length - 1]
      if (!parent) return finished
      parent.done.push(finished)
      continue
    }
    const index = top.done.length
    const child = top.keys ? ((top.source as JsonObject)[top.keys[index]!] ?? null) : ((top.source as JsonValue[])[index] ?? null)
    const frame = arrayifyFrame(child)
    if (frame) stack.push(frame)
    else top.done.push(child)
  }
}

function sortableTime(value: JsonValue | undefined): string {
  if (typeof value === 'number') return String(Math.trunc(value)).padStart(25, '0')
  if (typeof value === 'string') return /^\d+$/.test(value) ? value.padStart(25, '0') : value
  return ''
}

/** Reads a flat span record (console exporter, Phoenix, Langfuse-free OTel JSON). */
function flatSpan(span: JsonObject, path: string): SpanRecord {
  const context = objectAt(span, 'context')
  const pick = (...keys: string[]): string => {
    for (const key of keys) {
      const value = key.startsWith('context.') ? (context?.[key.slice(8)] ?? span[key]) : span[key]
      if (typeof value === 'string' || typeof value === 'number') return String(value)
    }
    return ''
  }
  const attributes = span['attributes']
  const own: JsonObject = Array.isArray(attributes) ? keyValues(attributes) : isJsonObject(attributes) ? attributes : {}
  const columns = Object.entries(span).filter(([key]) => key.startsWith('attributes.'))
  const merged: JsonObject = { ...own, ...Object.fromEntries(columns.map(([key, value]) => [key.slice('attributes.'.length), value])) }
  const unflattened = unflatten(merged)
  return {
    traceId: pick('traceId', 'trace_id', 'context.trace_id', 'context.traceId'),
    spanId: pick('spanId', 'span_id', 'context.span_id', 'context.spanId', 'id'),
    name: pick('name', 'span_name'),
    start: sortableTime(span['startTimeUnixNano'] ?? span['start_time'] ?? span['startTime'] ?? span['timestamp']),
    attributes: isJsonObject(unflattened) ? unflattened : {},
    events: (arrayAt(span, 'events') ?? []).flatMap((event) => (isJsonObject(event) ? [readEvent(event)] : [])),
    path,
  }
}

/** A span event (`{name, timeUnixNano | timestamp, attributes}`) or an OTLP log record (`{eventName | attributes["event.name"], body}`). */
function readEvent(event: JsonObject): SpanEvent {
  const attributes = event['attributes']
  const own: JsonObject = Array.isArray(attributes) ? keyValues(attributes) : isJsonObject(attributes) ? attributes : {}
  const name = typeof event['name'] === 'string' ? event['name'] : typeof event['eventName'] === 'string' ? event['eventName'] : typeof own['event.name'] === 'string' ? own['event.name'] : ''
  const unflattened = unflatten(own)
  const body = event['body']
  return {
    name,
    attributes: isJsonObject(unflattened) ? unflattened : {},
    ...(body !== undefined ? { body: unflatten(isJsonObject(body) && Object.keys(body).some((key) => key.endsWith('Value')) ? anyValue(body) : body) } : {}),
    time: sortableTime(event['timeUnixNano'] ?? event['time_unix_nano'] ?? event['timestamp'] ?? event['observedTimeUnixNano']),
  }
}

/**
 * OTLP logs (`resourceLogs[].scopeLogs[].logRecords[]`): the GenAI event conventions sent as log
 * records, each naming its span by `spanId`. Grouped into one span record per span.
 */
function logSpans(value: JsonObject, path: string, out: SpanRecord[]): void {
  const bySpan = new Map<string, SpanRecord>()
  ;(arrayAt(value, 'resourceLogs') ?? []).forEach((resource, resourceIndex) => {
    ;(arrayAt(resource, 'scopeLogs') ?? []).forEach((scope, scopeIndex) => {
      ;(arrayAt(scope, 'logRecords') ?? []).forEach((record, recordIndex) => {
        if (!isJsonObject(record)) return
        const spanId = stringAt(record, 'spanId') ?? stringAt(record, 'span_id') ?? ''
        const traceId = stringAt(record, 'traceId') ?? stringAt(record, 'trace_id') ?? ''
        const event = readEvent(record)
        const key = `${traceId}/${spanId}`
        let span = bySpan.get(key)
        if (!span) {
          span = { traceId, spanId, name: '', start: event.time, attributes: {}, events: [], path: child(child(child(child(child(child(path, 'resourceLogs'), resourceIndex), 'scopeLogs'), scopeIndex), 'logRecords'), recordIndex) }
          bySpan.set(key, span)
          out.push(span)
        }
        span.events.push(event)
      })
    })
  })
  for (const span of bySpan.values()) span.events.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
}

/** All spans of a document, in file order. */
export function spansOf(document: LogDocument): SpanRecord[] {
  const spans: SpanRecord[] = []
  for (const record of recordsOf(document)) collect(record.value, record.path, spans)
  return spans
}

/** Recursive on nested arrays of the document, bounded like {@link anyValue}. */
function collect(value: JsonValue, path: string, out: SpanRecord[]): void {
  if (!isJsonObject(value)) {
    if (Array.isArray(value)) value.forEach((item, index) => collect(item, child(path, index), out))
    return
  }
  if (Array.isArray(value['resourceLogs'])) {
    logSpans(value, path, out)
    return
  }
  const resourceSpans = arrayAt(value, 'resourceSpans') ?? arrayAt(value, 'resource_spans')
  if (resourceSpans) {
    resourceSpans.forEach((resource, resourceIndex) => {
      const resourcePath = child(child(path, 'resourceSpans'), resourceIndex)
      const scopes = arrayAt(resource, 'scopeSpans') ?? arrayAt(resource, 'instrumentationLibrarySpans') ?? []
      scopes.forEach((scope, scopeIndex) => {
        const scopePath = child(child(resourcePath, 'scopeSpans'), scopeIndex)
        ;(arrayAt(scope, 'spans') ?? []).forEach((span, spanIndex) => {
          if (isJsonObject(span)) out.push(flatSpan(span, child(child(scopePath, 'spans'), spanIndex)))
        })
      })
    })
    return
  }
  const list = arrayAt(value, 'spans') ?? arrayAt(value, 'data')
  if (list) {
    const key = arrayAt(value, 'spans') ? 'spans' : 'data'
    list.forEach((item, index) => collect(item, child(child(path, key), index), out))
    return
  }
  out.push(flatSpan(value, path))
}

/** The first few spans, for detection. Bounded so detection stays cheap on big files. */
function sampleSpans(document: LogDocument): SpanRecord[] {
  const sample: LogDocument =
    document.kind === 'lines' ? { ...document, lines: document.lines.slice(0, 20) } : Array.isArray(document.value) ? { kind: 'json', value: document.value.slice(0, 50) } : document
  return spansOf(sample).slice(0, 200)
}

/** A nested attribute: `attributeAt(span, 'gen_ai', 'input', 'messages')`. */
function attributeAt(span: SpanRecord, ...keys: string[]): JsonValue | undefined {
  let node: JsonValue | undefined = span.attributes
  for (const key of keys) node = isJsonObject(node) ? node[key] : undefined
  return node
}

/** A structured attribute that may be given as JSON text. @throws BadField */
function structured(value: JsonValue | undefined, path: string): JsonValue | undefined {
  return typeof value === 'string' ? parseJsonText(value, path) : value
}

// ---------------------------------------------------------------- OTel GenAI

function readGenAiParts(message: JsonObject, path: string, out: Message[], meta: Map<number, MessageMeta>): void {
  const role = message['role']
  const partsPath = child(path, 'parts')
  const parts = expectArray(message['parts'] ?? [], partsPath, 'expParts')
  const texts: string[] = []
  const calls: ToolCall[] = []
  const responses: Message[] = []
  parts.forEach((entry, index) => {
    const partPath = child(partsPath, index)
    const part = expectObject(entry, partPath, 'expMessagePart')
    switch (part['type']) {
      case 'text':
        texts.push(asText(part['content']))
        return
      case 'tool_call': {
        const name = part['name']
        if (typeof name !== 'string') throw new BadField(child(partPath, 'name'), expectedGot('expString', describeJson(name)))
        const id = typeof part['id'] === 'string' ? part['id'] : `call_${out.length}_${calls.length}`
        const args = part['arguments']
        if (typeof args === 'string') calls.push({ id, name, arguments: readArguments(args).arguments, rawArguments: args })
        else calls.push({ id, name, arguments: isJsonObject(args) ? args : {} })
        return
      }
      case 'tool_call_response':
        responses.push({ role: 'tool', tool_call_id: typeof part['id'] === 'string' ? part['id'] : '', name: '', content: asText(part['response']) })
        return
      default:
        // reasoning, blob, uri, …: not part of the tool wiring, but keep a marker in the text.
        if (typeof part['type'] === 'string' && part['type'] !== 'reasoning') texts.push(`[${part['type']}]`)
    }
  })
  const text = texts.join('')
  if (role === 'assistant') {
    const assistant: AssistantMessage = { role: 'assistant', content: texts.length > 0 ? text : null }
    if (calls.length > 0) assistant.tool_calls = calls
    out.push(assistant)
    const reason = message['finish_reason']
    if (typeof reason === 'string') meta.set(out.length - 1, { finishReason: reason })
    return
  }
  out.push(...responses)
  if (role === 'system') out.push({ role: 'system', content: text })
  else if ((role === 'user' || (role !== 'tool' && role !== undefined)) && (texts.length > 0 || responses.length === 0)) out.push({ role: 'user', content: text })
}

function readGenAiMessages(value: JsonValue | undefined, path: string, out: Message[], meta: Map<number, MessageMeta>): void {
  if (value === undefined || value === null) return
  const list = structured(value, path)
  expectArray(list, path, 'expMessages').forEach((entry, index) => readGenAiParts(expectObject(entry, child(path, index), 'expMessage'), child(path, index), out, meta))
}

function genAiExchange(span: SpanRecord, index: number): Exchange {
  const attributesPath = child(span.path, 'attributes')
  const messages: Message[] = []
  const meta = new Map<number, MessageMeta>()
  const instructions = structured(attributeAt(span, 'gen_ai', 'system_instructions'), child(attributesPath, 'gen_ai.system_instructions'))
  if (instructions !== undefined && instructions !== null) {
    const text = Array.isArray(instructions) ? instructions.map((part) => (isJsonObject(part) ? asText(part['content']) : asText(part))).join('') : asText(instructions)
    if (text !== '') messages.push({ role: 'system', content: text })
  }
  readGenAiMessages(attributeAt(span, 'gen_ai', 'input', 'messages'), child(attributesPath, 'gen_ai.input.messages'), messages, meta)
  const requestLength = messages.length
  readGenAiMessages(attributeAt(span, 'gen_ai', 'output', 'messages'), child(attributesPath, 'gen_ai.output.messages'), messages, meta)
  const reasons = attributeAt(span, 'gen_ai', 'response', 'finish_reasons')
  const last = messages.length - 1
  if (last >= requestLength && messages[last]?.role === 'assistant' && !meta.has(last) && Array.isArray(reasons) && typeof reasons[0] === 'string') meta.set(last, { finishReason: reasons[0] })
  fillToolNames(messages)
  const definitions = structured(attributeAt(span, 'gen_ai', 'tool', 'definitions'), child(attributesPath, 'gen_ai.tool.definitions'))
  const tools = definitions === undefined || definitions === null ? undefined : toToolSpecs(definitions, child(attributesPath, 'gen_ai.tool.definitions'))
  return spanExchange(span, index, messages, requestLength, meta, tools, child(attributesPath, 'gen_ai.input.messages'))
}

/** The conventions a GenAI span records its messages in: current attributes, older events, or Traceloop's indexed attributes. */
function genAiStyle(span: SpanRecord): 'messages' | 'events' | 'indexed' | undefined {
  if (attributeAt(span, 'gen_ai', 'input', 'messages') !== undefined || attributeAt(span, 'gen_ai', 'output', 'messages') !== undefined) return 'messages'
  if (span.events.some((event) => GENAI_EVENTS.has(event.name))) return 'events'
  const prompt = attributeAt(span, 'gen_ai', 'prompt') ?? attributeAt(span, 'llm', 'prompts')
  const completion = attributeAt(span, 'gen_ai', 'completion') ?? attributeAt(span, 'llm', 'completions')
  if (Array.isArray(prompt) || Array.isArray(completion)) return 'indexed'
  return undefined
}

function isGenAiSpan(span: SpanRecord): boolean {
  return genAiStyle(span) !== undefined
}

function genAiAnyExchange(span: SpanRecord, index: number): Exchange {
  const style = genAiStyle(span)
  return style === 'events' ? genAiEventsExchange(span, index) : style === 'indexed' ? indexedExchange(span, index) : genAiExchange(span, index)
}

// ---------------------------------------------------------------- OTel GenAI events (older conventions)

/**
 * Event names of the GenAI event conventions before v1.37 (semantic-conventions
 * `gen-ai-events.md`): one event per message, `gen_ai.choice` per completion choice; and the
 * v1.26 pair `gen_ai.content.prompt` / `gen_ai.content.completion` with the messages as JSON text.
 */
const GENAI_EVENTS: ReadonlySet<string> = new Set([
  'gen_ai.system.message',
  'gen_ai.user.message',
  'gen_ai.assistant.message',
  'gen_ai.tool.message',
  'gen_ai.choice',
  'gen_ai.content.prompt',
  'gen_ai.content.completion',
])

/** An event's fields: its log body when it has one, over its attributes. */
function eventFields(event: SpanEvent): JsonObject {
  return { ...event.attributes, ...(isJsonObject(event.body) ? event.body : event.body !== undefined ? { content: event.body } : {}) }
}

/** A GenAI event message body (`{content, tool_calls: [{id, type, function: {name, arguments}}], id}`) as an OpenAI message. */
function eventMessage(role: string, fields: JsonObject, path: string): JsonObject {
  const message: JsonObject = { role, content: structuredContent(fields['content']) }
  const calls = structured(fields['tool_calls'], child(path, 'tool_calls'))
  if (Array.isArray(calls)) message['tool_calls'] = calls.map(openaiCall)
  if (role === 'tool') message['tool_call_id'] = fields['id'] ?? fields['tool_call_id'] ?? ''
  return message
}

/** Content as OpenAI reads it: text, null, or parts; anything else as JSON text. */
function contentOf(value: JsonValue | undefined): JsonValue {
  if (value === undefined || value === null || typeof value === 'string') return value ?? null
  if (Array.isArray(value) && value.every((part) => typeof part === 'string' || isJsonObject(part))) return value
  return JSON.stringify(value)
}

/** A tool call in OpenAI shape from `{id, type?, function: {name, arguments}}` or the flat `{id, name, arguments}`. */
function openaiCall(call: JsonValue): JsonValue {
  if (!isJsonObject(call)) return call
  const fn = objectAt(call, 'function') ?? call
  const args = fn['arguments']
  return { id: call['id'] ?? null, type: 'function', function: { name: fn['name'] ?? null, arguments: typeof args === 'string' || args === undefined || args === null ? (args ?? null) : JSON.stringify(args) } }
}

function genAiEventsExchange(span: SpanRecord, index: number): Exchange {
  const eventsPath = child(span.path, 'events')
  const request: JsonValue[] = []
  const response: JsonValue[] = []
  const reasons = new Map<number, string>()
  span.events.forEach((event, at) => {
    const path = child(eventsPath, at)
    const fields = eventFields(event)
    switch (event.name) {
      case 'gen_ai.system.message':
      case 'gen_ai.user.message':
      case 'gen_ai.assistant.message':
      case 'gen_ai.tool.message': {
        const role = typeof fields['role'] === 'string' ? fields['role'] : event.name.slice('gen_ai.'.length, -'.message'.length)
        request.push(eventMessage(role, fields, path))
        return
      }
      case 'gen_ai.choice': {
        const message = objectAt(fields, 'message') ?? (isJsonObject(structured(fields['message'], child(path, 'message'))) ? (structured(fields['message'], child(path, 'message')) as JsonObject) : fields)
        response.push(eventMessage('assistant', message, child(path, 'message')))
        if (typeof fields['finish_reason'] === 'string') reasons.set(response.length - 1, fields['finish_reason'])
        return
      }
      case 'gen_ai.content.prompt': {
        const prompt = structured(fields['gen_ai.prompt'] ?? objectAt(fields, 'gen_ai')?.['prompt'], child(path, 'gen_ai.prompt'))
        if (Array.isArray(prompt)) request.push(...prompt)
        return
      }
      case 'gen_ai.content.completion': {
        const completion = structured(fields['gen_ai.completion'] ?? objectAt(fields, 'gen_ai')?.['completion'], child(path, 'gen_ai.completion'))
        for (const item of Array.isArray(completion) ? completion : []) {
          const message = objectAt(item, 'message') ?? (isJsonObject(item) ? item : {})
          response.push({ ...message, role: 'assistant', ...(Array.isArray(message['tool_calls']) ? { tool_calls: message['tool_calls'].map(openaiCall) } : {}) })
          const reason = isJsonObject(item) ? item['finish_reason'] : undefined
          if (typeof reason === 'string') reasons.set(response.length - 1, reason)
        }
        return
      }
      default:
    }
  })
  // Only the first choice is the one a client continues with.
  const reply = response.slice(0, 1)
  const read = readOpenAIMessages([...request, ...reply], eventsPath)
  const meta = new Map<number, MessageMeta>()
  const reason = reasons.get(0) ?? firstReason(attributeAt(span, 'gen_ai', 'response', 'finish_reasons'))
  if (reply.length > 0 && reason !== undefined) meta.set(request.length, { finishReason: reason })
  return spanExchange(span, index, read.messages, request.length, meta, functionsOf(span), eventsPath)
}

function firstReason(value: JsonValue | undefined): string | undefined {
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined
}

// ---------------------------------------------------------------- Traceloop / OpenLLMetry

/**
 * Traceloop / OpenLLMetry attributes: `gen_ai.prompt.N.role` / `.content` / `.tool_call_id` /
 * `.tool_calls.M.id|name|arguments`, the same under `gen_ai.completion.N` (plus
 * `.finish_reason`, and the legacy `.function_call`), older spans' `llm.prompts.N` /
 * `llm.completions.N`, and tool definitions as `llm.request.functions.N.name|description|parameters`.
 */
function indexedExchange(span: SpanRecord, index: number): Exchange {
  const attributesPath = child(span.path, 'attributes')
  const promptKey = attributeAt(span, 'gen_ai', 'prompt') !== undefined ? 'gen_ai.prompt' : 'llm.prompts'
  const completionKey = attributeAt(span, 'gen_ai', 'completion') !== undefined ? 'gen_ai.completion' : 'llm.completions'
  const prompt = promptKey === 'gen_ai.prompt' ? attributeAt(span, 'gen_ai', 'prompt') : attributeAt(span, 'llm', 'prompts')
  const completion = completionKey === 'gen_ai.completion' ? attributeAt(span, 'gen_ai', 'completion') : attributeAt(span, 'llm', 'completions')
  const request = (Array.isArray(prompt) ? prompt : []).map((item, at) => indexedMessage(item, child(child(attributesPath, promptKey), at), 'user'))
  const choices = Array.isArray(completion) ? completion : []
  const reply = choices.slice(0, 1).map((item) => indexedMessage(item, child(child(attributesPath, completionKey), 0), 'assistant'))
  const read = readOpenAIMessages([...request, ...reply], child(attributesPath, promptKey))
  const meta = new Map<number, MessageMeta>()
  const reason = stringAt(choices[0], 'finish_reason') ?? firstReason(attributeAt(span, 'gen_ai', 'response', 'finish_reasons'))
  if (reply.length > 0 && reason !== undefined) meta.set(request.length, { finishReason: reason })
  return spanExchange(span, index, read.messages, request.length, meta, functionsOf(span), child(attributesPath, promptKey))
}

function indexedMessage(item: JsonValue, path: string, fallbackRole: string): JsonObject {
  const fields = isJsonObject(item) ? item : {}
  const role = typeof fields['role'] === 'string' ? fields['role'] : fallbackRole
  const content = structuredContent(fields['content'])
  const message: JsonObject = { role, content }
  const calls = Array.isArray(fields['tool_calls']) ? fields['tool_calls'] : isJsonObject(fields['function_call']) ? [{ id: `call_${path}`, function: fields['function_call'] }] : undefined
  if (calls) message['tool_calls'] = calls.map(openaiCall)
  if (role === 'tool') message['tool_call_id'] = fields['tool_call_id'] ?? fields['id'] ?? ''
  return message
}

/** Traceloop stores block content (Anthropic, multimodal OpenAI) as JSON text; read it as parts when it is. */
function structuredContent(value: JsonValue | undefined): JsonValue {
  if (typeof value === 'string' && value.startsWith('[')) {
    try {
      const parsed = JSON.parse(value) as JsonValue
      if (Array.isArray(parsed) && parsed.every(isJsonObject)) return parsed
    } catch {
      // Plain text that happens to start with a bracket.
    }
  }
  return contentOf(value)
}

/** Tool definitions: `gen_ai.tool.definitions`, or Traceloop's `llm.request.functions.N`. */
function functionsOf(span: SpanRecord): Exchange['tools'] {
  const attributesPath = child(span.path, 'attributes')
  const definitions = structured(attributeAt(span, 'gen_ai', 'tool', 'definitions'), child(attributesPath, 'gen_ai.tool.definitions'))
  if (Array.isArray(definitions)) return toToolSpecs(definitions, child(attributesPath, 'gen_ai.tool.definitions'))
  const functions = attributeAt(span, 'llm', 'request', 'functions')
  if (!Array.isArray(functions)) return undefined
  const path = child(attributesPath, 'llm.request.functions')
  return toToolSpecs(
    functions.map((item, at) => (isJsonObject(item) ? { ...item, parameters: structured(item['parameters'], child(child(path, at), 'parameters')) ?? null } : item)),
    path,
  )
}

// ---------------------------------------------------------------- OpenInference

/** OpenInference message (`{message: {role, content, tool_calls: [{tool_call: …}]}}` after unflattening) → OpenAI message shape. */
function openInferenceToOpenAI(entry: JsonValue): JsonValue {
  const message = objectAt(entry, 'message') ?? (isJsonObject(entry) ? entry : {})
  const contents = arrayAt(message, 'contents')
  const content = message['content'] ?? (contents ? contents.map((item) => ({ type: 'text', text: stringAt(objectAt(item, 'message_content'), 'text') ?? '' })) : null)
  const calls = arrayAt(message, 'tool_calls')
  const converted: JsonObject = { role: message['role'] ?? null, content }
  if (calls) {
    converted['tool_calls'] = calls.map((item) => {
      const call = objectAt(item, 'tool_call') ?? (isJsonObject(item) ? item : {})
      const fn = objectAt(call, 'function') ?? {}
      return { id: call['id'] ?? null, type: 'function', function: { name: fn['name'] ?? null, arguments: fn['arguments'] ?? null } }
    })
  }
  if (message['tool_call_id'] !== undefined) converted['tool_call_id'] = message['tool_call_id']
  if (typeof message['name'] === 'string') converted['name'] = message['name']
  return converted
}

function openInferenceExchange(span: SpanRecord, index: number): Exchange {
  const attributesPath = child(span.path, 'attributes')
  const inputPath = child(attributesPath, 'llm.input_messages')
  const input = attributeAt(span, 'llm', 'input_messages')
  const output = attributeAt(span, 'llm', 'output_messages')
  const request = readOpenAIMessages((input === undefined ? [] : expectArray(structured(input, inputPath), inputPath, 'expMessages')).map(openInferenceToOpenAI), inputPath)
  const outputPath = child(attributesPath, 'llm.output_messages')
  const response = readOpenAIMessages((output === undefined ? [] : expectArray(structured(output, outputPath), outputPath, 'expMessages')).map(openInferenceToOpenAI), outputPath)
  const messages = [...request.messages, ...response.messages]
  fillToolNames(messages)
  const toolList = attributeAt(span, 'llm', 'tools')
  let tools: Exchange['tools']
  if (Array.isArray(toolList)) {
    const toolsPath = child(attributesPath, 'llm.tools')
    tools = toToolSpecs(
      toolList.map((item, at) => {
        const schema = objectAt(item, 'tool')?.['json_schema']
        return structured(schema, child(child(toolsPath, at), 'tool.json_schema')) ?? null
      }),
      toolsPath,
    )
  }
  return spanExchange(span, index, messages, request.messages.length, new Map(), tools, inputPath)
}

function isOpenInferenceSpan(span: SpanRecord): boolean {
  return attributeAt(span, 'llm', 'input_messages') !== undefined || attributeAt(span, 'llm', 'output_messages') !== undefined
}

// ---------------------------------------------------------------- shared

function spanExchange(span: SpanRecord, index: number, messages: Message[], requestLength: number, messageMeta: Map<number, MessageMeta>, tools: Exchange['tools'], path: string): Exchange {
  const trace = span.traceId || String(index)
  return {
    messages,
    requestLength,
    messageMeta,
    tools,
    id: trace,
    ...labelled(span.name ? tracePhrase('labelNamed', { head: tracePhrase('labelTrace', { trace: trace.slice(0, 12) }), name: span.name }) : tracePhrase('labelTrace', { trace: trace.slice(0, 12) })),
    path,
    meta: { traceId: span.traceId, spanId: span.spanId, name: span.name },
  }
}

function* readSpans(document: LogDocument, isModelCall: (span: SpanRecord) => boolean, read: (span: SpanRecord, index: number) => Exchange) {
  const spans = spansOf(document)
    .filter(isModelCall)
    .map((span, order) => ({ span, order }))
    // Stable by start time; spans without one keep file order.
    .sort((a, b) => (a.span.start < b.span.start ? -1 : a.span.start > b.span.start ? 1 : a.order - b.order))
  if (spans.length === 0) throw new BadField('', tracePhrase('fieldNoModelSpan'))
  yield* readJoined(
    spans.map(({ span }, index) => ({ value: null, path: span.path, index })),
    (_value, _path, index) => read(spans[index]!.span, index),
  )
}

function detectSpans(document: LogDocument, isModelCall: (span: SpanRecord) => boolean, what: Phrase) {
  const sample = sampleSpans(document)
  const calls = sample.filter(isModelCall).length
  if (calls === 0) return undefined
  const container = tracePhrase(document.kind === 'json' && isJsonObject(document.value) && 'resourceSpans' in document.value ? 'containerOtlp' : document.kind === 'lines' ? 'containerJsonl' : 'containerList')
  return { confidence: 0.9, ...recognised('recogSpans', { what, container, calls: plural(calls, 'ModelCallSpan'), spans: plural(sample.length, 'Span') }) }
}

export const otelGenAiImporter: Importer = {
  id: 'otel-genai',
  title: 'OpenTelemetry GenAI spans',
  detect: (document) => {
    const style = sampleSpans(document).map(genAiStyle).find((found) => found !== undefined)
    const what = tracePhrase(style === 'events' ? 'whatGenAiEvents' : style === 'indexed' ? 'whatTraceloop' : 'whatGenAi')
    return detectSpans(document, isGenAiSpan, what)
  },
  read: (document) => readSpans(document, isGenAiSpan, genAiAnyExchange),
}

export const openInferenceImporter: Importer = {
  id: 'openinference',
  title: 'OpenInference spans',
  detect: (document) => detectSpans(document, isOpenInferenceSpan, tracePhrase('whatOpenInference')),
  read: (document) => readSpans(document, isOpenInferenceSpan, openInferenceExchange),
}
