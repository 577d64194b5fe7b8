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
import { callJson, jsonWithMember, rememberedJson } from '../core/util/json-walk'
import type { PostedModelRequest } from './protocol'

/** Host side: turns engine requests into wire requests for one worker. */
export interface RequestEncoder {
  /**
   * The wire form of `request`, assuming every earlier encoded request reached the worker in
   * order. O(messages added + parts + tools) for a request made by the engine's `modelRequest`;
   * O(messages) for any other (its messages are sent whole).
   */
  encode(request: ModelRequest): PostedModelRequest
  /**
   * {@link encode}, with the new messages' text written in slices of about
   * `sliceMs` (default {@link SLICE_MS}) ms, `pause` awaited between them, so a turn that adds a hundred thousand
   * messages does not hold the page for the whole text. When the encoder was used or reset
   * meanwhile, the request is encoded again as it then stands.
   */
  encodeInSlices(request: ModelRequest, pause: () => Promise<void>, sliceMs?: number): Promise<PostedModelRequest>
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

/** {@link asText} written a slice at a time, awaiting `pause` whenever a slice has run `sliceMs` ms. */
async function asTextInSlices(messages: readonly Message[], pause: () => Promise<void>, sliceMs: number): Promise<string | Message[]> {
  if (messages.length <= CLOCK_EVERY) return asText(messages)
  const items: string[] = []
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
        items.push(await manyCallsText(first, tick))
        from++
        continue
      }
      let to = from + 1
      while (to < messages.length && to - from < CLOCK_EVERY && !holdsManyCalls(messages[to]!)) to++
      const text = itemsText(messages.slice(from, to))
      if (text !== '') items.push(text)
      from = to
      await tick()
    }
  } catch {
    return messages.slice()
  }
  return `[${items.join(',')}]`
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

/** A message of {@link holdsManyCalls} as JSON, its calls written a slice at a time. */
async function manyCallsText(message: AssistantMessage & { tool_calls: ToolCall[] }, tick: () => Promise<void>): Promise<string> {
  const { tool_calls: calls, ...rest } = message
  const parts: string[] = []
  for (let at = 0; at < calls.length; at += CLOCK_EVERY) {
    const slice = calls.slice(at, at + CLOCK_EVERY)
    parts.push(slice.some((call) => rememberedJson(call.arguments) !== undefined) ? slice.map(callJson).join(',') : JSON.stringify(slice).slice(1, -1))
    await tick()
  }
  return jsonWithMember(rest, 'tool_calls', `[${parts.join(',')}]`)
}

/** An assistant message with a call whose arguments' text is already written (big arguments, see `jsonOf`). */
function holdsWrittenArguments(message: Message): boolean {
  return message.role === 'assistant' && (message.tool_calls?.some((call) => rememberedJson(call.arguments) !== undefined) ?? false)
}

/** A message as JSON, reusing the written text of its calls' arguments (the same value as `JSON.stringify`, members in another order). */
function messageText(message: Message): string {
  if (message.role !== 'assistant' || !holdsWrittenArguments(message)) return JSON.stringify(message)
  const { tool_calls: calls = [], ...rest } = message
  return jsonWithMember(rest, 'tool_calls', `[${calls.map(callJson).join(',')}]`)
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

  function commit(request: ModelRequest, planned: Plan, append: string | Message[]): PostedModelRequest {
    version++
    tools = request.tools
    sent = planned.sent
    held = planned.held
    return { ...planned.wire, conversation: { ...planned.wire.conversation, append } }
  }

  const encode = (request: ModelRequest): PostedModelRequest => {
    const planned = plan(request)
    return commit(request, planned, asText(planned.append))
  }

  return {
    encode,
    async encodeInSlices(request, pause, sliceMs = SLICE_MS) {
      const before = version
      const planned = plan(request)
      if (planned.append.length <= CLOCK_EVERY) return commit(request, planned, asText(planned.append))
      const append = await asTextInSlices(planned.append, pause, sliceMs)
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
