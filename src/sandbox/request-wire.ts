/**
 * Model requests on the wire between the sandbox host and its worker. The worker keeps the
 * conversation (and the tools) of the last request; the host remembers what it sent and posts
 * only what changed: the messages added since, and the parts the request's messages are made of
 * (see `RequestLayout` in core/loop). A message is thus copied, validated and frozen once per
 * worker, and a step of a long run costs the same as a step of a short one.
 *
 * Both ends are per worker: a fresh worker starts with nothing, and so does its host encoder.
 * When anything goes wrong with a request, both ends drop their copies (`reset`), and the next
 * request sends everything again.
 */
import type { Conversation, ModelRequest } from '../core/loop/index'
import { requestLayout } from '../core/loop/index'
import type { ToolSpec } from '../core/tools/types'
import type { Message } from '../core/messages'
import { jsonOf, jsonWithMember, rememberedJson } from '../core/util/json-walk'
import type { PostedModelRequest } from './protocol'

/** Host side: turns engine requests into wire requests for one worker. */
export interface RequestEncoder {
  /**
   * The wire form of `request`, assuming every earlier encoded request reached the worker in
   * order. O(messages added + parts + tools) for a request made by the engine's `modelRequest`;
   * O(messages) for any other (its messages are sent whole).
   */
  encode(request: ModelRequest): PostedModelRequest
  /** Forgets what was sent: the next request carries the whole conversation and the tools. */
  reset(): void
}

/**
 * Messages as JSON text for the post (see `conversationUpdateSchema`), or the array when it cannot
 * be written (nesting deeper than the engine's writer goes): the structured clone then copies it.
 */
function asText(messages: readonly Message[]): string | Message[] {
  if (messages.length === 0) return []
  try {
    return messages.some(holdsWrittenArguments) ? `[${messages.map(messageText).join(',')}]` : JSON.stringify(messages)
  } catch {
    return messages.slice()
  }
}

/** An assistant message with a call whose arguments' text is already written (big arguments, see `jsonOf`). */
function holdsWrittenArguments(message: Message): boolean {
  return message.role === 'assistant' && (message.tool_calls?.some((call) => rememberedJson(call.arguments) !== undefined) ?? false)
}

/** A message as JSON, reusing the written text of its calls' arguments (the same value as `JSON.stringify`, members in another order). */
function messageText(message: Message): string {
  if (message.role !== 'assistant' || !holdsWrittenArguments(message)) return JSON.stringify(message)
  const { tool_calls: calls = [], ...rest } = message
  const items = calls.map(({ arguments: args, ...call }) => jsonWithMember(call, 'arguments', jsonOf(args)))
  return jsonWithMember(rest, 'tool_calls', `[${items.join(',')}]`)
}

/** Creates a {@link RequestEncoder} for one fresh worker. */
export function createRequestEncoder(): RequestEncoder {
  /** The conversation the worker holds, when it is one the engine made. */
  let sent: Conversation | undefined
  /** Length of the worker's conversation (whatever it came from). */
  let held = 0
  let tools: readonly ToolSpec[] | undefined

  const sameTools = (next: readonly ToolSpec[]): boolean =>
    tools !== undefined && tools.length === next.length && next.every((tool, index) => tool === tools![index])

  return {
    encode(request) {
      const offered = sameTools(request.tools) ? undefined : request.tools
      tools = request.tools
      const base = { step: request.step, protocol: request.protocol, ...(offered ? { tools: offered } : {}) }
      const layout = requestLayout(request)
      if (!layout) {
        // Not cut from an engine conversation: send the messages as they are.
        sent = undefined
        held = request.messages.length
        return { ...base, conversation: { keep: 0, append: asText(request.messages) }, parts: [{ from: 0, to: held }] }
      }
      const conversation = layout.conversation
      const parts = layout.parts.map((part) => ('message' in part ? { message: part.message } : { from: part.from, to: part.to }))
      if (sent && conversation.extends(sent)) {
        const append = conversation.since(sent) ?? []
        sent = conversation
        const keep = held
        held += append.length
        return { ...base, conversation: { keep, append: asText(append) }, parts }
      }
      // An earlier point of the same conversation: the worker's copy begins with it already.
      if (sent && sent.extends(conversation)) return { ...base, conversation: { keep: held, append: [] }, parts }
      sent = conversation
      held = conversation.length
      return { ...base, conversation: { keep: 0, append: asText(conversation.slice()) }, parts }
    },
    reset() {
      sent = undefined
      held = 0
      tools = undefined
    },
  }
}

export { createRequestDecoder, type DecodedRequest, type RequestDecoder } from './request-decoder'
