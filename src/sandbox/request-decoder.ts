/**
 * The sandbox's end of the model-request wire (see request-wire.ts for the host's): it keeps the
 * conversation of the last request and applies each request's changes to it. It lives in the
 * runtime, on the same side as user code, so that the browser's QuickJS VM too receives only
 * the messages added since the last request instead of the whole conversation at every step.
 * Imports no engine code: it is bundled into the VM.
 */
import type { ModelRequest } from '../core/loop/interfaces'
import type { Message } from '../core/messages'
import type { ToolSpec } from '../core/tools/types'
import { messagesView, type MessagesPiece } from './messages-view'
import type { WireModelRequest } from './protocol'

/** What {@link RequestDecoder.decode} gives: the request user code receives, or why there is none. */
export type DecodedRequest = { ok: true; request: ModelRequest } | { ok: false; error: string }

/** Worker side: applies wire requests to the conversation it keeps. */
export interface RequestDecoder {
  /**
   * Applies `wire.conversation` and builds the request: a `messages` array of frozen messages
   * (shared between requests, so nobody may change them) that reads the kept conversation in
   * place and is copied only if user code changes it (see `messagesView`), and a fresh `tools`
   * array of frozen tools. O(messages added + parts + tools), whatever the conversation's length.
   * On any error the copy is dropped, so a request that does not start from nothing fails too.
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
  // Earlier requests' views read `held` below their own length: it only ever grows in place, and
  // is replaced (never cut) when a request goes back to an earlier point or starts again.
  let held: Message[] = []
  let tools: ToolSpec[] | undefined

  const fail = (error: string): DecodedRequest => {
    held = []
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
      if (keep < held.length) held = held.slice(0, keep)
      for (const message of append) {
        freezeDeep(message)
        held.push(message)
      }
      const pieces: MessagesPiece[] = []
      for (const part of wire.parts) {
        if ('message' in part) {
          freezeDeep(part.message)
          pieces.push({ source: [part.message], from: 0, to: 1 })
          continue
        }
        if (part.from > part.to || part.to > held.length) return fail(`The request reads messages ${part.from}–${part.to} of a conversation of ${held.length}.`)
        pieces.push({ source: held, from: part.from, to: part.to })
      }
      return { ok: true, request: { messages: messagesView(pieces), tools: tools.slice(), step: wire.step, protocol: wire.protocol } }
    },
  }
}
