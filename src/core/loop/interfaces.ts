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
 * `finishReason` is the provider's `finish_reason` when known; `length` (the token limit cut the
 * output) lets a cut-off call's error say so.
 */
export type ModelOutput =
  | { kind: 'text'; raw: string; timing?: ResponseTiming; finishReason?: string }
  | { kind: 'message'; message: NativeAssistantMessage; timing?: ResponseTiming; finishReason?: string }

/** One raw SSE `data:` payload of a streamed model response, as received. */
export interface StreamChunk {
  /** Arrival time, ms after the request was sent. */
  atMs: number
  /** The `data:` field, verbatim (`[DONE]` included). */
  data: string
}

/** How long a model call took and, when streamed, what arrived when (endpoint models report it). */
export interface ResponseTiming {
  /** From sending the request to the end of the response, ms. */
  totalMs: number
  /** Time to first token: from sending to the first chunk with content or a tool call, ms. Streams only. */
  firstTokenMs?: number
  /** Every chunk of a streamed response, in order. */
  chunks?: StreamChunk[]
}

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
  | {
      ok: false
      error: string
      durationMs: number
      timedOut: boolean
      /**
       * The call did nothing wrong: it was stopped because another call sharing its sandbox timed
       * out (or ran out of memory, or the sandbox was reloaded). It is reported as failed and
       * never run again: it may already have had effects.
       */
      interrupted?: boolean
      /**
       * A timed-out call: what the executor saw beyond the timeout (where the code was stopped).
       * The loop writes the sentence with the measured duration and the limit, and appends this.
       */
      detail?: string
    }

/** Runs tool calls. Implementations enforce the per-call timeout (`ToolSpec.timeoutMs`, default 5000 ms). */
export interface ToolExecutor {
  execute(call: ToolCall, spec: ToolSpec): Promise<ToolOutcome>
}

/** Picks which tools are offered at a decide (a user-written `route` in tools.ts). */
export interface ToolRouter {
  /** Names of the tools to offer, or `null` when no router is defined (offer all). Rejects with an Error naming the problem. */
  route(request: ModelRequest): Promise<string[] | null>
}

/** Shortens a long tool result (a user-written `summarize` in tools.ts). */
export interface ResultSummarizer {
  /** The shortened result, or `null` when no summarizer is defined. Rejects with an Error naming the problem. */
  summarize(result: string, context: { tool: string; maxChars: number }): Promise<string | null>
}

/** One tool call made by code-as-action code. */
export interface CodeToolCall {
  name: string
  arguments: Record<string, unknown>
  /** Result as text (JSON unless the tool returned a string). */
  result?: string
  error?: string
  /** Wall time of the call, ms. */
  durationMs: number
}

/** Outcome of running a code-as-action block. */
export interface CodeOutcome {
  ok: boolean
  /** What the code printed with console.log/info/warn/error, one line per call, capped at `maxOutputChars`. */
  output: string
  /** Error thrown by the code (or the timeout message). */
  error?: string
  /** Tool calls the code made, in the order they were made. */
  calls: CodeToolCall[]
  /** Wall time, ms. */
  durationMs: number
  timedOut: boolean
  /** True when `output` was cut at `maxOutputChars`. */
  truncated: boolean
}

/** Runs a JavaScript/TypeScript block with the tools in scope as async functions (code-as-action). */
export interface CodeRunner {
  runCode(code: string, options: { timeoutMs: number; maxOutputChars: number }): Promise<CodeOutcome>
}
