/**
 * The sliding context window: what part of the conversation is sent to the model.
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

/**
 * Where the window of the last `size` messages besides the leading system messages (`size` 0 =
 * all) cuts `messages`. If the cut would fall inside a call/result group, the window starts after
 * it instead (a tool message without its call is an API error for most providers). Pure; reads
 * only the system messages at the start and the messages around the cut, so it costs the same
 * for a conversation of 20 messages and one of 20 000.
 */
export function windowBounds(messages: MessageSequence, size: number): WindowBounds {
  // The one rule for "the system prompt": the messages before the first non-system one.
  let head = 0
  while (head < messages.length && messages.at(head)!.role === 'system') head += 1
  if (size <= 0 || messages.length - head <= size) return { head, from: head, to: messages.length }
  let from = messages.length - size
  while (from < messages.length && messages.at(from)!.role === 'tool') from += 1
  return { head, from, to: messages.length }
}

/** {@link windowBounds} with the messages of the window (a new array). Pure; O(head + window). */
export function windowMessages(messages: readonly Message[], size: number): ContextWindow {
  const bounds = windowBounds(messages, size)
  return { messages: [...messages.slice(0, bounds.head), ...messages.slice(bounds.from, bounds.to)], ...bounds }
}
