/**
 * `openai-responses`: OpenAI Responses API logs. Source: the Responses API reference
 * ("Create a model response": `instructions`, `input` as a string or items, `tools`;
 * response `output` items, `status`, `incomplete_details.reason`) and the function-calling
 * guide. Items read: `message` (`role`, `content` as a string or `input_text` /
 * `output_text` parts; the `type` may be omitted on input messages), `function_call`
 * (`call_id`, `name`, `arguments` as a JSON string) and `function_call_output`
 * (`call_id`, `output` as a string or parts). `reasoning` and other items are skipped.
 *
 * Shapes: a request `{input, instructions?, tools?}`, a response `{output}`, both in one
 * object, a `{request, response}` pair, a bare item array, a list of those, or JSONL (lines
 * extending one conversation are joined). Consecutive assistant text and function calls
 * form one assistant turn; `call_id` pairs calls with outputs.
 *
 * Pure.
 */
import type { AssistantMessage, JsonValue, Message } from '../../messages'
import { describeJson, isJsonObject, readArguments } from '../arguments'
import { BadField, child, fillToolNames, toToolSpecs } from '../openai-log'
import { streamError } from './openai-stream'
import { arrayAt, asText, expectArray, expectObject, expectString, firstRecord, keyList, labelHead, labelled, messageStyle, naming, objectAt, plural, recordsOf, scalars, stringAt, type JsonObject } from './shared'
import { readJoined, type Exchange } from './threads'
import type { Importer, ImportStep, LogDocument, MessageMeta } from './types'
import { expectedGot, orList, recognised, tracePhrase } from '../trace-text'

function partsText(value: JsonValue | undefined, path: string, refusals?: string[]): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  return expectArray(value, path, 'expStringOrContentParts')
    .map((part, index) => {
      const item = expectObject(part, child(path, index), 'expContentPart')
      if (typeof item['text'] === 'string') return item['text']
      if (typeof item['refusal'] === 'string') {
        refusals?.push(item['refusal'])
        return item['refusal']
      }
      return `[${typeof item['type'] === 'string' ? item['type'] : 'part'}]`
    })
    .join('')
}

/**
 * Convert Responses API items (at `path`) into canonical messages, appending to `out`.
 *
 * @param refusals - Collects the text of assistant `refusal` parts, when given.
 * @returns The index in `out` of the last assistant message, or -1.
 * @throws BadField for an item of the wrong shape.
 */
export function readResponseItems(value: JsonValue | undefined, path: string, out: Message[], refusals?: string[]): number {
  if (typeof value === 'string') {
    out.push({ role: 'user', content: value })
    return -1
  }
  let lastAssistant = -1
  // The open assistant turn that later text or calls join; closed by any other message.
  let turn: AssistantMessage | undefined
  const openTurn = (): AssistantMessage => {
    if (!turn) {
      turn = { role: 'assistant', content: null }
      out.push(turn)
      lastAssistant = out.length - 1
    }
    return turn
  }
  expectArray(value, path, 'expItems').forEach((entry, index) => {
    const itemPath = child(path, index)
    const item = expectObject(entry, itemPath, 'expItem')
    const type = item['type'] ?? (typeof item['role'] === 'string' ? 'message' : undefined)
    switch (type) {
      case 'message': {
        const role = item['role']
        const text = partsText(item['content'], child(itemPath, 'content'), role === 'assistant' ? refusals : undefined)
        if (role === 'assistant') {
          const assistant = openTurn()
          // Text after a call in the same turn is still that turn's text.
          assistant.content = (assistant.content ?? '') + text
          return
        }
        if (role !== 'user' && role !== 'system' && role !== 'developer') throw new BadField(child(itemPath, 'role'), expectedGot(orList(['"user"', '"assistant"', '"system"', '"developer"']), JSON.stringify(role ?? null)))
        turn = undefined
        out.push(role === 'user' ? { role: 'user', content: text } : { role: 'system', content: text })
        return
      }
      case 'function_call': {
        const callId = expectString(item['call_id'] ?? item['id'], child(itemPath, 'call_id'))
        const name = expectString(item['name'], child(itemPath, 'name'))
        const args = item['arguments']
        const assistant = openTurn()
        const raw = typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args)
        if (args !== undefined && args !== null && typeof args !== 'string' && !isJsonObject(args)) throw new BadField(child(itemPath, 'arguments'), expectedGot('expJsonString', describeJson(args)))
        ;(assistant.tool_calls ??= []).push({ id: callId, name, arguments: isJsonObject(args) ? args : readArguments(raw).arguments, rawArguments: raw })
        return
      }
      case 'function_call_output': {
        turn = undefined
        const callId = expectString(item['call_id'], child(itemPath, 'call_id'))
        out.push({ role: 'tool', tool_call_id: callId, name: '', content: partsText(typeof item['output'] === 'string' || Array.isArray(item['output']) ? item['output'] : asText(item['output']), child(itemPath, 'output')) })
        return
      }
      default:
        // reasoning, web_search_call, … are not part of the tool loop's wiring.
        return
    }
  })
  return lastAssistant
}

function requestOf(record: JsonObject, path: string): { value: JsonObject; path: string } | undefined {
  const request = objectAt(record, 'request')
  const candidates: [JsonObject | undefined, string][] = [
    [objectAt(request, 'body'), child(child(path, 'request'), 'body')],
    [request, child(path, 'request')],
    [record, path],
  ]
  for (const [value, at] of candidates) if (value && 'input' in value) return { value, path: at }
  return undefined
}

function responseOf(record: JsonObject, path: string): { value: JsonObject; path: string } | undefined {
  const response = objectAt(record, 'response')
  const body = objectAt(response, 'body')
  if (body && 'output' in body) return { value: body, path: child(child(path, 'response'), 'body') }
  if (response && 'output' in response) return { value: response, path: child(path, 'response') }
  if ('output' in record) return { value: record, path }
  return undefined
}

/**
 * Reads one record (a request, a response, both, a pair, or an item array) as an exchange.
 * `chain` maps response ids to the exchanges read so far, so a request that names a
 * `previous_response_id` (stored conversation state: it sends only the new items) starts with
 * that response's whole conversation.
 *
 * @throws BadField naming the path where reading stopped.
 */
export function readResponsesExchange(record: JsonValue, path: string, index: number, chain?: Map<string, Exchange>): Exchange {
  const messages: Message[] = []
  if (Array.isArray(record)) {
    readResponseItems(inputOrder(record), path, messages)
    fillToolNames(messages)
    return { messages, requestLength: messages.length, messageMeta: new Map(), id: String(index), ...labelled(tracePhrase('labelConversation', { index })), path, meta: {} }
  }
  const object = expectObject(record, path, 'expResponsesRecord')
  if (isItemList(object)) {
    readResponseItems(inputOrder(object['data'] as JsonValue[]), child(path, 'data'), messages)
    fillToolNames(messages)
    return { messages, requestLength: messages.length, messageMeta: new Map(), ...naming({ id: object['first_id'] ?? null }, index), path: child(path, 'data'), meta: {} }
  }
  const request = requestOf(object, path)
  const response = responseOf(object, path)
  if (!request && !response) throw new BadField(path, tracePhrase('fieldExpectedFound', { what: tracePhrase('expResponsesKeys'), keys: keyList(object) }))
  let tools: Exchange['tools']
  let messagesPath = path
  const messageMeta = new Map<number, MessageMeta>()
  let parent: Exchange | undefined
  if (request) {
    const previous = request.value['previous_response_id']
    parent = typeof previous === 'string' ? chain?.get(previous) : undefined
    if (parent) {
      messages.push(...parent.messages)
      for (const [at, meta] of parent.messageMeta) messageMeta.set(at, meta)
    }
    const instructions = request.value['instructions']
    // Instructions are not carried over by previous_response_id, so a chained request repeats them.
    const repeated = parent !== undefined && messages[0]?.role === 'system' && messages[0].content === instructions
    if (typeof instructions === 'string' && instructions !== '' && !repeated) messages.push({ role: 'system', content: instructions })
    messagesPath = child(request.path, 'input')
    readResponseItems(request.value['input'], messagesPath, messages)
    const toolsValue = request.value['tools']
    // Built-in tools (web_search, file_search, …) have no name or schema; only functions are tool definitions.
    // (Paths in errors then count only function tools.)
    if (Array.isArray(toolsValue)) tools = toToolSpecs(toolsValue.filter((tool) => !isJsonObject(tool) || tool['type'] === undefined || tool['type'] === 'function'), child(request.path, 'tools'))
  }
  const requestLength = messages.length
  if (response) {
    const refusals: string[] = []
    let last = readResponseItems(response.value['output'], child(response.path, 'output'), messages, refusals)
    const failure = responseError(response.value)
    if (last < requestLength && failure !== undefined) {
      // The call failed before any output: the failed turn still is a turn, holding the error.
      messages.push({ role: 'assistant', content: null })
      last = messages.length - 1
    }
    const reason = stringReason(response.value)
    const meta: MessageMeta = {
      ...(reason !== undefined ? { finishReason: reason } : {}),
      ...(refusals.length > 0 ? { refusal: refusals.join('') } : {}),
      ...(failure !== undefined ? { providerError: failure } : {}),
      ...(request ? { offeredTools: (tools ?? []).map((tool) => tool.name) } : {}),
    }
    if (last >= requestLength && Object.keys(meta).length > 0) messageMeta.set(last, meta)
  }
  fillToolNames(messages)
  const responseId = stringAt(response?.value, 'id')
  const exchange: Exchange = { messages, requestLength, messageMeta, tools: tools ?? parent?.tools, ...(parent ? { id: parent.id, ...labelled(labelHead(parent)) } : naming(object, index)), path: messagesPath, meta: scalars(object) }
  if (responseId !== undefined) chain?.set(responseId, exchange)
  return exchange
}

/** The error a response reports (`error.message`, with its `code`), when it failed. */
function responseError(response: JsonObject): string | undefined {
  return response['error'] === null || response['error'] === undefined ? undefined : streamError(response)
}

/** The Responses API's input-items list object: `{object: 'list', data: [...], first_id, last_id, has_more}`. */
function isItemList(value: JsonValue | undefined): value is JsonObject {
  if (!isJsonObject(value) || value['object'] !== 'list' || !Array.isArray(value['data'])) return false
  const first = value['data'][0]
  // Other list endpoints (models, files) hold objects with an `object` of their own; items have a `type`.
  return first === undefined ? 'first_id' in value : isJsonObject(first) && typeof first['type'] === 'string' && first['object'] === undefined
}

/**
 * Items in conversation order. The input-items endpoint lists newest first by default
 * (`order=desc`); a list where some `function_call_output` comes before its `function_call`
 * can only be in that order, so it is reversed.
 */
function inputOrder(items: readonly JsonValue[]): JsonValue[] {
  const calls = new Map<string, number>()
  const outputs = new Map<string, number>()
  items.forEach((item, index) => {
    const callId = stringAt(item, 'call_id')
    if (callId === undefined) return
    if (stringAt(item, 'type') === 'function_call') calls.set(callId, index)
    if (stringAt(item, 'type') === 'function_call_output') outputs.set(callId, index)
  })
  for (const [callId, at] of outputs) {
    const callAt = calls.get(callId)
    if (callAt !== undefined && callAt > at) return [...items].reverse()
  }
  return [...items]
}

/** `incomplete_details.reason` (e.g. `max_output_tokens`) when the response is incomplete, else its `status`. */
function stringReason(response: JsonObject): string | undefined {
  const reason = objectAt(response, 'incomplete_details')?.['reason']
  if (typeof reason === 'string') return reason
  return typeof response['status'] === 'string' ? response['status'] : undefined
}

function itemsOf(value: JsonValue | undefined): JsonValue[] | undefined {
  if (Array.isArray(value)) return value
  if (isItemList(value)) return value['data'] as JsonValue[]
  if (!isJsonObject(value)) return undefined
  const request = requestOf(value, '')
  const response = responseOf(value, '')
  const input = arrayAt(request?.value, 'input') ?? []
  const output = arrayAt(response?.value, 'output') ?? []
  return request || response ? [...input.slice(0, 100), ...output.slice(0, 100)] : undefined
}

function isItemArray(document: LogDocument): boolean {
  if (document.kind !== 'json' || !Array.isArray(document.value)) return false
  const first = document.value[0]
  return isJsonObject(first) && (typeof first['type'] === 'string' || 'role' in first)
}

export const openaiResponsesImporter: Importer = {
  id: 'openai-responses',
  title: 'OpenAI Responses API',
  detect(document) {
    const whole = isItemArray(document)
    const sample = whole ? (document as { value: JsonValue }).value : firstRecord(document)
    const items = itemsOf(sample)
    if (!items) return undefined
    const style = messageStyle(items)
    const object = isJsonObject(sample) ? sample : undefined
    const marked = style.responses || isItemList(sample) || (object !== undefined && (object['object'] === 'response' || (requestOf(object, '') !== undefined && !Array.isArray(object['messages']))))
    if (!marked || style.anthropic || style.vercel) return undefined
    const count = document.kind === 'lines' ? plural(document.lines.length, 'Line') : !whole && document.kind === 'json' && Array.isArray(document.value) ? plural(document.value.length, 'Record') : undefined
    const what = tracePhrase(whole ? 'whatItemArray' : isItemList(sample) ? 'whatInputItems' : object && requestOf(object, '') && responseOf(object, '') ? 'whatRequestResponse' : object && responseOf(object, '') ? 'whatResponse' : 'whatRequest')
    return { confidence: style.responses ? 0.9 : 0.7, ...(count ? recognised('recogResponsesCounted', { what, n: count }) : recognised('recogResponses', { what })) }
  },
  *read(document): Generator<ImportStep, void, void> {
    const records = recordsOf(document, isItemArray(document) || (document.kind === 'json' && isItemList(document.value)))
    const chain = new Map<string, Exchange>()
    yield* readJoined(records, (value, path, index) => readResponsesExchange(value, path, index, chain))
  },
}
