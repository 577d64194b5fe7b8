/**
 * `anthropic-stream`: a streamed Anthropic Messages response, as the server-sent event body
 * (`event:` + `data:` lines) or one event per line. Source: Anthropic's "Streaming Messages"
 * guide: `message_start {message}`, then per content block `content_block_start {index,
 * content_block}`, `content_block_delta {index, delta}` (`text_delta {text}`,
 * `input_json_delta {partial_json}`, `thinking_delta`, `signature_delta`, `citations_delta`) and
 * `content_block_stop`, then `message_delta {delta: {stop_reason, stop_sequence}, usage}` and
 * `message_stop`; `ping` may come anywhere; an `error {error: {type, message}}` event can end
 * the stream early.
 *
 * The events are assembled into the message the non-streamed API would have returned, and
 * read like one (`anthropic-messages.ts`). A tool_use block's input is its `partial_json`
 * fragments joined and parsed; none, or only `""`, means `{}`; JSON cut short (a stream that
 * stopped at `max_tokens` mid-call) is kept as the raw text, so the cut shows.
 *
 * Pure; linear in the number of events.
 */
import type { JsonValue } from '../../messages'
import { describeJson, isJsonObject } from '../arguments'
import { BadField } from '../openai-log'
import { readAnthropicExchange } from './anthropic-messages'
import { streamError } from './openai-stream'
import { conversationOf, labelled, plural, recordsOf, type JsonObject, carrierOf } from './shared'
import type { Importer, ImportStep, LogDocument } from './types'
import { expectedGot, recognised, tracePhrase } from '../trace-text'

/** Event types of an Anthropic message stream. */
const EVENT_TYPES: ReadonlySet<string> = new Set(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'ping'])

/** True when a value is one event of an Anthropic message stream. */
export function isAnthropicEvent(value: JsonValue | undefined): boolean {
  return isJsonObject(value) && typeof value['type'] === 'string' && EVENT_TYPES.has(value['type'])
}

interface BlockDraft {
  block: JsonObject
  text: string[]
  json: string[]
  thinking: string[]
}

/**
 * Assemble stream events (each at `path`) into the message object the non-streamed API returns:
 * `{id, type: 'message', role: 'assistant', model, content, stop_reason, usage}`, plus `error`
 * (`{type, message}`) when an error event ended the stream.
 *
 * @throws BadField for an event that is not an object.
 */
export function assembleAnthropicStream(events: readonly { value: JsonValue; path: string }[]): JsonObject {
  let message: JsonObject = { type: 'message', role: 'assistant', content: [], stop_reason: null }
  const blocks: BlockDraft[] = []
  let error: JsonValue | undefined
  for (const { value, path } of events) {
    if (!isJsonObject(value)) throw new BadField(path, expectedGot('expStreamEvent', describeJson(value)))
    const index = typeof value['index'] === 'number' ? value['index'] : blocks.length - 1
    switch (value['type']) {
      case 'message_start':
        if (isJsonObject(value['message'])) message = { ...message, ...value['message'] }
        break
      case 'content_block_start': {
        const block = isJsonObject(value['content_block']) ? value['content_block'] : { type: 'text', text: '' }
        blocks[index] = { block: { ...block }, text: [], json: [], thinking: [] }
        break
      }
      case 'content_block_delta': {
        const draft = (blocks[index] ??= { block: { type: 'text', text: '' }, text: [], json: [], thinking: [] })
        const delta = isJsonObject(value['delta']) ? value['delta'] : {}
        if (typeof delta['text'] === 'string') draft.text.push(delta['text'])
        if (typeof delta['partial_json'] === 'string') draft.json.push(delta['partial_json'])
        if (typeof delta['thinking'] === 'string') draft.thinking.push(delta['thinking'])
        break
      }
      case 'message_delta': {
        const delta = isJsonObject(value['delta']) ? value['delta'] : {}
        message = { ...message, ...delta, ...(value['usage'] !== undefined ? { usage: value['usage'] } : {}) }
        break
      }
      case 'error':
        error = value['error'] ?? value
        break
      default:
        // ping, content_block_stop, message_stop, and event types added later carry nothing to assemble.
        if (streamError(value) !== undefined) error = value['error']
    }
  }
  const content = blocks.filter((draft): draft is BlockDraft => draft !== undefined).map(finishBlock)
  return { ...message, content, ...(error !== undefined ? { error } : {}) }
}

function finishBlock(draft: BlockDraft): JsonObject {
  const { block } = draft
  if (block['type'] === 'text') return { ...block, text: (typeof block['text'] === 'string' ? block['text'] : '') + draft.text.join('') }
  if (block['type'] === 'thinking') return { ...block, thinking: draft.thinking.join('') }
  if (block['type'] === 'tool_use' || block['type'] === 'server_tool_use') {
    const json = draft.json.join('')
    if (json.trim() === '') return { ...block, input: isJsonObject(block['input']) ? block['input'] : {} }
    try {
      return { ...block, input: JSON.parse(json) as JsonValue }
    } catch {
      // Cut short: keep the text so the reader reports the broken arguments instead of hiding them.
      return { ...block, input: json }
    }
  }
  return block
}

/** The events of a document: JSONL or SSE lines, or a JSON array of events. */
function eventsOf(document: LogDocument): { value: JsonValue; path: string }[] {
  return recordsOf(document)
}

export const anthropicStreamImporter: Importer = {
  id: 'anthropic-stream',
  title: 'Anthropic Messages stream',
  detect(document) {
    const sample = document.kind === 'lines' ? document.lines.slice(0, 5).map((line) => line.value) : Array.isArray(document.value) ? document.value.slice(0, 5) : []
    if (!sample.some((value) => isJsonObject(value) && value['type'] === 'message_start') && !(sample.length > 0 && sample.every(isAnthropicEvent))) return undefined
    const count = document.kind === 'lines' ? document.lines.length : sample.length
    return { confidence: 0.95, ...recognised('recogAnthropicStream', { events: plural(count, 'Event'), carrier: carrierOf(document) }) }
  },
  *read(document): Generator<ImportStep, void, void> {
    const body = assembleAnthropicStream(eventsOf(document))
    const exchange = readAnthropicExchange({ response: body }, '', 0)
    const id = typeof body['id'] === 'string' ? body['id'] : '0'
    yield { conversation: conversationOf({ ...exchange, id, ...labelled(tracePhrase('labelStreamed', { head: id })) }), fraction: 1 }
  },
}
