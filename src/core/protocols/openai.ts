/**
 * `openai`: the native OpenAI Chat Completions assistant message,
 * `{"role": "assistant", "content": …, "tool_calls": [{"id", "type": "function", "function": {"name", "arguments"}}]}`,
 * serialised as JSON. `arguments` is a JSON string, which models get wrong in practice.
 */
import { readJson, scanJsonValues, type JsonSpanNode } from '../json'
import type { JsonValue } from '../messages'
import { isJsonObject, readCallObject, type CallReading } from './shared/call-object'
import { renderInstructions } from './shared/instructions'
import { ParseBuilder } from './shared/parse-builder'
import { toOpenAIAssistant, writeOpenAIAssistant } from '../wire/openai-chat'
import { defineMarkers, scanOutput, searchWindow, detectionReason } from './shared/detect'
import { OpenAiScanner } from './stream/openai-scanner'
import type { FormatDetection, ParseResult, ParsedCall, Protocol, Repair, Span, UnreadCall } from './types'
import { nested, parseSaid } from '../util/parse-text'

/** Keys that make a leading JSON object an assistant message. */
const MESSAGE_KEYS = /"(tool_calls|function_call)"\s*:|"role"\s*:\s*"assistant"/
const [FUNCTION_KEY] = defineMarkers('"function"')
const MESSAGE_FIRST_KEY = /^\{\s*"(?:role|content|tool_calls|function_call|refusal|id|object|index|audio|annotations|reasoning_content|reasoning|message|finish_reason|type)"/
const XLAM_HEAD = /^\{\s*"tool_calls"\s*:\s*\[\s*\{\s*"name"\s*:/
/** `[{"type": "function", "function": …` (optionally led by an id): a `tool_calls` array. */
const TOOL_CALLS_ARRAY = /\[\s*\{\s*(?:"id"\s*:\s*"[^"\\]{0,128}"\s*,\s*)?"type"\s*:\s*"function"\s*,/g

/**
 * A JSON object at the start of the output with message keys in its first 2 KB, or a
 * `tool_calls`-shaped array in prose. Bounded searches only.
 */
function detect(raw: string, before?: number): FormatDetection | undefined {
  const scan = scanOutput(raw)
  const limit = before ?? Number.POSITIVE_INFINITY
  if (scan.start < limit && scan.view.charCodeAt(scan.start) === 0x7b) {
    const head = scan.view.slice(scan.start, scan.start + 2048)
    // Anthropic messages have the role too (and score higher when their content is typed blocks).
    // xLAM's {"tool_calls": [{"name", "arguments"}]} is a json call list, not a message.
    if (XLAM_HEAD.test(head)) return undefined
    // A message starts with one of its own keys; a call object ({"tool": …}) is ruled out at once.
    if (!MESSAGE_FIRST_KEY.test(head)) return undefined
    const keys = MESSAGE_KEYS.exec(head)
    const confidence = keys === null ? 0 : keys[1] !== undefined || /"(?:tool_calls|function_call)"\s*:/.test(head) ? 0.95 : 0.9
    if (confidence > 0) return { at: scan.start, confidence, ...detectionReason('detectOpenaiMessage') }
  }
  // Unbounded, the shared scan would read the whole output; one native search settles most outputs
  // (for the key without its opening quote: quotes are frequent in JSON, an `f` followed by `unction"` is not).
  if (before === undefined && !scan.view.includes(FUNCTION_KEY.slice(1))) return undefined
  const key = scan.first(FUNCTION_KEY, limit + 200)
  if (key < 0 || key >= limit + 200) return undefined
  // One regex object for every call (compiling a copy per output cost as much as the search).
  const pattern = TOOL_CALLS_ARRAY
  pattern.lastIndex = Math.max(0, key - 200)
  const match = pattern.exec(searchWindow(scan.view, before))
  if (!match || match.index >= limit) return undefined
  return { at: match.index, confidence: 0.8, ...detectionReason('detectOpenaiToolCalls', { at: match.index }) }
}

function member(node: JsonSpanNode | undefined, key: string): JsonSpanNode | undefined {
  const members = node?.members ?? []
  for (let index = members.length - 1; index >= 0; index--) if (members[index]?.key === key) return members[index]?.value
  return undefined
}

/** Visible text of a `content` field: a string, or the text parts of a content array. */
function contentText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content.trim()
  if (!Array.isArray(content)) return ''
  return content
    .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n')
    .trim()
}

/** True when `value` is shaped like a native assistant message (not just any JSON). */
export function isOpenAiMessage(value: JsonValue): boolean {
  if (!isJsonObject(value)) return false
  if (Array.isArray(value.tool_calls) || isJsonObject(value.function_call)) return true
  return value.role === 'assistant' && Object.hasOwn(value, 'content')
}

/** True for `{"type": "function", "function": {…}}`, an entry of `tool_calls`. */
function isToolCallEntry(value: JsonValue): boolean {
  return isJsonObject(value) && value.type === 'function' && isJsonObject(value.function)
}

/**
 * Output that is not a message: `tool_calls` arrays (`[{"type": "function", "function": {…}}]`)
 * written into prose are still OpenAI calls; everything else is text.
 */
function parseToolCallArrays(raw: string): ParseResult {
  const builder = new ParseBuilder(raw, 'openai')
  // A value without keys holds no tool_calls entry: passed over unbuilt.
  scanJsonValues(builder.view, { spanDepth: 4, skipKeyless: true }, (value) => {
    if (!Array.isArray(value.value) || value.value.length === 0 || !value.value.every(isToolCallEntry)) return
    value.value.forEach((entry, index) => {
      const reading = readCallObject(raw, entry, value.spans.items?.[index], 'wrapped', true)
      if (reading.kind === 'call') {
        builder.addCall(reading.call)
        builder.repairs.push(...reading.repairs)
      } else if (reading.kind === 'error') builder.addError(reading.error.code, reading.error, reading.error.span)
    })
    for (const repair of value.repairs) builder.addRepair(repair.code, repair, repair.span)
    builder.consume(value.start, value.end)
  })
  return builder.result()
}

/**
 * The call a `tool_calls` entry still names when only its arguments string failed to read: its
 * id, name and the string as sent, with the defect. Undefined for other failures.
 */
function unreadCall(entry: JsonValue, index: number, reading: Extract<CallReading, { kind: 'error' }>): UnreadCall | undefined {
  if (!isJsonObject(entry) || reading.defect === undefined || reading.name === undefined) return undefined
  const fn = entry.function
  const rawArguments = isJsonObject(fn) ? fn.arguments : undefined
  if (typeof rawArguments !== 'string') return undefined
  const id = typeof entry.id === 'string' && entry.id !== '' ? entry.id : undefined
  return { index, ...(id === undefined ? {} : { id }), name: reading.name, rawArguments, cutOff: reading.defect.kind === 'cut_off', problem: reading.defect.message }
}

/**
 * Parses a native OpenAI assistant message. Empty `arguments` (`""`) mean `{}`; invalid ones are
 * repaired leniently; double-encoded ones are decoded; cut-off ones are a `truncated` error and
 * no call, the error carrying the call's id, name and arguments as an {@link UnreadCall}. Spans point at the name and the arguments string inside the raw JSON. Output that is
 * not such a message is all text. Pure; never throws; linear in `raw.length`.
 */
export function parseOpenAi(raw: string, readContent?: (text: string) => ParseResult): ParseResult {
  const builder = new ParseBuilder(raw, 'openai')
  const read = readJson(raw, 0, { spanDepth: 4 })
  const rest = read.ok ? raw.slice(read.end).trim() : ''
  if (!read.ok || rest !== '' || !isOpenAiMessage(read.value) || !isJsonObject(read.value)) {
    if (!read.ok && /"tool_calls"\s*:/.test(raw.slice(0, 4096)) && raw.trimStart().startsWith('{')) {
      builder.addError(read.error.code === 'truncated' ? 'truncated' : 'invalid_json', () => parseSaid('openaiMessageInvalid', { problem: nested(read.error) }), { start: read.error.offset, end: read.error.offset })
      return { protocol: 'openai', calls: [], text: '', repairs: [], errors: builder.errors }
    }
    return parseToolCallArrays(raw)
  }
  const message = read.value
  for (const repair of read.repairs) builder.addRepair(repair.code, repair, repair.span)
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : []
  const callsNode = member(read.spans, 'tool_calls')
  toolCalls.forEach((entry, index) => {
    const node = callsNode?.items?.[index]
    const reading = readCallObject(raw, entry, node, 'wrapped', true)
    if (reading.kind === 'call') {
      builder.addCall(reading.call)
      for (const repair of reading.repairs) builder.repairs.push(repair)
    } else if (reading.kind === 'error') {
      const id = isJsonObject(entry) && typeof entry.id === 'string' ? ` (${entry.id})` : ''
      const message = reading.name !== undefined ? reading.error.message.replace(`"${reading.name}"`, `"${reading.name}"${id}`) : reading.error.message
      // The id is spliced into the English only; the phrase names the call by its tool.
      const error = builder.addError(reading.error.code, { message, phrase: reading.error.phrase }, reading.error.span)
      const unread = unreadCall(entry, index, reading)
      if (unread && error) error.call = unread
    } else {
      builder.addError('missing_name', () => parseSaid('openaiNoName', { index }), node?.span)
    }
  })
  // The legacy single call of the Chat Completions API before `tool_calls` (2023).
  if (toolCalls.length === 0 && isJsonObject(message.function_call)) {
    const reading = readCallObject(raw, message.function_call, member(read.spans, 'function_call'), 'wrapped', true)
    if (reading.kind === 'call') {
      builder.addCall(reading.call)
      builder.repairs.push(...reading.repairs)
    } else if (reading.kind === 'error') builder.addError(reading.error.code, reading.error, reading.error.span)
  }
  const text = contentText(message.content)
  if (builder.calls.length === 0 && builder.errors.length === 0 && readContent && typeof message.content === 'string' && text !== '') {
    const inContent = readCallsInContent(raw, message.content, member(read.spans, 'content'), readContent)
    if (inContent) {
      builder.repairs.push(...inContent.repairs)
      return { protocol: 'openai', calls: inContent.calls, text: inContent.text, repairs: builder.repairs, errors: inContent.errors }
    }
  }
  return { protocol: 'openai', calls: builder.calls, text, repairs: builder.repairs, errors: builder.errors }
}

/**
 * Offsets into `raw` of each UTF-16 unit of the JSON string literal at `span` (quotes included),
 * plus one for the end: decoded text offsets map back to the raw output through it.
 */
function decodedOffsets(raw: string, span: Span): number[] {
  const offsets: number[] = []
  for (let i = span.start + 1; i < span.end - 1; ) {
    offsets.push(i)
    if (raw.charCodeAt(i) !== 0x5c) i++
    else i += raw.charCodeAt(i + 1) === 0x75 ? 6 : 2
  }
  offsets.push(span.end - 1)
  return offsets
}

/**
 * `tool_calls` empty or missing while the content holds calls in a text format (what vLLM
 * returns when its tool parser missed them): the content is read by the text formats, spans are
 * mapped back into the raw message, and a repair says so.
 */
function readCallsInContent(raw: string, content: string, node: JsonSpanNode | undefined, readContent: (text: string) => ParseResult): ParseResult | undefined {
  const inner = readContent(content)
  if (inner.calls.length === 0 && inner.errors.length === 0) return undefined
  const offsets = node ? decodedOffsets(raw, node.span) : undefined
  // A lenient string (raw newlines, unknown escapes) may decode to a different length: then spans point at the whole content.
  const exact = offsets !== undefined && offsets.length === content.length + 1
  const map = (span: Span): Span => (exact ? { start: offsets[span.start] ?? span.start, end: offsets[span.end] ?? span.end } : (node?.span ?? span))
  const calls = inner.calls.map((call) => {
    const spans: ParsedCall['spans'] = { call: map(call.spans.call) }
    if (call.spans.name) spans.name = map(call.spans.name)
    if (call.spans.arguments) spans.arguments = map(call.spans.arguments)
    return { ...call, spans }
  })
  const repairs: Repair[] = [
    { code: 'calls_in_content', ...parseSaid('callsInContent', { count: calls.length, protocol: inner.protocol }), ...(node ? { span: node.span } : {}) },
    ...inner.repairs.map((repair) => (repair.span ? { ...repair, span: map(repair.span) } : repair)),
  ]
  const errors = inner.errors.map((error) => (error.span ? { ...error, span: map(error.span) } : error))
  return { protocol: 'openai', calls, text: inner.text, repairs, errors }
}

/**
 * `openai` protocol: a native assistant message with `tool_calls`, serialised as JSON.
 *
 * @param readContent reads calls written in a text format into `content` when `tool_calls` is
 *   empty (the registry passes `auto` over the text formats)
 */
export const createOpenAi = (readContent?: (text: string) => ParseResult): Protocol => ({
  id: 'openai',
  label: 'OpenAI tool_calls (native)',
  description: 'Native assistant message with tool_calls; arguments are a JSON string.',
  native: true,
  parse: (raw) => parseOpenAi(raw, readContent),
  detect,
  createScanner: () => new OpenAiScanner(),
  instructions: (tools) =>
    renderInstructions(
      tools,
      [
        'Call tools through the API\'s native tool calling: an assistant message with "tool_calls".',
        'Each call has an "id", "type": "function" and "function": {"name", "arguments"}, where "arguments" is a JSON-encoded string.',
        'Each result comes back as a "tool" message whose "tool_call_id" is the call\'s id.',
      ],
      (name, args) => writeOpenAIAssistant(toOpenAIAssistant(null, [{ id: 'call_1', name, arguments: args }])),
    ),
  example: JSON.stringify(toOpenAIAssistant(null, [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }])),
  render: ({ text, calls }) => writeOpenAIAssistant(toOpenAIAssistant(text || null, calls.map((call, i) => ({ id: call.id ?? `call_${i + 1}`, name: call.name, arguments: call.arguments })))),
})
