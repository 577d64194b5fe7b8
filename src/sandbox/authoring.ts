/**
 * The authoring API that user code imports: `import { tool, z } from 'toolstep'`.
 *
 * `tools.ts` exports tools made with {@link tool} (named exports, or a default object whose keys
 * are the tool names); `model.ts` default-exports a {@link ModelFunction}. The shape of `tool()`
 * follows the Vercel AI SDK so a tool definition moves between the two unchanged.
 *
 * This module runs inside the sandbox (and in unit tests); it must stay free of DOM and Node APIs.
 * The editor's declarations of `toolstep` are generated from this file (scripts/authoring-types.ts),
 * so its types and TSDoc are what users see; keep its types to core, the sandbox and zod.
 */
import { z } from 'zod'
// The editor's declarations are generated from this file: take the one type from its own module, not the loop's whole surface.
import type { NativeAssistantMessage } from '../core/loop/interfaces'
import type { JsonValue, Message, ToolMessage } from '../core/messages'
import type { ToolSpec } from '../core/tools/types'
import { getProtocol } from '../core/protocols/index'
import { isJsonObject } from '../core/util'
import { openAIArguments, toOpenAIAssistant } from '../core/wire'
import { takeCallId } from './call-ids'
import { TOOL_MARKER } from './tool-marker'

export { z }
export type {
  AssistantMessage,
  JsonValue,
  Message,
  SystemMessage,
  ToolCall,
  ToolMessage,
  UserMessage,
} from '../core/messages'
export type { NativeAssistantMessage } from '../core/loop/interfaces'
export type { ToolSpec } from '../core/tools/types'

/** Second argument of `execute`, as in the Vercel AI SDK. */
export interface ToolExecutionOptions {
  /** The `tool_call_id` of the call being executed. */
  toolCallId: string
}

/**
 * A tool definition. `execute` receives the arguments after they were parsed by `inputSchema`
 * (defaults applied); what it returns is written back to the model: a string as-is, anything else
 * as JSON. Throwing (or rejecting) writes the error message back instead.
 */
export interface ToolDefinition<Schema extends z.ZodType = z.ZodType, Result = unknown> {
  /**
   * Full name of the tool (`'weather.current'`), when it should differ from the export it is
   * found under. Without it the name is the export's key, prefixed by its namespace object's key.
   */
  name?: string
  /** One-line description shown to the model. */
  description: string
  /** Zod schema of the arguments object; converted to JSON Schema for the model. */
  inputSchema: Schema
  /** Runs the tool. */
  execute: (args: z.output<Schema>, options: ToolExecutionOptions) => Result | Promise<Result>
  /** When true the loop asks the user to approve each call before it runs. */
  dangerous?: boolean
  /** Hard per-call timeout in ms (default 5000). On timeout the sandbox is stopped and restarted. */
  timeoutMs?: number
  /** Other names the model may use for this tool (e.g. a legacy name). */
  aliases?: string[]
  /**
   * Other names the model may use for an argument, mapped to the real one: `{ city_name: 'city' }`
   * renames `city_name` to `city` before validation (when `city` itself is absent).
   */
  argumentAliases?: Record<string, string>
}

/**
 * Defines a tool. Returns the definition itself (typed so that `execute`'s parameter is inferred
 * from `inputSchema`), marked so the sandbox can tell tools from other exports.
 * Does not validate: problems are reported with the tool's name when `tools.ts` is loaded.
 */
export function tool<Schema extends z.ZodType, Result>(
  definition: ToolDefinition<Schema, Result>,
): ToolDefinition<Schema, Result> {
  if (typeof definition === 'object' && definition !== null) {
    Object.defineProperty(definition, TOOL_MARKER, { value: true, enumerable: false })
  }
  return definition
}

/** What `model.ts`'s default export receives at each decide phase. */
export interface ModelContext {
  /** The conversation so far, system prompt first. */
  messages: Message[]
  /** The tools offered at this step. */
  tools: ToolSpec[]
  /** 0-based index of this decide phase within the run. */
  step: number
  /** Id of the wire format the model is expected to speak (`openai`, `json`, `xml-tag`, …). */
  protocol: string
}

/**
 * What a model returns: raw text (parsed by the chosen protocol) or a native assistant message
 * in OpenAI Chat Completions shape (`tool_calls[].function.arguments` is a JSON string; an object
 * is accepted and stringified for convenience).
 */
export type ModelResult = string | NativeAssistantMessage

/** The shape of `model.ts`'s default export. May be async. */
export type ModelFunction = (ctx: ModelContext) => ModelResult | Promise<ModelResult>

/**
 * What the `route` hook of `tools.ts` receives at each decide phase:
 * `export function route({ messages, tools, step }: RouteContext): string[]`.
 */
export interface RouteContext {
  /** The conversation so far, system prompt first (after the context window is applied). */
  messages: Message[]
  /** Every tool `tools.ts` declares; the hook returns the names of those to offer. */
  tools: ToolSpec[]
  /** 0-based index of this decide phase within the run. */
  step: number
  /** Id of the wire format the model is expected to speak. */
  protocol: string
}

/**
 * The shape of the `route` hook: returns the names of the tools to offer at this step (sync or
 * async). Aliases are accepted; a namespace name (`'weather'`) offers every tool in it. An unknown
 * name is an error, and so is taking longer than the model timeout.
 */
export type RouteFunction = (ctx: RouteContext) => readonly string[] | Promise<readonly string[]>

/** What the `summarize` hook of `tools.ts` receives besides the result. */
export interface SummarizeContext {
  /** Name of the tool that produced the result. */
  tool: string
  /** The result budget, in characters: the summary should be at most this long. */
  maxChars: number
}

/**
 * The shape of the `summarize` hook: shortens a tool result that is longer than the budget
 * (sync or async). Must return a string.
 */
export type SummarizeFunction = (result: string, ctx: SummarizeContext) => string | Promise<string>

/** One call for {@link callTools}. */
export interface CallRequest {
  /** Tool name as the model should write it. */
  name: string
  /**
   * Arguments object, or a string written to the wire verbatim (to show what a parser does with
   * malformed JSON).
   */
  arguments: { [key: string]: JsonValue } | string
  /** `tool_call_id` for native messages; {@link nextCallId} when omitted. */
  id?: string
}

/** Content of the latest user message, or `''` when there is none. */
export function lastUserMessage(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]
    if (message?.role === 'user') return message.content
  }
  return ''
}

/**
 * The tool messages that end the conversation, i.e. the results the model has not answered yet,
 * in call order. Empty when the conversation does not end with tool messages.
 */
export function toolResults(messages: readonly Message[]): ToolMessage[] {
  let start = messages.length
  while (start > 0 && messages[start - 1]?.role === 'tool') start -= 1
  return messages.slice(start) as ToolMessage[]
}

/** The last of {@link toolResults}: the newest unanswered tool result, or `undefined`. */
export function lastToolResult(messages: readonly Message[]): ToolMessage | undefined {
  const results = toolResults(messages)
  return results[results.length - 1]
}

/**
 * A fresh `tool_call_id`, `call_<step>_<n>`: unique within a run and the same on every run of the
 * same workspace, so sessions replay identically.
 */
export function nextCallId(): string {
  return takeCallId()
}

/**
 * Writes tool calls in the wire format `protocol` speaks, with optional prose:
 * `openai` → a native assistant message with `tool_calls` (arguments as a JSON string);
 * `xml-tag` and `hermes` → `<tool_call>{"name":…,"arguments":…}</tool_call>` per call;
 * `json` → a fenced ```json {"tool":…,"arguments":…}``` block per call (string arguments verbatim);
 * any other id → that protocol's own markup (`Protocol.render`; string arguments are decoded first).
 */
export function callTools(protocol: string, calls: readonly CallRequest[], text?: string): ModelResult {
  if (protocol === 'openai') return toOpenAIAssistant(text ?? null, calls.map((call) => ({ id: call.id ?? nextCallId(), name: call.name, arguments: call.arguments })))
  // json and xml-tag keep string arguments verbatim, so examples can show malformed JSON on the wire.
  if (protocol === 'json' || protocol === 'xml-tag' || protocol === 'hermes') {
    const blocks = calls.map((call) => {
      const name = JSON.stringify(call.name)
      return protocol === 'json'
        ? '```json\n{"tool": ' + name + ', "arguments": ' + openAIArguments(call) + '}\n```'
        : `<tool_call>{"name": ${name}, "arguments": ${openAIArguments(call)}}</tool_call>`
    })
    return [text, ...blocks].filter((part) => part !== undefined && part !== '').join('\n\n')
  }
  // Every other format writes its own markup (Protocol.render); unknown ids fall back to Hermes tags.
  const target = getProtocol(protocol) ?? getProtocol('xml-tag')
  const rendered = calls.map((call) => ({
    name: call.name,
    arguments: typeof call.arguments === 'string' ? parseArguments(call.arguments) : call.arguments,
    ...(call.id === undefined ? {} : { id: call.id }),
  }))
  return target ? target.render({ ...(text === undefined ? {} : { text }), calls: rendered }) : ''
}

function parseArguments(text: string): Record<string, JsonValue> {
  try {
    const value: unknown = JSON.parse(text)
    return isJsonObject(value) ? value : {}
  } catch {
    return {}
  }
}

/**
 * A final answer (no tool call) in the shape `protocol` expects: a native assistant message for
 * `openai`, plain text otherwise.
 */
export function answer(protocol: string, text: string): ModelResult {
  return protocol === 'openai' ? { role: 'assistant', content: text } : text
}
