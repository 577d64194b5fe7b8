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
import type { Message } from '../core/messages'
import type { ToolSpec } from '../core/tools/types'
import type { WireModelRequest } from './protocol'

/** Host side: turns engine requests into wire requests for one worker. */
export interface RequestEncoder {
  /**
   * The wire form of `request`, assuming every earlier encoded request reached the worker in
   * order. O(messages added + parts + tools) for a request made by the engine's `modelRequest`;
   * O(messages) for any other (its messages are sent whole).
   */
  encode(request: ModelRequest): WireModelRequest
  /** Forgets what was sent: the next request carries the whole conversation and the tools. */
  reset(): void
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
        return { ...base, conversation: { keep: 0, append: request.messages }, parts: [{ from: 0, to: held }] }
      }
      const conversation = layout.conversation
      const parts = layout.parts.map((part) => ('message' in part ? { message: part.message } : { from: part.from, to: part.to }))
      if (sent && conversation.extends(sent)) {
        const append = conversation.since(sent) ?? []
        sent = conversation
        const keep = held
        held += append.length
        return { ...base, conversation: { keep, append }, parts }
      }
      // An earlier point of the same conversation: the worker's copy begins with it already.
      if (sent && sent.extends(conversation)) return { ...base, conversation: { keep: held, append: [] }, parts }
      sent = conversation
      held = conversation.length
      return { ...base, conversation: { keep: 0, append: conversation.slice() }, parts }
    },
    reset() {
      sent = undefined
      held = 0
      tools = undefined
    },
  }
}

/** What {@link RequestDecoder.decode} gives: the request user code receives, or why there is none. */
export type DecodedRequest = { ok: true; request: ModelRequest } | { ok: false; error: string }

/** Worker side: applies wire requests to the conversation it keeps. */
export interface RequestDecoder {
  /**
   * Applies `wire.conversation` and builds the request: a fresh `messages` array (user code may
   * change it) of frozen messages (shared between requests, so nobody may change them), and a
   * fresh `tools` array of frozen tools. O(messages added + messages of the request), the latter
   * a block copy of references. On any
   * error the copy is dropped, so a request that does not start from nothing fails too.
   */
  decode(wire: WireModelRequest): DecodedRequest
}

/** Freezes `root` and everything reachable from it, without recursion (arguments may nest thousands deep). */
function freezeDeep(root: unknown): void {
  const pending: unknown[] = [root]
  while (pending.length > 0) {
    const value = pending.pop()
    if (typeof value !== 'object' || value === null || Object.isFrozen(value)) continue
    Object.freeze(value)
    for (const key of Object.keys(value)) pending.push((value as Record<string, unknown>)[key])
  }
}

/** Creates an empty {@link RequestDecoder}. */
export function createRequestDecoder(): RequestDecoder {
  const held: Message[] = []
  let tools: ToolSpec[] | undefined

  const fail = (error: string): DecodedRequest => {
    held.length = 0
    tools = undefined
    return { ok: false, error }
  }

  return {
    decode(wire) {
      const { keep, append } = wire.conversation
      if (keep > held.length) return fail(`The request keeps ${keep} messages of a conversation of ${held.length}: host and sandbox are out of step.`)
      if (wire.tools) {
        freezeDeep(wire.tools)
        tools = wire.tools
      }
      if (!tools) return fail('The request names no tools and none were sent before.')
      held.length = keep
      for (const message of append) {
        freezeDeep(message)
        held.push(message)
      }
      const pieces: Message[][] = []
      for (const part of wire.parts) {
        if ('message' in part) {
          freezeDeep(part.message)
          pieces.push([part.message])
          continue
        }
        if (part.from > part.to || part.to > held.length) return fail(`The request reads messages ${part.from}–${part.to} of a conversation of ${held.length}.`)
        // A slice is a block copy of references: the one cost per request that grows with the conversation, and a small one.
        pieces.push(held.slice(part.from, part.to))
      }
      const messages = pieces.length === 1 ? pieces[0]! : ([] as Message[]).concat(...pieces)
      return { ok: true, request: { messages, tools: tools.slice(), step: wire.step, protocol: wire.protocol } }
    },
  }
}
