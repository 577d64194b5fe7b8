/**
 * Exactly what the model received at a decide, rebuilt from the log: the conversation
 * before that turn, cut to the logged context window, plus the tools that were offered.
 */
import type { Message } from '../messages'
import type { ToolSpec } from '../tools/types'
import type { SessionEvent } from './events'
import { FINAL_TURN_NOTICE, fold } from './machine'
import { withOfferedTools } from './system-prompt'

/** The request of the decide at `events[index]` (a `model.responded`/`model.failed` event), or the next one to be made when `index` is any other event. */
export function requestAt(events: readonly SessionEvent[], index: number): { messages: Message[]; tools: ToolSpec[] } {
  const event = events[index]
  const decided = event?.type === 'model.responded' || event?.type === 'model.failed'
  const state = fold(events.slice(0, decided ? index : index + 1))
  if (event?.type !== 'model.responded') return { messages: state.messages, tools: state.tools }
  let messages = state.messages
  if (event.window) {
    const head = messages.filter((m, i) => m.role === 'system' && messages.slice(0, i).every((p) => p.role === 'system'))
    messages = [...head, ...messages.slice(event.window.from, event.window.to)]
  }
  if (event.finalTurn) messages = [...messages, { role: 'user', content: FINAL_TURN_NOTICE }]
  const tools = event.finalTurn ? [] : event.offeredTools ? state.tools.filter((t) => event.offeredTools!.includes(t.name)) : state.tools
  if (event.offeredTools && state.systemPromptBase !== null) messages = withOfferedTools(messages, state.protocol, tools, state.systemPromptBase)
  return { messages, tools }
}
