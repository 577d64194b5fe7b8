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

/**
 * Keeps the leading system messages and the last `size` other messages (`size` 0 = all).
 * If the cut would fall inside a call/result group, the window starts after it instead
 * (a tool message without its call is an API error for most providers). Pure.
 */
export function windowMessages(messages: readonly Message[], size: number): ContextWindow {
  // The one rule for "the system prompt": the messages before the first non-system one.
  let head = 0
  while (head < messages.length && messages[head]!.role === 'system') head += 1
  if (size <= 0 || messages.length - head <= size) return { messages: [...messages], head, from: head, to: messages.length }
  let from = messages.length - size
  while (from < messages.length && messages[from]!.role === 'tool') from += 1
  return { messages: [...messages.slice(0, head), ...messages.slice(from)], head, from, to: messages.length }
}
