/**
 * `openai-responses-stream`: a streamed OpenAI Responses API response, as the server-sent event
 * body (`event:` + `data:` lines, no `[DONE]`) or one event per line. Source: the Responses API
 * reference, "Streaming events": `response.created` / `.in_progress` / `.completed` /
 * `.incomplete` / `.failed` (each with the `response` so far), `response.output_item.added` /
 * `.done` (`output_index`, `item`), `response.content_part.added` / `.done`,
 * `response.output_text.delta` / `.done`, `response.refusal.delta` / `.done`,
 * `response.function_call_arguments.delta` / `.done` (`output_index`, `delta` / `arguments`),
 * and `error` (`code`, `message`, or nested in `error`).
 *
 * The events are assembled into the response the non-streamed API returns and read like one
 * (`openai-responses.ts`): the terminal event's `output` when it has one, else the items as
 * rebuilt from the deltas (a stream cut short keeps what arrived). Unknown event types are skipped.
 *
 * Pure; linear in the number of events.
 */
import type { JsonValue } from '../../messages'
import { describeJson, isJsonObject } from '../arguments'
import { BadField } from '../openai-log'
import { readResponsesExchange } from './openai-responses'
import { conversationOf, labelled, plural, recordsOf, type JsonObject, carrierOf } from './shared'
import type { Importer, ImportStep } from './types'
import { expectedGot, recognised, tracePhrase } from '../trace-text'

/** True when a value is one event of a Responses stream. */
export function isResponsesEvent(value: JsonValue | undefined): boolean {
  return isJsonObject(value) && typeof value['type'] === 'string' && value['type'].startsWith('response.')
}

interface ItemDraft {
  item: JsonObject
  /** Text of each content part, by `content_index`. */
  parts: { part: JsonObject; text: string[] }[]
  arguments: string[]
  /** Set once a `.done` event gave the final item. */
  final: boolean
}

/**
 * Assemble Responses stream events (each at `path`) into a response object `{id, object:
 * 'response', status, output, error, incomplete_details, …}`.
 *
 * @throws BadField for an event that is not an object.
 */
export function assembleResponsesStream(events: readonly { value: JsonValue; path: string }[]): JsonObject {
  let response: JsonObject = { object: 'response', status: 'in_progress', output: [] }
  const items: ItemDraft[] = []
  let error: JsonValue | undefined
  const draftAt = (event: JsonObject): ItemDraft => {
    const index = typeof event['output_index'] === 'number' ? event['output_index'] : Math.max(0, items.length - 1)
    return (items[index] ??= { item: { type: 'message', role: 'assistant', content: [] }, parts: [], arguments: [], final: false })
  }
  const partAt = (draft: ItemDraft, event: JsonObject, type: string) => {
    const index = typeof event['content_index'] === 'number' ? event['content_index'] : Math.max(0, draft.parts.length - 1)
    return (draft.parts[index] ??= { part: { type }, text: [] })
  }
  for (const { value, path } of events) {
    if (!isJsonObject(value)) throw new BadField(path, expectedGot('expStreamEvent', describeJson(value)))
    const type = typeof value['type'] === 'string' ? value['type'] : ''
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        if (isJsonObject(value['response'])) response = value['response']
        break
      case 'response.output_item.added':
      case 'response.output_item.done': {
        const draft = draftAt(value)
        if (isJsonObject(value['item'])) draft.item = value['item']
        draft.final = type.endsWith('.done')
        break
      }
      case 'response.content_part.added': {
        const draft = draftAt(value)
        const part = partAt(draft, value, 'output_text')
        if (isJsonObject(value['part'])) part.part = value['part']
        break
      }
      case 'response.output_text.delta':
        if (typeof value['delta'] === 'string') partAt(draftAt(value), value, 'output_text').text.push(value['delta'])
        break
      case 'response.refusal.delta':
        if (typeof value['delta'] === 'string') partAt(draftAt(value), value, 'refusal').text.push(value['delta'])
        break
      case 'response.function_call_arguments.delta':
        if (typeof value['delta'] === 'string') draftAt(value).arguments.push(value['delta'])
        break
      case 'response.function_call_arguments.done':
        if (typeof value['arguments'] === 'string') draftAt(value).arguments.splice(0, Infinity, value['arguments'])
        break
      case 'error':
        error = isJsonObject(value['error']) ? value['error'] : { code: value['code'] ?? null, message: value['message'] ?? null }
        break
      default:
      // output_text.done, content_part.done, reasoning and tool-progress events: the items carry their result.
    }
  }
  const output = Array.isArray(response['output']) && response['output'].length > 0 ? response['output'] : items.filter((draft): draft is ItemDraft => draft !== undefined).map(finishItem)
  const failure = error ?? (isJsonObject(response['error']) ? response['error'] : undefined)
  return { ...response, output, ...(failure !== undefined ? { error: failure } : {}) }
}

function finishItem(draft: ItemDraft): JsonObject {
  if (draft.final) return draft.item
  if (draft.item['type'] === 'function_call') {
    const streamed = draft.arguments.join('')
    return { ...draft.item, arguments: streamed !== '' ? streamed : (draft.item['arguments'] ?? '') }
  }
  if (draft.item['type'] === 'message' && draft.parts.length > 0) {
    const content = draft.parts.filter((part) => part !== undefined).map(({ part, text }) => (part['type'] === 'refusal' ? { ...part, refusal: text.join('') } : { ...part, text: text.join('') }))
    return { ...draft.item, content }
  }
  return draft.item
}

export const openaiResponsesStreamImporter: Importer = {
  id: 'openai-responses-stream',
  title: 'OpenAI Responses API stream',
  detect(document) {
    const sample = document.kind === 'lines' ? document.lines.slice(0, 5).map((line) => line.value) : Array.isArray(document.value) ? document.value.slice(0, 5) : []
    if (!sample.some(isResponsesEvent)) return undefined
    const count = document.kind === 'lines' ? document.lines.length : sample.length
    return { confidence: 0.95, ...recognised('recogResponsesStream', { events: plural(count, 'Event'), carrier: carrierOf(document) }) }
  },
  *read(document): Generator<ImportStep, void, void> {
    const body = assembleResponsesStream(recordsOf(document))
    const exchange = readResponsesExchange({ response: body }, '', 0)
    const id = typeof body['id'] === 'string' ? body['id'] : '0'
    yield { conversation: conversationOf({ ...exchange, id, ...labelled(tracePhrase('labelStreamed', { head: id })) }), fraction: 1 }
  },
}
