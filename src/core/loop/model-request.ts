/**
 * What the model receives at a decide — the one place that says so. The runner asks the model
 * with it; the inspector's *Model context* rebuilds it from the log with the same function.
 */
import type { Message } from '../messages'
import type { ToolSpec } from '../tools/types'
import { windowMessages } from './context-window'
import type { ModelRequest } from './interfaces'
import type { LoopState } from './reducer'
import { withOfferedTools } from './system-prompt'

/** The user message that asks for an answer once max steps is reached (with `finalTurnWithoutTools`). */
export const FINAL_TURN_NOTICE = 'You have used all the steps available for tools. Answer the user now with what you have, without calling any tool.'

/** The settings a request depends on. */
export interface RequestSettings {
  /** Messages kept besides the leading system messages (0 = all); see `windowMessages`. */
  contextWindow: number
  /** The tools-disabled turn after max steps: no tools, and the final-turn notice appended. */
  finalTurn: boolean
}

/** A request as sent, with what the log records about how it was cut. */
export interface PlannedRequest {
  request: ModelRequest
  /** The decide's index (`request.step`). */
  step: number
  /** The slice `[from, to)` of the conversation sent besides the leading system messages. */
  window: { from: number; to: number }
  /** True when the window left messages out (then `model.responded` records `window`). */
  windowed: boolean
  finalTurn: boolean
  /** The router's choice, when one was applied. */
  offeredTools: string[] | null
}

/**
 * Exactly what the model receives: the conversation after the context window, the final-turn
 * notice on the tools-disabled turn, the tools offered (all, the router's choice, or none on the
 * final turn) and — when a router narrowed the tools and the user's prompt text is known — the
 * system prompt rebuilt to list only those tools. `routed` is the router's answer (tool names),
 * or `null` when there is no router or it offered everything; it is ignored on the final turn.
 * Pure; O(messages + tools).
 */
export function modelRequest(
  state: Pick<LoopState, 'messages' | 'tools' | 'step' | 'protocol' | 'systemPromptBase'>,
  settings: RequestSettings,
  routed: readonly string[] | null,
): PlannedRequest {
  const window = windowMessages(state.messages, settings.contextWindow)
  const offered = settings.finalTurn ? null : routed
  let tools: ToolSpec[] = state.tools
  let messages: Message[] = window.messages
  if (settings.finalTurn) {
    tools = []
    messages = [...messages, { role: 'user', content: FINAL_TURN_NOTICE }]
  } else if (offered) {
    const names = new Set(offered)
    tools = state.tools.filter((tool) => names.has(tool.name))
    // The system prompt lists the tools: rebuild it so routed-away tools are not shown.
    if (state.systemPromptBase !== null) messages = withOfferedTools(messages, state.protocol, tools, state.systemPromptBase)
  }
  return {
    request: { messages, tools, step: state.step, protocol: state.protocol },
    step: state.step,
    window: { from: window.from, to: window.to },
    windowed: window.from > window.head,
    finalTurn: settings.finalTurn,
    offeredTools: offered ? [...offered] : null,
  }
}
