/** Small builders for hand-written conversations in tests. Test-only: not part of the app. */
import type { AssistantMessage, Message, ToolMessage } from '../core/messages'
import { readArguments } from '../core/trace/arguments'

/** An assistant turn calling tools, each given as `[name, id, rawArguments = '{}']`, in order. */
export function calls(...list: [name: string, id: string, rawArguments?: string][]): AssistantMessage {
  return {
    role: 'assistant',
    content: null,
    tool_calls: list.map(([name, id, raw = '{}']) => ({ id, name, arguments: readArguments(raw).arguments, rawArguments: raw })),
  }
}

/** A tool message answering `id`. */
export function result(id: string, name: string, content = 'ok'): ToolMessage {
  return { role: 'tool', tool_call_id: id, name, content }
}

/** A user message. */
export function user(content: string): Message {
  return { role: 'user', content }
}

/** An assistant answer without calls. */
export function answer(content: string): Message {
  return { role: 'assistant', content }
}
