/**
 * The OpenAI Chat Completions wire format (API reference "Create chat completion": request
 * `messages`, and the response's `choices[].message`), written from Toolstep's canonical
 * messages. The one serializer for every place that writes it: exports, raw output logged for
 * native model turns, replayed turns, the `openai` protocol's rendering and the authoring
 * helper `callTools`.
 *
 * Rules:
 * - `arguments` is a JSON string: the call's `rawArguments` when it has them (so malformed or
 *   double-encoded arguments are written as they were), arguments already given as a string
 *   verbatim, else `JSON.stringify(arguments)`;
 * - an assistant message without calls has no `tool_calls` key (the API rejects `[]`);
 *   a missing `content` is written as `null`;
 * - key order follows the API's own responses: `role`, `content`, `tool_calls`; each call `id`,
 *   `type`, `function` (`name`, `arguments`); an absent or empty `id` is left out.
 * - tool messages carry `tool_call_id` and `content` only (the format has no name or error flag).
 *
 * Pure.
 */
import type { JsonValue, Message } from '../messages'

/** A tool call in Chat Completions wire shape. */
export interface OpenAIToolCall {
  id: string
  type: 'function'
  function: {
    name: string
    /** The arguments object as a JSON string. */
    arguments: string
  }
}

/** An assistant message in Chat Completions wire shape. */
export interface OpenAIAssistantMessage {
  role: 'assistant'
  content: string | null
  /** Present only when the turn calls tools. */
  tool_calls?: OpenAIToolCall[]
}

/** A Chat Completions request message. */
export type OpenAIChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | OpenAIAssistantMessage
  | { role: 'tool'; tool_call_id: string; content: string }

/** A call to write: a canonical `ToolCall`, or one whose arguments are already text. */
export interface WireCall {
  id: string
  name: string
  arguments: Readonly<Record<string, JsonValue>> | string
  rawArguments?: string
}

/**
 * An assistant message as it may arrive from user code or a native model: already in wire
 * shape, but with optional `id`, `type` and `content`. See {@link writeOpenAIAssistant}.
 */
export interface LooseAssistantMessage {
  content?: string | null
  tool_calls?: readonly { id?: string; function: { name: string; arguments: string } }[]
}

/** The `arguments` string of a call (rules in the module header). */
export function openAIArguments(call: Pick<WireCall, 'arguments' | 'rawArguments'>): string {
  if (call.rawArguments !== undefined) return call.rawArguments
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
}

/** A call in wire shape. */
export function toOpenAIToolCall(call: WireCall): OpenAIToolCall {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: openAIArguments(call) } }
}

/** An assistant turn in wire shape: `tool_calls` only when there are calls. */
export function toOpenAIAssistant(content: string | null, calls: readonly WireCall[] = []): OpenAIAssistantMessage {
  return calls.length === 0 ? { role: 'assistant', content } : { role: 'assistant', content, tool_calls: calls.map(toOpenAIToolCall) }
}

/** A canonical message as a Chat Completions request message (what the format cannot hold is dropped). */
export function toOpenAIMessage(message: Message): OpenAIChatMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content }
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content }
    case 'assistant':
      return toOpenAIAssistant(message.content, message.tool_calls)
  }
}

/**
 * The raw text of a native assistant turn: the message as the API returns it, pretty-printed with
 * 2-space indentation so the raw view is readable. Normalises a loose message (see
 * {@link LooseAssistantMessage}): `role` and `type` are added, `content` defaults to `null`, an
 * absent or empty `id` is left out, other fields are dropped.
 */
export function writeOpenAIAssistant(message: LooseAssistantMessage | OpenAIAssistantMessage): string {
  const calls = message.tool_calls ?? []
  const wire = {
    role: 'assistant',
    content: message.content ?? null,
    ...(calls.length > 0
      ? { tool_calls: calls.map((call) => ({ ...(call.id ? { id: call.id } : {}), type: 'function', function: { name: call.function.name, arguments: call.function.arguments } })) }
      : {}),
  }
  return JSON.stringify(wire, null, 2)
}
