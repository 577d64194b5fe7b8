/**
 * The two small interfaces through which the engine talks to the outside world.
 * The sandbox implements both for user code; tests implement them in-process.
 */
import type { Message, ToolCall } from '../messages'
import type { ToolSpec } from '../tools/types'

/** What the model is asked with at each decide phase. */
export interface ModelRequest {
  /** The conversation so far, system prompt first. */
  messages: Message[]
  /** The tools offered at this step. */
  tools: ToolSpec[]
  /** 0-based index of this decide phase within the run. */
  step: number
  /** Id of the wire format the model is expected to speak. */
  protocol: string
}

/**
 * What a model returns: raw text (parsed by the chosen protocol) or a native assistant
 * message in OpenAI Chat Completions shape (`tool_calls[].function.arguments` is a JSON string).
 */
export type ModelOutput =
  | { kind: 'text'; raw: string }
  | { kind: 'message'; message: NativeAssistantMessage }

/** An assistant message as the OpenAI Chat Completions API returns it. */
export interface NativeAssistantMessage {
  role?: 'assistant'
  content: string | null
  tool_calls?: { id?: string; type?: 'function'; function: { name: string; arguments: string } }[]
}

/** Asks the model for its next output. Rejects with an `Error` whose message is shown to the user. */
export interface Model {
  respond(request: ModelRequest): Promise<ModelOutput>
}

/** Outcome of running one tool call. Never a thrown error: failures are values. */
export type ToolOutcome =
  | { ok: true; result: string; durationMs: number }
  | { ok: false; error: string; durationMs: number; timedOut: boolean }

/** Runs tool calls. Implementations enforce the per-call timeout (`ToolSpec.timeoutMs`, default 5000 ms). */
export interface ToolExecutor {
  execute(call: ToolCall, spec: ToolSpec): Promise<ToolOutcome>
}
