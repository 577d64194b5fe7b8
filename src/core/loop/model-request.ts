/**
 * What the model receives at a decide — the one place that says so. The runner asks the model
 * with it; the inspector's *Model context* rebuilds it from the log with the same function.
 */
import type { Message } from '../messages'
import type { ToolSpec } from '../tools/types'
import { windowBounds } from './context-window'
import type { Conversation } from './conversation'
import type { ModelRequest } from './interfaces'
import type { LoopState } from './reducer'
import { buildSystemPrompt } from './system-prompt'

/** The user message that asks for an answer once max steps is reached (with `finalTurnWithoutTools`). */
export const FINAL_TURN_NOTICE = 'You have used all the steps available for tools. Answer the user now with what you have, without calling any tool.'

/** The settings a request depends on. */
export interface RequestSettings {
  /** Messages kept besides the leading system messages (0 = all); see `windowBounds`. */
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

/** One piece of a request's messages: the conversation's messages `[from, to)`, or a message of the request's own. */
export type RequestPart = { from: number; to: number } | { message: Message }

/**
 * How the messages of a request made by {@link modelRequest} are put together from the run's
 * conversation: `request.messages` is the concatenation of `parts`. A sandbox that keeps a copy
 * of the conversation on its side uses it to send only the messages it has not seen
 * (`conversation.since(…)`) and the parts, instead of the whole conversation at every step.
 */
export interface RequestLayout {
  conversation: Conversation
  parts: readonly RequestPart[]
}

const layouts = new WeakMap<ModelRequest, RequestLayout>()

/**
 * The layout of `request` when {@link modelRequest} made it and its `messages` were not replaced
 * since; `undefined` for any other request (which must then be read from `request.messages`).
 */
export function requestLayout(request: ModelRequest): RequestLayout | undefined {
  return layouts.get(request)
}

/** The messages a layout stands for, as a new array. O(messages). */
export function layoutMessages(layout: RequestLayout): Message[] {
  const out: Message[] = []
  for (const part of layout.parts) {
    if ('message' in part) out.push(part.message)
    else for (let index = part.from; index < part.to; index++) out.push(layout.conversation.at(index)!)
  }
  return out
}

/**
 * A request whose `messages` array is made on first read: a sandbox that reads only the layout
 * never pays for copying a long conversation. Assigning `messages` replaces them (and drops the
 * layout, which no longer describes them). The property is an own enumerable one, so spreading,
 * `JSON.stringify` and structured cloning see the messages as before.
 */
function layoutRequest(layout: RequestLayout, rest: Omit<ModelRequest, 'messages'>): ModelRequest {
  const request = {} as ModelRequest
  const settle = (messages: Message[]): void => {
    Object.defineProperty(request, 'messages', { value: messages, writable: true, enumerable: true, configurable: true })
  }
  Object.defineProperty(request, 'messages', {
    enumerable: true,
    configurable: true,
    get(): Message[] {
      const messages = layoutMessages(layout)
      settle(messages)
      return messages
    },
    set(messages: Message[]) {
      layouts.delete(request)
      settle(messages)
    },
  })
  Object.assign(request, rest)
  layouts.set(request, layout)
  return request
}

/**
 * Exactly what the model receives: the conversation after the context window, the final-turn
 * notice on the tools-disabled turn, the tools offered (all, the router's choice, or none on the
 * final turn) and — when a router narrowed the tools and the user's prompt text is known — the
 * system prompt rebuilt to list only those tools. `routed` is the router's answer (tool names),
 * or `null` when there is no router or it offered everything; it is ignored on the final turn.
 * Pure; O(system messages + window + tools), whatever the length of the conversation (a request
 * without a window reads its messages from the conversation on first use, see {@link requestLayout}).
 */
export function modelRequest(
  state: Pick<LoopState, 'conversation' | 'tools' | 'step' | 'protocol' | 'systemPromptBase'>,
  settings: RequestSettings,
  routed: readonly string[] | null,
): PlannedRequest {
  const conversation = state.conversation
  const window = windowBounds(conversation, settings.contextWindow)
  const offered = settings.finalTurn ? null : routed
  let tools: ToolSpec[] = state.tools
  const parts: RequestPart[] = []
  const range = (from: number, to: number): void => {
    if (from >= to) return
    const last = parts.at(-1)
    if (last && 'to' in last && last.to === from) parts[parts.length - 1] = { from: last.from, to }
    else parts.push({ from, to })
  }
  let start = 0
  if (offered) {
    const names = new Set(offered)
    tools = state.tools.filter((tool) => names.has(tool.name))
    // The system prompt lists the tools: rebuild it so routed-away tools are not shown.
    if (state.systemPromptBase !== null && conversation.at(0)?.role === 'system') {
      parts.push({ message: { role: 'system', content: buildSystemPrompt(state.protocol, tools, state.systemPromptBase) } })
      start = 1
    }
  }
  range(start, window.head)
  range(window.from, window.to)
  if (settings.finalTurn) {
    tools = []
    parts.push({ message: { role: 'user', content: FINAL_TURN_NOTICE } })
  }
  return {
    request: layoutRequest({ conversation, parts }, { tools, step: state.step, protocol: state.protocol }),
    step: state.step,
    window: { from: window.from, to: window.to },
    windowed: window.from > window.head,
    finalTurn: settings.finalTurn,
    offeredTools: offered ? [...offered] : null,
  }
}
