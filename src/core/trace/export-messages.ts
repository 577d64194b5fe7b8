/**
 * Exporting canonical conversations to provider wire formats, so a replayed or live session
 * can be sent to a real model or fed to another tool.
 *
 * - OpenAI Chat Completions (`messages` of the request; API reference "Create chat completion"),
 *   written by the one wire serializer, `core/wire/openai-chat`, with `arguments` re-encoded for
 *   the target: `JSON.stringify` of the decoded object, so a double-encoded or leniently repaired
 *   log is exported as the clean JSON string the API expects; only arguments that never decoded
 *   (cut off, junk) keep their logged string, as the model sent it.
 * - Ollama `/api/chat` (`messages`; Ollama API docs, "Chat request (with tools)"): like OpenAI,
 *   but `tool_calls[].function.arguments` is an object, calls carry no `type`, and a tool message
 *   carries `tool_name` (Ollama pairs results by order and name, not by id).
 * - Anthropic Messages (request `system` + `messages`; tool-use guide): `tool_use.input` as an
 *   object (arguments that did not parse become `{}`); all results of one assistant turn batched
 *   in one user message of `tool_result` blocks, in log order; `is_error` kept; text that
 *   follows the results joins the same user message (the API wants roles to alternate);
 *   every system message joins the top-level `system`, in order.
 *
 * Every call id is unique in what they write: a provider rejects a request whose ids repeat
 * (Anthropic: `tool_use` ids must be unique; OpenAI pairs each tool message with one call by id), yet
 * some models reuse one (`call_1` in every turn). A later call that reuses an id is sent as
 * `ID_2` (`ID_3`, … the first name the conversation does not use), and so are the results of
 * its turn that answer it; `requestExport` says which ids it renamed.
 *
 * All make sure every call has a result: a call that no tool message answers before the next
 * assistant turn gets a synthetic error result, `MISSING_RESULT_TEXT`, placed after the turn's
 * logged results. Results answering no call of the turn are exported where they are, so a
 * provider rejects them just as it would have rejected the original.
 *
 * Normalisation, i.e. what a round trip through an export does not keep:
 * OpenAI has no error flag on tool messages (`isError` is dropped) and tool messages carry no
 * name (it is recovered from the call on import); Anthropic has no raw arguments string
 * (`rawArguments` is dropped; unparseable arguments become `{}`), no empty assistant turns
 * (`content: null` without calls is exported as an empty text) and no system messages after
 * the start (they move to `system`).
 *
 * Pure.
 */
import type { JsonValue, Message, ToolCall } from '../messages'
import type { JsonSchema, ToolSpec } from '../tools/types'
import { toOpenAIMessage, type OpenAIChatMessage } from '../wire/openai-chat'
import type { Phrase } from '../util/phrase'
import { readArguments } from './arguments'
import { tracePhrase } from './trace-text'

export type { OpenAIChatMessage, OpenAIToolCall } from '../wire/openai-chat'

/** Text of the synthetic error result given to a call that has none in the log. */
export const MISSING_RESULT_TEXT = 'Error: no result was recorded for this tool call.'

/** An Anthropic content block of the kinds Toolstep writes. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, JsonValue> }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: true }

/** An Anthropic Messages request message. */
export interface AnthropicMessage {
  role: 'user' | 'assistant'
  /** A string for plain text turns, blocks otherwise. */
  content: string | AnthropicBlock[]
}

/** The conversation part of an Anthropic Messages request. */
export interface AnthropicConversation {
  /** All system messages joined by a blank line; absent when there are none. */
  system?: string
  messages: AnthropicMessage[]
}

/** A call id the export renamed: the call in message `message` reused `from`, and is sent as `to`. */
export interface RenamedCallId {
  from: string
  to: string
  message: number
}

/**
 * A copy of the conversation in which no two calls share an id: a call reusing an earlier call's
 * id (in its own turn or before) is renamed to the first free `ID_n` (n ≥ 2, not used anywhere in
 * the conversation), and the results of its turn that carry the old id follow their call, in
 * order (two results of `call_1` in a turn with two `call_1` calls answer the first and the second).
 * Results that answer no call of their turn keep their id. Pure.
 */
export function withUniqueCallIds(messages: readonly Message[]): { messages: Message[]; renamed: RenamedCallId[] } {
  const used = new Set<string>()
  for (const message of messages) {
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) used.add(call.id)
    else if (message.role === 'tool') used.add(message.tool_call_id)
  }
  const renamed: RenamedCallId[] = []
  const seen = new Set<string>()
  // The turn's calls by their logged id, as sent, in order: what its results are matched against.
  let waiting = new Map<string, string[]>()
  const out = messages.map((message, index): Message => {
    if (message.role === 'tool') {
      const sent = waiting.get(message.tool_call_id)?.shift()
      return sent === undefined || sent === message.tool_call_id ? message : { ...message, tool_call_id: sent }
    }
    // The turn's results end at the first message that is not a result (as in withEveryResult).
    waiting = new Map()
    if (message.role !== 'assistant' || !message.tool_calls) return message
    let changed = false
    const calls = message.tool_calls.map((call) => {
      let id = call.id
      if (seen.has(id)) {
        let n = 2
        while (used.has(`${call.id}_${n}`)) n++
        id = `${call.id}_${n}`
        used.add(id)
        renamed.push({ from: call.id, to: id, message: index })
        changed = true
      }
      seen.add(id)
      waiting.set(call.id, [...(waiting.get(call.id) ?? []), id])
      return id === call.id ? call : { ...call, id }
    })
    return changed ? { ...message, tool_calls: calls } : message
  })
  return { messages: out, renamed }
}

/**
 * A copy of the conversation in which every call is answered before the next assistant turn:
 * missing results are added (as error tool messages) right after the turn's logged results.
 */
function withEveryResult(messages: readonly Message[]): Message[] {
  const out: Message[] = []
  let open: ToolCall[] = []
  const close = (): void => {
    for (const call of open) out.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: MISSING_RESULT_TEXT, isError: true })
    open = []
  }
  for (const message of messages) {
    if (message.role === 'tool') {
      const at = open.findIndex((call) => call.id === message.tool_call_id)
      if (at >= 0) open.splice(at, 1)
    } else {
      // The turn's results end at the first message that is not a result.
      close()
      if (message.role === 'assistant') open = [...(message.tool_calls ?? [])]
    }
    out.push(message)
  }
  close()
  return out
}

/**
 * Export to OpenAI Chat Completions request messages. Pure.
 *
 * @returns Messages in order, with a synthetic error result (see `MISSING_RESULT_TEXT`) for
 *   every call the log leaves unanswered.
 */
export function exportOpenAI(messages: readonly Message[]): OpenAIChatMessage[] {
  return withEveryResult(withUniqueCallIds(messages).messages).map((message) =>
    toOpenAIMessage(message.role === 'assistant' && message.tool_calls ? { ...message, tool_calls: message.tool_calls.map(reencoded) } : message),
  )
}

/**
 * A call whose `rawArguments` are dropped, so the writer re-serializes its decoded arguments;
 * kept only when the raw string never decoded to the arguments (`{}` from a cut-off string).
 */
function reencoded(call: ToolCall): ToolCall {
  if (call.rawArguments === undefined) return call
  const undecoded = Object.keys(call.arguments).length === 0 && readArguments(call.rawArguments).problem !== undefined
  if (undecoded) return call
  const { rawArguments: _raw, ...rest } = call
  return rest
}

/** An Ollama `/api/chat` message (see the module header). */
export type OllamaMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: { function: { name: string; arguments: Record<string, JsonValue> } }[] }
  | { role: 'tool'; content: string; tool_name: string }

/**
 * Export to Ollama `/api/chat` messages. Pure.
 *
 * @returns Messages in order (every call answered, as for OpenAI); `content` is always a string
 *   (Ollama has no `null`), arguments are objects.
 */
export function exportOllama(messages: readonly Message[]): OllamaMessage[] {
  return withEveryResult(messages).map((message): OllamaMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content }
      case 'tool':
        return { role: 'tool', content: message.content, tool_name: message.name }
      case 'assistant': {
        const calls = message.tool_calls ?? []
        return calls.length === 0
          ? { role: 'assistant', content: message.content ?? '' }
          : { role: 'assistant', content: message.content ?? '', tool_calls: calls.map((call) => ({ function: { name: call.name, arguments: call.arguments } })) }
      }
    }
  })
}

/**
 * Export to an Anthropic Messages request (`system` and `messages`). Pure.
 *
 * @returns The system prompt (when any) and alternating user/assistant messages; every call's
 *   result is in the user message right after it, a missing one as a synthetic error result.
 */
export function exportAnthropic(messages: readonly Message[]): AnthropicConversation {
  const system: string[] = []
  const out: AnthropicMessage[] = []
  const append = (role: AnthropicMessage['role'], blocks: AnthropicBlock[]): void => {
    const last = out[out.length - 1]
    if (last && last.role === role) {
      const existing: AnthropicBlock[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content
      last.content = [...existing, ...blocks]
      return
    }
    // A lone text block reads better, and round-trips the same, as plain string content.
    const only = blocks[0]
    out.push({ role, content: blocks.length === 1 && only?.type === 'text' ? only.text : blocks })
  }
  for (const message of withEveryResult(withUniqueCallIds(messages).messages)) {
    switch (message.role) {
      case 'system':
        system.push(message.content)
        break
      case 'user':
        append('user', [{ type: 'text', text: message.content }])
        break
      case 'tool':
        append('user', [{ type: 'tool_result', tool_use_id: message.tool_call_id, content: message.content, ...(message.isError ? { is_error: true as const } : {}) }])
        break
      case 'assistant': {
        const blocks: AnthropicBlock[] = []
        if (message.content !== null && message.content !== '') blocks.push({ type: 'text', text: message.content })
        for (const call of message.tool_calls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments })
        if (blocks.length === 0) blocks.push({ type: 'text', text: '' })
        append('assistant', blocks)
        break
      }
    }
  }
  return { ...(system.length > 0 ? { system: system.join('\n\n') } : {}), messages: out }
}

/** A tool definition in Chat Completions request shape. */
export interface OpenAIToolDefinition {
  type: 'function'
  function: { name: string; description: string; parameters: JsonSchema }
}

/** A tool definition in Anthropic Messages request shape. */
export interface AnthropicToolDefinition {
  name: string
  description: string
  input_schema: JsonSchema
}

/** A Chat Completions request body: `messages`, and `tools` when any were offered. */
export interface OpenAIRequestBody {
  messages: OpenAIChatMessage[]
  tools?: OpenAIToolDefinition[]
}

/** An Anthropic Messages request body: `system` (when any), `messages`, and `tools` when any were offered. */
export interface AnthropicRequestBody extends AnthropicConversation {
  tools?: AnthropicToolDefinition[]
}

/** An Ollama `/api/chat` request body: `messages`, and `tools` (OpenAI's shape) when any were offered. */
export interface OllamaRequestBody {
  messages: OllamaMessage[]
  tools?: OpenAIToolDefinition[]
}

/** A provider to export a conversation's request body for. */
export type ExportTarget = 'openai' | 'anthropic' | 'ollama'

/** Every export target, in menu order. */
export const EXPORT_TARGETS: readonly ExportTarget[] = ['openai', 'anthropic', 'ollama']

/**
 * The Chat Completions request body for a conversation and the tools it offered (API reference
 * "Create chat completion": `tools[].type: 'function'`, `function.name / description / parameters`).
 * `tools` is left out when there are none, as the API rejects an empty array. Pure.
 */
export function exportOpenAIRequest(messages: readonly Message[], tools: readonly ToolSpec[] = []): OpenAIRequestBody {
  const definitions = tools.map((tool): OpenAIToolDefinition => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }))
  return { messages: exportOpenAI(messages), ...(definitions.length > 0 ? { tools: definitions } : {}) }
}

/**
 * The Anthropic Messages request body for a conversation and the tools it offered (tool-use
 * guide: `tools[]` of `{name, description, input_schema}`); `tools` is left out when there are none. Pure.
 */
export function exportAnthropicRequest(messages: readonly Message[], tools: readonly ToolSpec[] = []): AnthropicRequestBody {
  const definitions = tools.map((tool): AnthropicToolDefinition => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }))
  return { ...exportAnthropic(messages), ...(definitions.length > 0 ? { tools: definitions } : {}) }
}

/** The Ollama `/api/chat` request body for a conversation and its tools (Ollama takes OpenAI's `tools` shape). Pure. */
export function exportOllamaRequest(messages: readonly Message[], tools: readonly ToolSpec[] = []): OllamaRequestBody {
  const definitions = tools.map((tool): OpenAIToolDefinition => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }))
  return { messages: exportOllama(messages), ...(definitions.length > 0 ? { tools: definitions } : {}) }
}

/** The request body for `target` (see `exportOpenAIRequest` / `exportAnthropicRequest` / `exportOllamaRequest`). Pure. */
export function exportRequest(target: ExportTarget, messages: readonly Message[], tools: readonly ToolSpec[] = []): OpenAIRequestBody | AnthropicRequestBody | OllamaRequestBody {
  if (target === 'ollama') return exportOllamaRequest(messages, tools)
  return target === 'openai' ? exportOpenAIRequest(messages, tools) : exportAnthropicRequest(messages, tools)
}

/** A request body for a target and what the export changed that the user should know. */
export interface RequestExport {
  body: OpenAIRequestBody | AnthropicRequestBody | OllamaRequestBody
  /** Call ids sent under a new name because an earlier call had used them (none for Ollama, which sends no ids). */
  renamed: RenamedCallId[]
  /** When ids were renamed: which, as a phrase of `TRACE_TEXT` (`exportRenamedIds`). */
  warning?: Phrase
}

/**
 * `exportRequest`'s body for `target`, with the call ids it renamed and a warning naming them
 * (`call_1 → call_1_2`), so the user knows the request differs from the log. Pure.
 */
export function requestExport(target: ExportTarget, messages: readonly Message[], tools: readonly ToolSpec[] = []): RequestExport {
  const body = exportRequest(target, messages, tools)
  const renamed = target === 'ollama' ? [] : withUniqueCallIds(messages).renamed
  if (renamed.length === 0) return { body, renamed }
  const renames = renamed.map((entry) => `${entry.from} → ${entry.to}`).join(', ')
  return { body, renamed, warning: tracePhrase('exportRenamedIds', { count: renamed.length, renames }) }
}
