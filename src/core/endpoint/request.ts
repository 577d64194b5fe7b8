/**
 * The Chat Completions request body for one decide phase (OpenAI API reference, "Create chat
 * completion": `model`, `messages`, `tools`, `temperature`, `stream`).
 *
 * - native `openai` wire format: the conversation as Chat Completions messages and the offered
 *   tools in `tools` (`{type: "function", function: {name, description, parameters}}`, the
 *   parameters being each tool's JSON Schema); no `tools` key when none is offered;
 * - any text format: no `tools`. The system prompt already carries the tool list and the
 *   format's instructions (as the mock model receives them). Earlier assistant turns are written
 *   back in that format (`Protocol.render`), and each tool result as a user message, because a
 *   server without `tools` rejects `tool_calls` and `tool` messages.
 *
 * Pure.
 */
import type { Message } from '../messages'
import type { ToolSpec } from '../tools/types'
import { getProtocol } from '../protocols/index'
import { toOpenAIMessage, type OpenAIChatMessage } from '../wire/openai-chat'
import type { EndpointConfig } from './settings'

/** A function tool in Chat Completions `tools` shape. */
export interface OpenAIFunctionTool {
  type: 'function'
  function: { name: string; description: string; parameters: Record<string, unknown> }
}

/** The JSON body sent to `/chat/completions`. */
export interface ChatCompletionsBody {
  model: string
  messages: OpenAIChatMessage[]
  tools?: OpenAIFunctionTool[]
  temperature?: number
  stream: boolean
}

/** Tools in Chat Completions shape. */
export function toOpenAITools(tools: readonly ToolSpec[]): OpenAIFunctionTool[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }))
}

/** Writes the conversation for a text wire format (rules in the module header). */
export function textFormatMessages(messages: readonly Message[], protocolId: string): OpenAIChatMessage[] {
  const protocol = getProtocol(protocolId)
  return messages.map((message): OpenAIChatMessage => {
    if (message.role === 'assistant') {
      const calls = message.tool_calls ?? []
      if (calls.length === 0 || !protocol) return { role: 'assistant', content: message.content ?? '' }
      return { role: 'assistant', content: protocol.render({ ...(message.content ? { text: message.content } : {}), calls }) }
    }
    if (message.role === 'tool') {
      const label = message.isError ? 'Error from' : 'Result of'
      return { role: 'user', content: `${label} ${message.name} (call ${message.tool_call_id}):\n${message.content}` }
    }
    return toOpenAIMessage(message)
  })
}

/** The request body for `messages` + `tools` in wire format `protocolId`. */
export function chatCompletionsBody(config: EndpointConfig, input: { messages: readonly Message[]; tools: readonly ToolSpec[]; protocol: string }): ChatCompletionsBody {
  const native = getProtocol(input.protocol)?.native === true
  const messages = native ? input.messages.map(toOpenAIMessage) : textFormatMessages(input.messages, input.protocol)
  return {
    model: config.model,
    messages,
    ...(native && input.tools.length > 0 ? { tools: toOpenAITools(input.tools) } : {}),
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    stream: config.stream,
  }
}
