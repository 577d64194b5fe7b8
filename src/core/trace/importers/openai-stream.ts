/**
 * `openai-stream`: streamed Chat Completions output, `chat.completion.chunk` objects as a JSON
 * array, as JSONL, or as the `data: {…}` lines of the server-sent event stream itself.
 * Source: Chat Completions API reference, "The chat completion chunk object": each chunk has
 * `id`, `choices[].index`, `choices[].delta` (`role`, `content`, `tool_calls[]` with `index`,
 * and on its first fragment `id`, `type`, `function.name`; `function.arguments` arrives in
 * pieces) and `choices[].finish_reason` on the last chunk.
 *
 * Each completion (chunks sharing an `id`) becomes one conversation holding the reassembled
 * assistant message; only choice 0 is read (the one a client continues with). `delta.refusal`
 * fragments (structured outputs) are joined into the refusal; a usage-only last chunk
 * (`choices: []`) adds nothing; a `{"error": {…}}` data line (the API's mid-stream error) ends
 * the completion with that error. Unknown fields (`obfuscation`, `service_tier`, `logprobs`) are ignored.
 */
import type { AssistantMessage, JsonValue, ToolCall } from '../../messages'
import { appendArgumentsFragment } from '../../wire/stream-arguments'
import { describeJson, isJsonObject, readArguments } from '../arguments'
import { BadField, child } from '../openai-log'
import { conversationOf, firstRecord, labelled, objectAt, plural, recordsOf, carrierOf } from './shared'
import type { Importer, ImportStep, LogDocument, MessageMeta } from './types'
import { expectedGot, recognised, tracePhrase } from '../trace-text'

/** One reassembled completion. */
export interface AssembledCompletion {
  /** The chunks' shared `id` (`''` when they carried none). */
  id: string
  message: AssistantMessage
  /** The last non-null `finish_reason`, e.g. `length` when the output was cut off. */
  finishReason?: string
  /** The joined `delta.refusal` fragments, when the model refused. */
  refusal?: string
  /** The message of an error the stream ended with. */
  error?: string
  /** Path of the completion's first chunk. */
  path: string
}

interface CallDraft {
  id: string
  name: string
  arguments: string
}

/** True when a value looks like a streamed chunk. */
export function isChunk(value: JsonValue | undefined): boolean {
  if (!isJsonObject(value)) return false
  if (value['object'] === 'chat.completion.chunk') return true
  const choice = Array.isArray(value['choices']) ? value['choices'][0] : undefined
  return isJsonObject(choice) && isJsonObject(choice['delta'])
}

/**
 * Reassemble chunks (each found at `paths[i]`) into completions, in order of first appearance.
 * Tool call fragments are joined by their `index`; a fragment without one continues the last call.
 *
 * @throws BadField for a chunk that is not an object or whose delta has the wrong shape.
 */
export function assembleChunks(chunks: readonly { value: JsonValue; path: string }[]): AssembledCompletion[] {
  type Draft = { content: string[]; hasContent: boolean; refusal: string[]; calls: CallDraft[]; finishReason?: string; error?: string; path: string }
  const drafts = new Map<string, Draft>()
  let last: Draft | undefined
  for (const { value, path } of chunks) {
    if (!isJsonObject(value)) throw new BadField(path, expectedGot('expChunk', describeJson(value)))
    const failure = streamError(value)
    if (failure !== undefined && last) {
      // An error line carries no completion id: it ends the completion in progress.
      last.error = failure
      continue
    }
    const id = typeof value['id'] === 'string' ? value['id'] : ''
    let draft = drafts.get(id)
    if (!draft) {
      draft = { content: [], hasContent: false, refusal: [], calls: [], path }
      drafts.set(id, draft)
    }
    last = draft
    if (failure !== undefined) draft.error = failure
    const choices = value['choices']
    if (choices === undefined || choices === null) continue
    if (!Array.isArray(choices)) throw new BadField(child(path, 'choices'), expectedGot('expArray', describeJson(choices)))
    choices.forEach((choice, choiceIndex) => {
      const choicePath = child(child(path, 'choices'), choiceIndex)
      if (!isJsonObject(choice)) throw new BadField(choicePath, expectedGot('expChoice', describeJson(choice)))
      if ((choice['index'] ?? 0) !== 0) return
      const reason = choice['finish_reason']
      if (typeof reason === 'string') draft.finishReason = reason
      const delta = choice['delta']
      if (delta === undefined || delta === null) return
      if (!isJsonObject(delta)) throw new BadField(child(choicePath, 'delta'), expectedGot('expObject', describeJson(delta)))
      const content = delta['content']
      if (typeof content === 'string') {
        draft.content.push(content)
        draft.hasContent = true
      }
      if (typeof delta['refusal'] === 'string') draft.refusal.push(delta['refusal'])
      const fragments = delta['tool_calls']
      if (fragments === undefined || fragments === null) return
      if (!Array.isArray(fragments)) throw new BadField(child(child(choicePath, 'delta'), 'tool_calls'), expectedGot('expArray', describeJson(fragments)))
      fragments.forEach((fragment, fragmentIndex) => {
        const fragmentPath = child(child(child(choicePath, 'delta'), 'tool_calls'), fragmentIndex)
        if (!isJsonObject(fragment)) throw new BadField(fragmentPath, expectedGot('expFragment', describeJson(fragment)))
        const at = typeof fragment['index'] === 'number' ? fragment['index'] : Math.max(0, draft.calls.length - 1)
        const call = (draft.calls[at] ??= { id: '', name: '', arguments: '' })
        if (typeof fragment['id'] === 'string' && fragment['id'] !== '') call.id = fragment['id']
        const fn = objectAt(fragment, 'function')
        if (typeof fn?.['name'] === 'string') call.name += fn['name']
        // A last delta that repeats the whole object (some servers send one) is not appended.
        if (typeof fn?.['arguments'] === 'string') call.arguments = appendArgumentsFragment(call.arguments, fn['arguments'])
      })
    })
  }
  return [...drafts].map(([id, draft]) => {
    const calls: ToolCall[] = draft.calls
      .filter((call): call is CallDraft => call !== undefined)
      .map((call, index) => ({ id: call.id || `call_${index}`, name: call.name, arguments: readArguments(call.arguments).arguments, rawArguments: call.arguments }))
    const refusal = draft.refusal.join('')
    // A refusal is what the model said instead of an answer, so it is shown as the turn's text.
    const message: AssistantMessage = { role: 'assistant', content: draft.hasContent ? draft.content.join('') : refusal !== '' ? refusal : null }
    if (calls.length > 0) message.tool_calls = calls
    return {
      id,
      message,
      path: draft.path,
      ...(draft.finishReason !== undefined ? { finishReason: draft.finishReason } : {}),
      ...(refusal !== '' ? { refusal } : {}),
      ...(draft.error !== undefined ? { error: draft.error } : {}),
    }
  })
}

/** The message of an `{"error": {"message": …}}` line (or a string `error`), if the value is one. */
export function streamError(value: JsonValue): string | undefined {
  if (!isJsonObject(value)) return undefined
  const error = value['error']
  if (typeof error === 'string' && error !== '') return error
  if (!isJsonObject(error)) return undefined
  const message = error['message']
  const code = error['code'] ?? error['type']
  if (typeof message === 'string') return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message
  return typeof code === 'string' ? code : JSON.stringify(error)
}

/** Meta for a reassembled completion's assistant message (finish reason, refusal, error). */
export function completionMeta(completion: AssembledCompletion): MessageMeta {
  return {
    ...(completion.finishReason !== undefined ? { finishReason: completion.finishReason } : {}),
    ...(completion.refusal !== undefined ? { refusal: completion.refusal } : {}),
    ...(completion.error !== undefined ? { providerError: completion.error } : {}),
  }
}

/** Chunks of a document with their paths: a JSON array, JSONL or SSE lines, or `{chunks: […]}`. */
function chunksOf(document: LogDocument): { value: JsonValue; path: string }[] {
  if (document.kind === 'json' && isJsonObject(document.value) && Array.isArray(document.value['chunks'])) {
    return document.value['chunks'].map((value, index) => ({ value, path: child('chunks', index) }))
  }
  return recordsOf(document)
}

export const openaiStreamImporter: Importer = {
  id: 'openai-stream',
  title: 'OpenAI Chat Completions stream',
  detect(document) {
    const first = document.kind === 'json' && isJsonObject(document.value) && Array.isArray(document.value['chunks']) ? document.value['chunks'][0] : firstRecord(document)
    if (!isChunk(first)) return undefined
    const count = document.kind === 'lines' ? document.lines.length : chunksOf(document).length
    return { confidence: 0.95, ...recognised('recogChatStream', { chunks: plural(count, 'Chunk'), carrier: carrierOf(document) }) }
  },
  *read(document): Generator<ImportStep, void, void> {
    const completions = assembleChunks(chunksOf(document))
    for (const [index, completion] of completions.entries()) {
      const meta = completionMeta(completion)
      const messageMeta = Object.keys(meta).length > 0 ? new Map([[0, meta]]) : undefined
      yield {
        conversation: conversationOf({
          id: completion.id || String(index),
          ...labelled(tracePhrase('labelStreamed', { head: completion.id ? completion.id : tracePhrase('labelCompletion', { index }) })),
          messages: [completion.message],
          path: completion.path,
          messageMeta,
        }),
        fraction: (index + 1) / completions.length,
      }
    }
  },
}
