/**
 * Exactly what the model received at a decide, rebuilt from the log with the engine's own
 * `modelRequest`: the conversation before that turn, cut to the context window, the final-turn
 * notice, and the tools that were offered (with the system prompt rebuilt for them).
 */
import type { Message } from '../../messages'
import type { ToolSpec } from '../../tools/types'
import type { SessionEvent } from '../events'
import { modelRequest } from '../model-request'
import { createFoldCache } from '../fold-cache'
import { fold, type LoopState } from '../reducer'

/** The request of the decide at `events[index]` (a `model.responded`/`model.failed` event), or the next one to be made when `index` is any other event. */
/**
 * `foldTo(events, i)` is the state after `events[0..i]` (default: folds that prefix, O(i)); a
 * caller that asks again and again passes a fold cache's `foldTo` so each call is not a walk of
 * the whole log.
 */
export function requestAt(
  events: readonly SessionEvent[],
  index: number,
  foldTo: (events: readonly SessionEvent[], index: number) => LoopState = (all, upTo) => fold(all.slice(0, upTo + 1)),
): { messages: Message[]; tools: ToolSpec[] } {
  const event = events[index]
  const decided = event?.type === 'model.responded' || event?.type === 'model.failed'
  const state = foldTo(events, decided ? index - 1 : index)
  if (event?.type !== 'model.responded') return { messages: [...state.conversation], tools: state.tools }
  // A logged window is what was cut; without one, all messages were sent (also for old logs).
  const settings = { contextWindow: event.window ? state.settings.contextWindow : 0, finalTurn: event.finalTurn === true }
  const { request } = modelRequest(state, settings, event.offeredTools ?? null)
  return { messages: request.messages, tools: request.tools }
}

/**
 * {@link requestAt} for a log looked at again and again (the inspector, on every update of a
 * live run): folds through a fold cache, and answers again without work while the event at
 * `index` is the same object (the request depends only on `events[0..index]`, and a live run
 * only appends; a new log has new event objects). The answer is shared: do not change it.
 */
export function createRequestCache(): (events: readonly SessionEvent[], index: number) => { messages: Message[]; tools: ToolSpec[] } {
  const folds = createFoldCache()
  let key: { event: SessionEvent | undefined; index: number } | null = null
  let answer: { messages: Message[]; tools: ToolSpec[] } = { messages: [], tools: [] }
  return (events, index) => {
    const event = events[index]
    if (key && key.event === event && key.index === index && event !== undefined) return answer
    answer = requestAt(events, index, folds.foldTo)
    key = { event, index }
    return answer
  }
}
