/**
 * OpenAI Chat Completions logs. Source: the Chat Completions API reference (request
 * `messages` / `tools`; response `choices[].message` and `choices[].finish_reason`) and the
 * Batch API's JSONL (`{custom_id, body}` requests, `{custom_id, response: {body}}` results).
 *
 * - `openai-messages`: one conversation: a bare `messages` array, a request `{messages, tools?}`,
 *   a request/response pair (`{request, response}`, with optional `.body` wrappers as gateways
 *   write them, or `{messages, response}`), or a lone `chat.completion` response;
 * - `openai-conversations`: a JSON array of conversations: records with `messages` or `traj`
 *   (τ-bench), bare messages arrays, or request/response pairs (pairs that extend one another
 *   are joined, see `threads.ts`);
 * - `openai-jsonl`: one record of any of those shapes per line, as gateways and loggers write
 *   them; lines extending the same conversation are joined.
 *
 * Pure.
 */
import type { JsonValue } from '../../messages'
import { describeJson, isJsonObject } from '../arguments'
import { BadField, child, fillToolNames, readOpenAIMessage, readOpenAIMessages, toToolSpecs } from '../openai-log'
import { assembleChunks, completionMeta, streamError } from './openai-stream'
import { arrayAt, conversationOf, firstRecord, keyList, labelled, messageStyle, naming, objectAt, plural, recordsOf, scalars, type JsonObject, type LogRecord } from './shared'
import { readJoined, type Exchange } from './threads'
import type { Detection, ImportedConversation, Importer, ImportStep, LogDocument, MessageMeta } from './types'
import { expectedGot, recognised, tracePhrase } from '../trace-text'

type Located<T> = { value: T; path: string }

/** The request object of a record: itself, `request`, `request.body` or `body`, the first holding `messages` or `traj`. */
function requestOf(record: JsonObject, path: string): Located<JsonObject> | undefined {
  const request = objectAt(record, 'request')
  const candidates: [JsonObject | undefined, string][] = [
    [objectAt(request, 'body'), child(child(path, 'request'), 'body')],
    [request, child(path, 'request')],
    [objectAt(record, 'body'), child(path, 'body')],
    [record, path],
  ]
  for (const [value, at] of candidates) if (value && ('messages' in value || 'traj' in value)) return { value, path: at }
  return undefined
}

/** The response of a record: `response.body`, `response` or the record itself when it has `choices`; or `response` as a chunk array. */
function responseOf(record: JsonObject, path: string): Located<JsonValue> | undefined {
  const response = record['response']
  if (Array.isArray(response)) return { value: response, path: child(path, 'response') }
  const body = objectAt(response ?? null, 'body')
  if (body && 'choices' in body) return { value: body, path: child(child(path, 'response'), 'body') }
  if (isJsonObject(response) && 'choices' in response) return { value: response, path: child(path, 'response') }
  if ('choices' in record) return { value: record, path }
  // A logged error body answers the request too (the turn failed).
  if (isJsonObject(response) && isJsonObject(response['error'])) return { value: response, path: child(path, 'response') }
  return undefined
}

/** True for a record that carries a model response (a pair, a completion, a batch result). */
function hasResponse(value: JsonValue | undefined): boolean {
  return isJsonObject(value) && responseOf(value, '') !== undefined
}

/** The messages array a record holds, for detection. */
function messagesOf(value: JsonValue | undefined): JsonValue[] | undefined {
  if (Array.isArray(value)) return value
  if (!isJsonObject(value)) return undefined
  const request = requestOf(value, '')
  return arrayAt(request?.value, 'messages') ?? arrayAt(request?.value, 'traj')
}

/** Confidence that a messages array is OpenAI-shaped: other dialects' marks lower it so their importers win. */
function openaiConfidence(messages: readonly JsonValue[] | undefined, base: number): number | undefined {
  if (!messages) return undefined
  const style = messageStyle(messages)
  if (messages.length > 0 && style.roles === 0) return undefined
  if (style.anthropic || style.vercel || style.responses || style.otel) return 0.35
  return style.openai ? Math.min(1, base + 0.1) : base
}

/**
 * Reads one record as an exchange: the request's messages and the response's message.
 *
 * @throws BadField naming the path where reading stopped.
 */
export function readChatExchange(record: JsonValue, path: string, index: number): Exchange {
  if (Array.isArray(record)) {
    const { messages, finishReasons } = readOpenAIMessages(record, path)
    return { messages, requestLength: messages.length, messageMeta: metaOf(finishReasons), id: String(index), ...labelled(tracePhrase('labelConversation', { index })), path, meta: {} }
  }
  if (!isJsonObject(record)) throw new BadField(path, expectedGot('expConversation', describeJson(record)))
  const request = requestOf(record, path)
  const response = responseOf(record, path)
  if (!request && !response) throw new BadField(path, tracePhrase('fieldExpectedFound', { what: tracePhrase('expChatKeys'), keys: keyList(record) }))
  let messagesPath = path
  let requestMessages: ReturnType<typeof readOpenAIMessages> = { messages: [], finishReasons: new Map() }
  let tools: Exchange['tools']
  if (request) {
    const key = Array.isArray(request.value['messages']) || !('traj' in request.value) ? 'messages' : 'traj'
    messagesPath = child(request.path, key)
    requestMessages = readOpenAIMessages(request.value[key], messagesPath)
    const toolsValue = request.value['tools']
    if (toolsValue !== undefined && toolsValue !== null) tools = toToolSpecs(toolsValue, child(request.path, 'tools'))
  }
  const messages = requestMessages.messages
  const messageMeta = metaOf(requestMessages.finishReasons)
  const requestLength = messages.length
  if (response) {
    const reply = readResponse(response.value, response.path, requestLength)
    if (reply) {
      messages.push(reply.message)
      const meta: MessageMeta = { ...reply.meta, ...(request ? { offeredTools: (tools ?? []).map((tool) => tool.name) } : {}) }
      if (Object.keys(meta).length > 0) messageMeta.set(requestLength, meta)
      fillToolNames(messages)
    }
  }
  const responseId = isJsonObject(response?.value) ? response.value['id'] : undefined
  const named = naming(typeof record['id'] === 'string' || typeof record['custom_id'] === 'string' || typeof responseId !== 'string' ? record : { ...record, id: responseId }, index)
  return { messages, requestLength, messageMeta, tools, ...named, path: messagesPath, meta: scalars(record) }
}

/** The assistant message of a response (`choices[0]`), or of a streamed response, with what the log said about it. */
function readResponse(value: JsonValue, path: string, index: number): { message: ReturnType<typeof readOpenAIMessage>; meta: MessageMeta } | undefined {
  if (Array.isArray(value)) {
    const completion = assembleChunks(value.map((chunk, at) => ({ value: chunk, path: child(path, at) })))[0]
    return completion && { message: completion.message, meta: completionMeta(completion) }
  }
  const failure = streamError(value)
  const choices = arrayAt(value, 'choices')
  // An error body (`{"error": {...}}`) is the answer to the request: the turn failed.
  if (!choices && failure !== undefined) return { message: { role: 'assistant', content: null }, meta: { providerError: failure } }
  if (!choices) throw new BadField(child(path, 'choices'), expectedGot('expChoices', describeJson(isJsonObject(value) ? value['choices'] : value)))
  const choice = choices[0]
  if (choice === undefined) return undefined
  const choicePath = child(child(path, 'choices'), 0)
  if (!isJsonObject(choice)) throw new BadField(choicePath, expectedGot('expChoice', describeJson(choice)))
  const message = readOpenAIMessage(choice['message'] ?? null, child(choicePath, 'message'), index)
  const reason = choice['finish_reason']
  const refusal = objectAt(choice, 'message')?.['refusal']
  if (typeof refusal === 'string' && refusal !== '' && message.role === 'assistant' && (message.content ?? '') === '') message.content = refusal
  return {
    message,
    meta: {
      ...(typeof reason === 'string' ? { finishReason: reason } : {}),
      ...(typeof refusal === 'string' && refusal !== '' ? { refusal } : {}),
      ...(failure !== undefined ? { providerError: failure } : {}),
    },
  }
}

function metaOf(finishReasons: Map<number, string>): Map<number, MessageMeta> {
  return new Map([...finishReasons].map(([index, finishReason]) => [index, { finishReason }]))
}

function toConversation(exchange: Exchange): ImportedConversation {
  return conversationOf(exchange)
}

/** Reads records one by one, or collects them and joins the exchanges that extend each other. */
function* readRecords(records: readonly LogRecord[], join: boolean): Generator<ImportStep, void, void> {
  if (!join) {
    for (const record of records) yield { conversation: toConversation(readChatExchange(record.value, record.path, record.index)), fraction: (record.index + 1) / records.length }
    return
  }
  yield* readJoined(records, readChatExchange)
}

export const openaiMessagesImporter: Importer = {
  id: 'openai-messages',
  title: 'OpenAI Chat Completions conversation',
  detect(document): Detection | undefined {
    if (document.kind !== 'json') return undefined
    const { value } = document
    if (Array.isArray(value)) {
      const first = value[0]
      if (!isJsonObject(first) || !('role' in first)) return undefined
      const confidence = openaiConfidence(value, 0.8)
      return confidence === undefined ? undefined : { confidence, ...recognised('recogChatMessages', { messages: plural(value.length, 'Message') }) }
    }
    if (!isJsonObject(value)) return undefined
    const request = requestOf(value, '')
    const paired = hasResponse(value)
    if (!request && !paired) return undefined
    let confidence = request ? openaiConfidence(arrayAt(request.value, 'messages') ?? [], 0.8) : 0.8
    if (confidence === undefined) return undefined
    // A top-level system prompt is Anthropic's request shape, not OpenAI's.
    if (request && 'system' in request.value) confidence = Math.min(confidence, 0.5)
    return { confidence, ...recognised(request && paired ? 'recogChatPair' : request ? 'recogChatRequest' : 'recogChatResponse') }
  },
  read(document) {
    if (document.kind !== 'json') throw new BadField('', expectedGot('expOneJsonValue', tracePhrase('gotJsonLines')))
    return readRecords([{ value: document.value, path: '', index: 0 }], false)
  },
}

export const openaiConversationsImporter: Importer = {
  id: 'openai-conversations',
  title: 'list of OpenAI Chat Completions conversations',
  detect(document) {
    if (document.kind !== 'json' || !Array.isArray(document.value)) return undefined
    const count = document.value.length
    const first = document.value[0]
    if (Array.isArray(first)) {
      const confidence = openaiConfidence(first, 0.8)
      return confidence === undefined ? undefined : { confidence, ...recognised('recogChatLists', { conversations: plural(count, 'Conversation') }) }
    }
    if (isJsonObject(first)) {
      // Keyed on presence, not type, so a record whose `traj` is broken gets an error with its path.
      const key = 'traj' in first ? 'traj' : 'messages' in first ? 'messages' : undefined
      if (key) return { confidence: openaiConfidence(messagesOf(first) ?? [], 0.8) ?? 0.35, ...recognised('recogChatRecords', { conversations: plural(count, 'Conversation'), key }) }
      if (requestOf(first, '') || hasResponse(first)) return { confidence: openaiConfidence(messagesOf(first) ?? [], 0.8) ?? 0.35, ...recognised('recogChatPairs', { pairs: plural(count, 'Pair') }) }
    }
    // Only useful when forced: say how the file was taken, then fail with the path of the first misfit.
    return { confidence: 0.1, ...recognised('recogChatItems', { n: count, count }) }
  },
  read(document) {
    if (document.kind !== 'json' || !Array.isArray(document.value)) throw new BadField('', expectedGot('expConversations', document.kind === 'json' ? describeJson(document.value) : tracePhrase('gotJsonLines')))
    return readRecords(recordsOf(document), hasResponse(document.value[0]))
  },
}

export const openaiJsonlImporter: Importer = {
  id: 'openai-jsonl',
  title: 'OpenAI Chat Completions JSONL log',
  detect(document) {
    if (document.kind !== 'lines') return undefined
    const first = firstRecord(document)
    const messages = messagesOf(first)
    if (!messages && !hasResponse(first)) return undefined
    const confidence = openaiConfidence(messages ?? [], 0.85)
    if (confidence === undefined) return undefined
    const what = tracePhrase(hasResponse(first) ? (messages ? 'whatPairs' : 'whatResponses') : 'whatRequests')
    return { confidence, ...recognised('recogChatJsonl', { lines: plural(document.lines.length, 'Line'), what }) }
  },
  read(document: LogDocument) {
    return readRecords(recordsOf(document), true)
  },
}
