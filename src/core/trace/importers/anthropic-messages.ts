/**
 * `anthropic-messages`: Anthropic Messages API logs. Source: the Messages API reference and
 * its tool-use guide: a request `{model, system?, messages, tools?}` where `system` is a string
 * or text blocks, `messages[].role` is `user` or `assistant`, content is a string or blocks
 * (`text`, `image`, `tool_use {id, name, input}`, `tool_result {tool_use_id, content, is_error?}`
 * where `content` is a string or blocks, `thinking`); a response `{type: 'message', role:
 * 'assistant', content, stop_reason}`. Tool results come back batched in one user message.
 *
 * Shapes read: a request, a request/response pair (`{request, response}` or `{…request,
 * response}`), a lone response, a bare messages array, a list of any of these, or JSONL
 * (lines extending one conversation are joined).
 *
 * Canonical form: each `tool_result` becomes a `tool` message (in block order, `is_error` →
 * `isError`), text beside results becomes a user message after them; `system` becomes a leading
 * system message; `thinking` blocks are dropped. `tool_use.input` is kept as the arguments
 * object (no `rawArguments`, since the wire had no string), unless a logger stored it as a
 * string, which is then read like an OpenAI arguments string.
 * `stop_reason: "refusal"` is kept as the turn's refusal; an error body as its provider error.
 *
 * Pure.
 */
import type { AssistantMessage, JsonValue, Message, ToolCall } from '../../messages'
import { describeJson, isJsonObject, readArguments } from '../arguments'
import { BadField, child, fillToolNames, toToolSpecs } from '../openai-log'
import { arrayAt, expectArray, expectObject, expectString, firstRecord, keyList, labelled, messageStyle, naming, objectAt, plural, recordsOf, scalars, type JsonObject } from './shared'
import { streamError } from './openai-stream'
import { readJoined, type Exchange } from './threads'
import type { Importer, ImportStep, LogDocument, MessageMeta } from './types'
import { expectedGot, orList, recognised, tracePhrase } from '../trace-text'
import type { Phrase } from '../../util/phrase'


/** Text of a string-or-blocks content; non-text blocks are shown as `[type]` so nothing is silently lost. */
function blockText(value: JsonValue | undefined, path: string): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  return expectArray(value, path, 'expStringOrBlocks')
    .map((block, index) => {
      const item = expectObject(block, child(path, index), 'expContentBlock')
      return typeof item['text'] === 'string' ? item['text'] : `[${typeof item['type'] === 'string' ? item['type'] : 'block'}]`
    })
    .join('')
}

/** The system prompt: a string or text blocks. */
function readSystem(value: JsonValue | undefined, path: string): Message[] {
  if (value === undefined || value === null) return []
  const text = blockText(value, path)
  return text === '' ? [] : [{ role: 'system', content: text }]
}

/**
 * Convert Anthropic messages (at `path`) into canonical messages.
 *
 * @throws BadField for a message or block of the wrong shape.
 */
export function readAnthropicMessages(value: JsonValue | undefined, path: string): Message[] {
  const out: Message[] = []
  expectArray(value, path, 'expMessages').forEach((item, index) => {
    const messagePath = child(path, index)
    const message = expectObject(item, messagePath, 'expMessage')
    out.push(...readAnthropicMessage(message, messagePath))
  })
  fillToolNames(out)
  return out
}

function readAnthropicMessage(message: JsonObject, path: string): Message[] {
  const role = message['role']
  if (role !== 'user' && role !== 'assistant') {
    throw new BadField(child(path, 'role'), expectedGot(orList(['"user"', '"assistant"']), role === undefined ? tracePhrase('gotNoRole') : JSON.stringify(role)))
  }
  const content = message['content']
  const contentPath = child(path, 'content')
  if (typeof content === 'string') return [role === 'user' ? { role: 'user', content } : { role: 'assistant', content }]
  const blocks = expectArray(content ?? [], contentPath, 'expStringOrBlocks')
  if (role === 'assistant') {
    const texts: string[] = []
    const calls: ToolCall[] = []
    blocks.forEach((block, index) => {
      const blockPath = child(contentPath, index)
      const item = expectObject(block, blockPath, 'expContentBlock')
      if (item['type'] === 'tool_use') calls.push(readToolUse(item, blockPath))
      else if (item['type'] === 'text') texts.push(expectString(item['text'], child(blockPath, 'text')))
    })
    const assistant: AssistantMessage = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null }
    if (calls.length > 0) assistant.tool_calls = calls
    return [assistant]
  }
  const results: Message[] = []
  const texts: string[] = []
  blocks.forEach((block, index) => {
    const blockPath = child(contentPath, index)
    const item = expectObject(block, blockPath, 'expContentBlock')
    if (item['type'] === 'tool_result') {
      const id = expectString(item['tool_use_id'], child(blockPath, 'tool_use_id'))
      results.push({ role: 'tool', tool_call_id: id, name: '', content: blockText(item['content'], child(blockPath, 'content')), ...(item['is_error'] === true ? { isError: true } : {}) })
    } else if (typeof item['text'] === 'string') {
      texts.push(item['text'])
    } else {
      texts.push(`[${typeof item['type'] === 'string' ? item['type'] : 'block'}]`)
    }
  })
  return texts.length > 0 ? [...results, { role: 'user', content: texts.join('') }] : results
}

function readToolUse(block: JsonObject, path: string): ToolCall {
  const id = expectString(block['id'], child(path, 'id'))
  const name = expectString(block['name'], child(path, 'name'))
  const input = block['input']
  if (typeof input === 'string') return { id, name, arguments: readArguments(input).arguments, rawArguments: input }
  if (input === undefined || input === null) return { id, name, arguments: {} }
  if (!isJsonObject(input)) throw new BadField(child(path, 'input'), expectedGot('expObject', describeJson(input)))
  return { id, name, arguments: input }
}

/** A lone response object: `{type: 'message', role: 'assistant', content: [...]}`. */
function isResponse(value: JsonValue | undefined): value is JsonObject {
  return isJsonObject(value) && value['role'] === 'assistant' && Array.isArray(value['content']) && (value['type'] === 'message' || 'stop_reason' in value)
}

/** The request of a record: `request.body`, `request`, `body` or the record, the first with `messages`. */
function requestOf(record: JsonObject, path: string): { value: JsonObject; path: string } | undefined {
  const request = objectAt(record, 'request')
  const candidates: [JsonObject | undefined, string][] = [
    [objectAt(request, 'body'), child(child(path, 'request'), 'body')],
    [request, child(path, 'request')],
    [objectAt(record, 'body'), child(path, 'body')],
    [record, path],
  ]
  for (const [value, at] of candidates) if (value && 'messages' in value) return { value, path: at }
  return undefined
}

function responseOf(record: JsonObject, path: string): { value: JsonObject; path: string } | undefined {
  const response = objectAt(record, 'response')
  const body = objectAt(response, 'body')
  if (isResponse(body)) return { value: body, path: child(child(path, 'response'), 'body') }
  if (isResponse(response)) return { value: response, path: child(path, 'response') }
  if (isResponse(record)) return { value: record, path }
  // A logged error body (`{"type": "error", "error": {…}}`) answers the request: the turn failed.
  if (isJsonObject(response) && response['type'] === 'error') return { value: response, path: child(path, 'response') }
  return undefined
}

/**
 * Reads one record (a request, a response, a pair, or a messages array) as an exchange.
 *
 * @throws BadField naming the path where reading stopped.
 */
export function readAnthropicExchange(record: JsonValue, path: string, index: number): Exchange {
  if (Array.isArray(record)) {
    const messages = readAnthropicMessages(record, path)
    return { messages, requestLength: messages.length, messageMeta: new Map(), id: String(index), ...labelled(tracePhrase('labelConversation', { index })), path, meta: {} }
  }
  const object = expectObject(record, path, 'expAnthropicRecord')
  const request = requestOf(object, path)
  const response = responseOf(object, path)
  if (!request && !response) throw new BadField(path, tracePhrase('fieldExpectedFound', { what: tracePhrase('expAnthropicKeys'), keys: keyList(object) }))
  const messages: Message[] = []
  let messagesPath = path
  let tools: Exchange['tools']
  if (request) {
    messages.push(...readSystem(request.value['system'], child(request.path, 'system')))
    messagesPath = child(request.path, 'messages')
    messages.push(...readAnthropicMessages(request.value['messages'], messagesPath))
    const toolsValue = request.value['tools']
    if (toolsValue !== undefined && toolsValue !== null) tools = toToolSpecs(toolsValue, child(request.path, 'tools'))
  }
  const requestLength = messages.length
  const messageMeta = new Map<number, MessageMeta>()
  if (response && response.value !== request?.value) {
    const failure = streamError(response.value)
    messages.push(...(isResponse(response.value) ? readAnthropicMessage(response.value, response.path) : [{ role: 'assistant', content: null } as const]))
    const reason = response.value['stop_reason']
    const assistant = messages[requestLength]
    const meta: MessageMeta = {
      ...(typeof reason === 'string' ? { finishReason: reason } : {}),
      ...(reason === 'refusal' ? { refusal: (assistant?.role === 'assistant' ? assistant.content : null) || 'the model refused (stop_reason "refusal")' } : {}),
      ...(failure !== undefined ? { providerError: failure } : {}),
      ...(request ? { offeredTools: (tools ?? []).map((tool) => tool.name) } : {}),
    }
    if (Object.keys(meta).length > 0) messageMeta.set(requestLength, meta)
    fillToolNames(messages)
  }
  return { messages, requestLength, messageMeta, tools, ...naming(object, index), path: messagesPath, meta: scalars(object) }
}

/** Anthropic marks: blocks, a top-level `system`, `input_schema` tools, `stop_reason`. */
function anthropicMarks(value: JsonValue | undefined): { confidence: number; what: Phrase } | undefined {
  if (Array.isArray(value)) {
    const style = messageStyle(value)
    return style.anthropic ? { confidence: 0.9, what: tracePhrase('whatBlocksArray') } : undefined
  }
  if (!isJsonObject(value)) return undefined
  const response = responseOf(value, '')
  const request = requestOf(value, '')
  const messages = arrayAt(request?.value, 'messages')
  const style = messageStyle(messages ?? [])
  const tools = arrayAt(request?.value, 'tools')
  const anthropicTools = isJsonObject(tools?.[0]) && 'input_schema' in tools[0]
  const what = tracePhrase(request && response ? 'whatPair' : request ? 'whatRequest' : 'whatResponse')
  if (style.anthropic || anthropicTools) return { confidence: 0.9, what: tracePhrase('whatWithBlocks', { what }) }
  if (response && !request) return { confidence: 0.85, what }
  if (request && (style.vercel || style.responses || style.otel || style.openai)) return undefined
  // A top-level system prompt, or a response with stop_reason, is Anthropic's shape, not OpenAI's.
  if (request && ('system' in request.value || response)) return { confidence: 0.7, what }
  return undefined
}

export const anthropicMessagesImporter: Importer = {
  id: 'anthropic-messages',
  title: 'Anthropic Messages',
  detect(document) {
    const whole = isMessagesArray(document)
    const marks = anthropicMarks(whole ? (document as { value: JsonValue }).value : firstRecord(document))
    if (!marks) return undefined
    const count = document.kind === 'lines' ? plural(document.lines.length, 'Line') : Array.isArray(document.value) && !whole ? plural(document.value.length, 'Record') : undefined
    return { confidence: marks.confidence, ...(count ? recognised('recogAnthropicCounted', { what: marks.what, n: count }) : recognised('recogAnthropic', { what: marks.what })) }
  },
  *read(document: LogDocument): Generator<ImportStep, void, void> {
    const records = recordsOf(document, isMessagesArray(document))
    yield* readJoined(records, readAnthropicExchange)
  },
}

/** A top-level array is one conversation when it holds messages, a list of records otherwise. */
function isMessagesArray(document: LogDocument): boolean {
  if (document.kind !== 'json' || !Array.isArray(document.value)) return false
  const first = document.value[0]
  return isJsonObject(first) && 'role' in first && !isResponse(first)
}
