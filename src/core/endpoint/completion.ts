/**
 * Reading a Chat Completions response into one assistant message: the JSON body of a
 * non-streamed call (`choices[0].message`), or the `chat.completion.chunk` objects of a stream
 * (`choices[0].delta`) accumulated as the OpenAI API reference's "streaming" section describes:
 * `content` and `refusal` are appended; each `tool_calls[]` delta is keyed by `index`, its first
 * delta carrying `id` and `function.name`, later ones `function.arguments` fragments (joined by
 * `appendArgumentsFragment`, which drops a final delta repeating the whole object).
 * Pure; never throws (bad input is reported in the result).
 */
import type { NativeAssistantMessage } from '../loop/interfaces'
import { appendArgumentsFragment } from '../wire/stream-arguments'

/** The accumulated assistant message of a stream or body. */
export interface Completion {
  content: string | null
  refusal: string | null
  toolCalls: { id?: string; name: string; arguments: string }[]
  /** `finish_reason` of the first choice, once seen. */
  finishReason: string | null
}

/** A stream's accumulator: feed each `data:` payload (except `[DONE]`) to `add`. */
export class CompletionAccumulator {
  private content: string | null = null
  private refusal: string | null = null
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>()
  private finish: string | null = null
  /** True once a delta with content, refusal or a tool call arrived. */
  sawToken = false

  /**
   * Adds one chunk. Returns an error message for a chunk that is not JSON or that carries an
   * `error` object (some servers report failures inside the stream), else null.
   */
  add(data: string): string | null {
    let chunk: unknown
    try {
      chunk = JSON.parse(data)
    } catch {
      return `The stream sent a chunk that is not JSON: ${data.slice(0, 200)}`
    }
    if (!isRecord(chunk)) return `The stream sent a chunk that is not an object: ${data.slice(0, 200)}`
    const error = chunk['error']
    if (error !== undefined) return `The server reported an error in the stream: ${isRecord(error) && typeof error['message'] === 'string' ? error['message'] : JSON.stringify(error)}`
    const choices = chunk['choices']
    const choice = Array.isArray(choices) ? choices[0] : undefined
    if (!isRecord(choice)) return null // usage-only chunks have `choices: []`
    if (typeof choice['finish_reason'] === 'string') this.finish = choice['finish_reason']
    const delta = choice['delta']
    if (!isRecord(delta)) return null
    if (typeof delta['content'] === 'string' && delta['content'] !== '') {
      this.content = (this.content ?? '') + delta['content']
      this.sawToken = true
    }
    if (typeof delta['refusal'] === 'string' && delta['refusal'] !== '') {
      this.refusal = (this.refusal ?? '') + delta['refusal']
      this.sawToken = true
    }
    const toolCalls = delta['tool_calls']
    if (Array.isArray(toolCalls)) {
      toolCalls.forEach((entry: unknown, position) => {
        if (!isRecord(entry)) return
        const index = typeof entry['index'] === 'number' ? entry['index'] : position
        const call = this.calls.get(index) ?? { name: '', arguments: '' }
        if (typeof entry['id'] === 'string' && entry['id'] !== '') call.id = entry['id']
        const fn = entry['function']
        if (isRecord(fn)) {
          if (typeof fn['name'] === 'string') call.name += fn['name']
          // A last delta that repeats the whole object (some servers send one) is not appended.
          if (typeof fn['arguments'] === 'string') call.arguments = appendArgumentsFragment(call.arguments, fn['arguments'])
        }
        this.calls.set(index, call)
        this.sawToken = true
      })
    }
    return null
  }

  /** The message so far. */
  result(): Completion {
    const toolCalls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call)
    return { content: this.content, refusal: this.refusal, toolCalls, finishReason: this.finish }
  }
}

/** Reads a non-streamed response body. Returns the completion, or an error message. */
export function readCompletionBody(body: string): { ok: true; completion: Completion } | { ok: false; error: string } {
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return { ok: false, error: `The endpoint answered with something that is not JSON: ${body.slice(0, 200)}` }
  }
  const choices = isRecord(value) ? value['choices'] : undefined
  const choice = Array.isArray(choices) ? choices[0] : undefined
  const message = isRecord(choice) ? choice['message'] : undefined
  if (!isRecord(message)) return { ok: false, error: `The response has no choices[0].message: ${body.slice(0, 200)}` }
  const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : []
  const toolCalls = calls.filter(isRecord).map((call) => {
    const fn = isRecord(call['function']) ? call['function'] : {}
    return {
      ...(typeof call['id'] === 'string' && call['id'] !== '' ? { id: call['id'] } : {}),
      name: typeof fn['name'] === 'string' ? fn['name'] : '',
      arguments: typeof fn['arguments'] === 'string' ? fn['arguments'] : JSON.stringify(fn['arguments'] ?? {}),
    }
  })
  return {
    ok: true,
    completion: {
      content: typeof message['content'] === 'string' ? message['content'] : null,
      refusal: typeof message['refusal'] === 'string' ? message['refusal'] : null,
      toolCalls,
      finishReason: isRecord(choice) && typeof choice['finish_reason'] === 'string' ? choice['finish_reason'] : null,
    },
  }
}

/** The completion as a native assistant message; a refusal stands in for missing content. */
export function toNativeMessage(completion: Completion): NativeAssistantMessage {
  const content = completion.content ?? completion.refusal
  return {
    role: 'assistant',
    content,
    ...(completion.toolCalls.length > 0
      ? { tool_calls: completion.toolCalls.map((call) => ({ ...(call.id ? { id: call.id } : {}), type: 'function' as const, function: { name: call.name, arguments: call.arguments } })) }
      : {}),
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
