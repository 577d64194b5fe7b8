/**
 * Exactly what the model received at a decide, rebuilt from the log with the engine's own
 * `modelRequest`: the conversation before that turn, cut to the context window, the final-turn
 * notice, and the tools that were offered (with the system prompt rebuilt for them).
 */
import type { Message } from '../../messages'
import type { ToolSpec } from '../../tools/types'
import type { SessionEvent } from '../events'
import { modelRequest } from '../model-request'
import { fold } from '../reducer'

/** The request of the decide at `events[index]` (a `model.responded`/`model.failed` event), or the next one to be made when `index` is any other event. */
export function requestAt(events: readonly SessionEvent[], index: number): { messages: Message[]; tools: ToolSpec[] } {
  const event = events[index]
  const decided = event?.type === 'model.responded' || event?.type === 'model.failed'
  const state = fold(events.slice(0, decided ? index : index + 1))
  if (event?.type !== 'model.responded') return { messages: [...state.conversation], tools: state.tools }
  // A logged window is what was cut; without one, all messages were sent (also for old logs).
  const settings = { contextWindow: event.window ? state.settings.contextWindow : 0, finalTurn: event.finalTurn === true }
  const { request } = modelRequest(state, settings, event.offeredTools ?? null)
  return { messages: request.messages, tools: request.tools }
}
