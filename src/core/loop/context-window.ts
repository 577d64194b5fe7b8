/**
 * The sliding context window: what part of the conversation is sent to the model. The one trim
 * of Toolstep: the live loop's `contextWindow` setting, `toolstep replay --trim-window N
 * --export …` and the `history_split_by_trim` anomaly all use {@link safeTrimStart}.
 * The system prompt is always kept, and a tool call is never separated from its results.
 */
import type { Message } from '../messages'

/** The messages sent and the slice `[from, to)` of the conversation they came from (system prompt aside). */
export interface ContextWindow {
  messages: Message[]
  /** Number of leading system messages, always sent. */
  head: number
  from: number
  to: number
}

/** Where a window cuts a conversation: the leading system messages `[0, head)` and the slice `[from, to)`. */
export type WindowBounds = Omit<ContextWindow, 'messages'>

/** What {@link windowBounds} reads: an array or a `Conversation`. */
export interface MessageSequence {
  readonly length: number
  at(index: number): Message | undefined
}

/** Number of leading system messages (the one rule for "the system prompt"). */
export function systemHead(messages: MessageSequence): number {
  let head = 0
  while (head < messages.length && messages.at(head)!.role === 'system') head += 1
  return head
}

/**
 * For each message, the index of the earliest message it is paired with by `tool_call_id`, or
 * its own index when none comes earlier: a tool result points at the assistant message holding
 * its call; an assistant message points at a result logged before it (out of order). Results
 * pair with the nearest earlier call of their id. O(messages + calls).
 */
export function pairedEarliest(messages: readonly Message[]): Int32Array {
  const earliest = new Int32Array(messages.length)
  const callAt = new Map<string, number>()
  const resultBefore = new Map<string, number>()
  messages.forEach((message, index) => {
    earliest[index] = index
    if (message.role === 'tool') {
      const call = callAt.get(message.tool_call_id)
      if (call !== undefined) earliest[index] = call
      else if (!resultBefore.has(message.tool_call_id)) resultBefore.set(message.tool_call_id, index)
    } else if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) {
        callAt.set(call.id, index)
        const early = resultBefore.get(call.id)
        if (early !== undefined) {
          earliest[index] = Math.min(earliest[index]!, early)
          resultBefore.delete(call.id)
        }
      }
    }
  })
  return earliest
}

/**
 * The first start at or after `from` from which the slice `[start, to)` holds no message paired
 * with one before `start` — no result without its call, no call without a result logged before
 * it. `to` when there is none. O(to − from).
 *
 * @param earliest {@link pairedEarliest} of the conversation
 */
export function safeTrimStart(earliest: Int32Array, from: number, to: number): number {
  // suffixMin[k]: the earliest partner of any message in [from + k, to).
  const length = Math.max(0, to - from)
  const suffixMin = new Int32Array(length)
  let min = to
  for (let index = to - 1; index >= from; index--) {
    min = Math.min(min, earliest[index] ?? index)
    suffixMin[index - from] = min
  }
  for (let start = from; start < to; start++) if (suffixMin[start - from]! >= start) return start
  return to
}

/**
 * {@link pairedEarliest} for the slice `[from, to)` only, offset by `from`: a result whose call is
 * not earlier in the slice points at that call before `from`, found by looking back from `from`
 * until it is (a cut inside a turn's results looks back a few messages; only a result whose call
 * the log never made looks back to `head`). A call whose result was logged before it is not
 * looked for here; pass the whole conversation's {@link pairedEarliest} to catch it.
 */
function windowEarliest(messages: MessageSequence, head: number, from: number, to: number): Int32Array {
  const earliest = new Int32Array(to)
  const callAt = new Map<string, number>()
  const unpaired = new Map<string, number[]>()
  for (let index = from; index < to; index++) {
    earliest[index] = index
    const message = messages.at(index)
    if (message?.role === 'tool') {
      const call = callAt.get(message.tool_call_id)
      if (call !== undefined) earliest[index] = call
      else unpaired.set(message.tool_call_id, [...(unpaired.get(message.tool_call_id) ?? []), index])
    } else if (message?.role === 'assistant') {
      for (const call of message.tool_calls ?? []) callAt.set(call.id, index)
    }
  }
  for (let index = from - 1; index >= head && unpaired.size > 0; index--) {
    const message = messages.at(index)
    if (message?.role !== 'assistant') continue
    for (const call of message.tool_calls ?? []) {
      for (const result of unpaired.get(call.id) ?? []) earliest[result] = index
      unpaired.delete(call.id)
    }
  }
  return earliest
}

/**
 * Where the window of the last `size` messages besides the leading system messages (`size` 0 =
 * all) cuts `messages`. If the cut would separate a call from its result — a result kept without
 * its call, at the start of the window or after it — the window starts later, after the group
 * (a tool message without its call is an API error for most providers). Pure; reads the system
 * messages at the start, the window and the few messages before it that hold its results' calls,
 * so it costs the same for a conversation of 20 messages and one of 20 000.
 *
 * @param earliest the whole conversation's {@link pairedEarliest}, when known: then a call whose
 *   result was logged before it is kept with it too (the CLI and the anomaly pass it)
 */
export function windowBounds(messages: MessageSequence, size: number, earliest?: Int32Array): WindowBounds {
  const head = systemHead(messages)
  if (size <= 0 || messages.length - head <= size) return { head, from: head, to: messages.length }
  const cut = messages.length - size
  const from = safeTrimStart(earliest ?? windowEarliest(messages, head, cut, messages.length), cut, messages.length)
  return { head, from, to: messages.length }
}

/** {@link windowBounds} with the messages of the window (a new array). Pure; O(head + window). */
export function windowMessages(messages: readonly Message[], size: number, earliest?: Int32Array): ContextWindow {
  const bounds = windowBounds(messages, size, earliest)
  return { messages: [...messages.slice(0, bounds.head), ...messages.slice(bounds.from, bounds.to)], ...bounds }
}
