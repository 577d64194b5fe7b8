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
import type { AssistantMessage, Message, ToolCall } from '../core/messages'
import { memberHead, pushCallJson, rememberedJson } from '../core/util/json-walk'
import type { HostToSandbox, PostedModelRequest } from './protocol'
import { postInTextParts } from './text-parts'

/** Appended messages' JSON text in pieces (host side): concatenated, they are the text. */
export interface AppendPieces {
  pieces: readonly string[]
}

/** A request as the encoder gives it: the appended messages as an array, JSON text, or text in {@link AppendPieces}. */
export type EncodedModelRequest = Omit<PostedModelRequest, 'conversation'> & { conversation: { keep: number; append: string | Message[] | AppendPieces } }

/** A request whose appended messages are all in it, as an array or JSON text: what can be posted as it is. */
export type WholeModelRequest = Omit<PostedModelRequest, 'conversation'> & { conversation: { keep: number; append: string | Message[] } }

/** Host side: turns engine requests into wire requests for one worker. */
export interface RequestEncoder {
  /**
   * The wire form of `request`, assuming every earlier encoded request reached the worker in
   * order. O(messages added + parts + tools) for a request made by the engine's `modelRequest`;
   * O(messages) for any other (its messages are sent whole).
   */
  encode(request: ModelRequest): WholeModelRequest
  /**
   * {@link encode}, with the new messages' text written in slices of about
   * `sliceMs` (default {@link SLICE_MS}) ms, `pause` awaited between them, so a turn that adds a
   * hundred thousand messages (or a call with megabytes of arguments) does not hold the page for
   * the whole text; such text comes as {@link AppendPieces}, for {@link postTextParts}. When the
   * encoder was used or reset meanwhile, the request is encoded again as it then stands.
   */
  encodeInSlices(request: ModelRequest, pause: () => Promise<void>, sliceMs?: number): Promise<EncodedModelRequest>
  /** Forgets what was sent: the next request carries the whole conversation and the tools. */
  reset(): void
}

/** Time one slice of {@link RequestEncoder.encodeInSlices} may write for, in ms. */
export const SLICE_MS = 30
/** Messages written between two looks at the clock. */
const CLOCK_EVERY = 500

/**
 * Messages as JSON text for the post (see `conversationUpdateSchema`), or the array when it cannot
 * be written (nesting deeper than the engine's writer goes): the structured clone then copies it.
 */
function asText(messages: readonly Message[]): string | Message[] {
  if (messages.length === 0) return []
  try {
    return `[${itemsText(messages)}]`
  } catch {
    return messages.slice()
  }
}

/** `messages` as the items of a JSON array (without its brackets). Throws where `JSON.stringify` does. */
function itemsText(messages: readonly Message[]): string {
  return messages.some(holdsWrittenArguments) ? messages.map(messageText).join(',') : JSON.stringify(messages).slice(1, -1)
}

/**
 * {@link asText} in pieces written a slice at a time, awaiting `pause` whenever a slice has run
 * `sliceMs` ms. Concatenated, the pieces are the text; they are never joined here, so a turn's
 * ~20 MB of text is copied only part by part, as it is posted (see text-parts.ts).
 */
async function asPiecesInSlices(messages: readonly Message[], pause: () => Promise<void>, sliceMs: number): Promise<AppendPieces | Message[]> {
  const pieces: string[] = ['[']
  const separate = () => {
    if (pieces.length > 1) pieces.push(',')
  }
  // The first slice starts in a task of its own: the caller's task has just done the turn's own
  // work (a backfill of as many messages), and the two together held the page.
  await pause()
  let sliceStart = performance.now()
  const tick = async (): Promise<void> => {
    if (performance.now() - sliceStart < sliceMs) return
    await pause()
    sliceStart = performance.now()
  }
  try {
    for (let from = 0; from < messages.length; ) {
      const first = messages[from]!
      if (holdsManyCalls(first)) {
        separate()
        await manyCallsPieces(first, pieces, tick)
        from++
        continue
      }
      let to = from + 1
      while (to < messages.length && to - from < CLOCK_EVERY && !holdsManyCalls(messages[to]!)) to++
      const group = messages.slice(from, to)
      if (group.some(holdsWrittenArguments)) {
        for (const message of group) {
          separate()
          messagePieces(message, pieces)
        }
      } else {
        separate()
        pieces.push(JSON.stringify(group).slice(1, -1))
      }
      from = to
      await tick()
    }
  } catch {
    return messages.slice()
  }
  pieces.push(']')
  return { pieces }
}

/**
 * An assistant message whose calls are too many to write in one slice (the message a turn of
 * 100 000 calls writes back), with `tool_calls` as its last member, so that writing it around its
 * calls gives `JSON.stringify`'s text exactly.
 */
function holdsManyCalls(message: Message): message is AssistantMessage & { tool_calls: ToolCall[] } {
  if (message.role !== 'assistant' || (message.tool_calls?.length ?? 0) <= CLOCK_EVERY) return false
  const keys = Object.keys(message)
  return keys[keys.length - 1] === 'tool_calls'
}

/** A message of {@link holdsManyCalls} as JSON pieces pushed onto `out`, its calls written a slice at a time. */
async function manyCallsPieces(message: AssistantMessage & { tool_calls: ToolCall[] }, out: string[], tick: () => Promise<void>): Promise<void> {
  const { tool_calls: calls, ...rest } = message
  out.push(memberHead(rest, 'tool_calls'), '[')
  for (let at = 0; at < calls.length; at += CLOCK_EVERY) {
    if (at > 0) out.push(',')
    const slice = calls.slice(at, at + CLOCK_EVERY)
    if (slice.some((call) => rememberedJson(call.arguments) !== undefined)) callsPieces(slice, out)
    else out.push(JSON.stringify(slice).slice(1, -1))
    await tick()
  }
  out.push(']}')
}

/** An assistant message with a call whose arguments' text is already written (big arguments, see `jsonOf`). */
function holdsWrittenArguments(message: Message): boolean {
  return message.role === 'assistant' && (message.tool_calls?.some((call) => rememberedJson(call.arguments) !== undefined) ?? false)
}

/**
 * A message as JSON pieces pushed onto `out`, reusing the written text of its calls' arguments
 * as pieces of their own (the same value as `JSON.stringify`, members in another order).
 */
function messagePieces(message: Message, out: string[]): void {
  if (message.role !== 'assistant' || !holdsWrittenArguments(message)) {
    out.push(JSON.stringify(message))
    return
  }
  const { tool_calls: calls = [], ...rest } = message
  out.push(memberHead(rest, 'tool_calls'), '[')
  callsPieces(calls, out)
  out.push(']}')
}

/** Calls as the items of a JSON array, in pieces (see `pushCallJson`). */
function callsPieces(calls: readonly ToolCall[], out: string[]): void {
  for (let index = 0; index < calls.length; index++) {
    if (index > 0) out.push(',')
    pushCallJson(calls[index]!, out)
  }
}

/** {@link messagePieces} joined. */
function messageText(message: Message): string {
  const out: string[] = []
  messagePieces(message, out)
  return out.join('')
}

/**
 * Posts `encoded`'s appended text, when it is longer than `TEXT_PART_CHARS`, as `text-part`
 * messages through `post`, one per task (`pause` between them), and gives the request to post
 * after them, which names those parts instead of holding the text (see `postInTextParts`). A
 * shorter text (or an array) stays in the request.
 */
export async function postTextParts(
  encoded: EncodedModelRequest,
  post: (message: Extract<HostToSandbox, { type: 'text-part' }>) => void,
  pause: () => Promise<void>,
): Promise<PostedModelRequest> {
  const { keep, append } = encoded.conversation
  if (Array.isArray(append)) return { ...encoded, conversation: { keep, append } }
  const pieces = typeof append === 'string' ? [append] : append.pieces
  return { ...encoded, conversation: { keep, append: await postInTextParts(pieces, post, pause) } }
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

  /** What the worker's copy becomes once a planned request is posted. */
  interface Plan {
    wire: Omit<PostedModelRequest, 'conversation'> & { conversation: { keep: number } }
    append: readonly Message[]
    sent: Conversation | undefined
    held: number
  }
  /** Bumped by every encode and reset: a sliced encoding that sees it move plans again. */
  let version = 0

  function plan(request: ModelRequest): Plan {
    const offered = sameTools(request.tools) ? undefined : request.tools
    const base = { step: request.step, protocol: request.protocol, ...(offered ? { tools: offered } : {}) }
    const layout = requestLayout(request)
    if (!layout) {
      // Not cut from an engine conversation: send the messages as they are.
      const count = request.messages.length
      return { wire: { ...base, conversation: { keep: 0 }, parts: [{ from: 0, to: count }] }, append: request.messages, sent: undefined, held: count }
    }
    const conversation = layout.conversation
    const parts = layout.parts.map((part) => ('message' in part ? { message: part.message } : { from: part.from, to: part.to }))
    if (sent && conversation.extends(sent)) {
      const append = conversation.since(sent) ?? []
      return { wire: { ...base, conversation: { keep: held }, parts }, append, sent: conversation, held: held + append.length }
    }
    // An earlier point of the same conversation: the worker's copy begins with it already.
    if (sent && sent.extends(conversation)) return { wire: { ...base, conversation: { keep: held }, parts }, append: [], sent, held }
    return { wire: { ...base, conversation: { keep: 0 }, parts }, append: conversation.slice(), sent: conversation, held: conversation.length }
  }

  function commit<Append extends string | Message[] | AppendPieces>(request: ModelRequest, planned: Plan, append: Append): Omit<PostedModelRequest, 'conversation'> & { conversation: { keep: number; append: Append } } {
    version++
    tools = request.tools
    sent = planned.sent
    held = planned.held
    return { ...planned.wire, conversation: { ...planned.wire.conversation, append } }
  }

  const encode = (request: ModelRequest): WholeModelRequest => {
    const planned = plan(request)
    return commit(request, planned, asText(planned.append))
  }

  return {
    encode,
    async encodeInSlices(request, pause, sliceMs = SLICE_MS) {
      const before = version
      const planned = plan(request)
      if (planned.append.length <= CLOCK_EVERY && !planned.append.some(holdsWrittenArguments)) return commit(request, planned, asText(planned.append))
      const append = await asPiecesInSlices(planned.append, pause, sliceMs)
      return version === before ? commit(request, planned, append) : encode(request)
    },
    reset() {
      version++
      sent = undefined
      held = 0
      tools = undefined
    },
  }
}

export { createRequestDecoder, type DecodedRequest, type RequestDecoder } from './request-decoder'
