/**
 * Canonical conversation types. They follow the OpenAI Chat Completions shape
 * (`system` / `user` / `assistant` / `tool` roles, tool results paired by `tool_call_id`)
 * except that a tool call's `arguments` are kept both parsed and as the raw string.
 */
import { z } from 'zod'

/** A JSON value (what tool arguments and results are made of). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/** A JSON object (the object member of {@link JsonValue}). */
export type JsonObject = { [key: string]: JsonValue }

export const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonValueSchema), z.record(z.string(), jsonValueSchema)]),
)

/** One tool call made by the assistant. */
export interface ToolCall {
  /** `tool_call_id`: the id that pairs this call with its tool message. Generated when the model gave none. */
  id: string
  /** Tool name as the model wrote it. */
  name: string
  /** Arguments as a parsed JSON object (`{}` when they could not be parsed; see `argumentsError`). */
  arguments: Record<string, JsonValue>
  /** The arguments exactly as they appeared on the wire (for native formats, the JSON string). */
  rawArguments?: string
}

export const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), jsonValueSchema),
  rawArguments: z.string().optional(),
})

export interface SystemMessage { role: 'system'; content: string }
export interface UserMessage { role: 'user'; content: string }
export interface AssistantMessage {
  role: 'assistant'
  /** User-visible text; `null` when the turn only calls tools. */
  content: string | null
  /** Parallel tool calls, in the order the model issued them. */
  tool_calls?: ToolCall[]
}
export interface ToolMessage {
  role: 'tool'
  /** The `id` of the call this message answers. */
  tool_call_id: string
  /** Name of the tool that produced the result. */
  name: string
  /** Result (or error) as text, exactly as written back to the model. */
  content: string
  /** True when `content` reports an error rather than a result. */
  isError?: boolean
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage

export const messageSchema: z.ZodType<Message> = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(toolCallSchema).optional() }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), name: z.string(), content: z.string(), isError: z.boolean().optional() }),
])
