/**
 * `openai`: the native OpenAI Chat Completions assistant message,
 * `{"role": "assistant", "content": …, "tool_calls": [{"id", "type": "function", "function": {"name", "arguments"}}]}`,
 * serialised as JSON. `arguments` is a JSON string, which models get wrong in practice.
 */
import { readJson, type JsonSpanNode } from '../json'
import type { JsonValue } from '../messages'
import { isJsonObject, readCallObject } from './shared/call-object'
import { renderInstructions } from './shared/instructions'
import { ParseBuilder } from './shared/parse-builder'
import type { ParseResult, Protocol } from './types'
import { toOpenAIAssistant, writeOpenAIAssistant } from '../wire/openai-chat'

function member(node: JsonSpanNode | undefined, key: string): JsonSpanNode | undefined {
  const members = node?.members ?? []
  for (let index = members.length - 1; index >= 0; index--) if (members[index]?.key === key) return members[index]?.value
  return undefined
}

/** Visible text of a `content` field: a string, or the text parts of a content array. */
function contentText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content.trim()
  if (!Array.isArray(content)) return ''
  return content
    .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n')
    .trim()
}

/** True when `value` is shaped like a native assistant message (not just any JSON). */
export function isOpenAiMessage(value: JsonValue): boolean {
  if (!isJsonObject(value)) return false
  if (Array.isArray(value.tool_calls)) return true
  return value.role === 'assistant' && Object.hasOwn(value, 'content')
}

/**
 * Parses a native OpenAI assistant message. Empty `arguments` (`""`) mean `{}`; invalid ones are
 * repaired leniently; double-encoded ones are decoded; cut-off ones are a `truncated` error and
 * no call. Spans point at the name and the arguments string inside the raw JSON. Output that is
 * not such a message is all text. Pure; never throws; linear in `raw.length`.
 */
export function parseOpenAi(raw: string): ParseResult {
  const builder = new ParseBuilder(raw, 'openai')
  const read = readJson(raw, 0, { spanDepth: 4 })
  const rest = read.ok ? raw.slice(read.end).trim() : ''
  if (!read.ok || rest !== '' || !isOpenAiMessage(read.value) || !isJsonObject(read.value)) {
    if (!read.ok && /"tool_calls"\s*:/.test(raw.slice(0, 4096)) && raw.trimStart().startsWith('{')) {
      builder.addError(read.error.code === 'truncated' ? 'truncated' : 'invalid_json', `The assistant message is not valid JSON: ${read.error.message}`, { start: read.error.offset, end: read.error.offset })
      return { protocol: 'openai', calls: [], text: '', repairs: [], errors: builder.errors }
    }
    return { protocol: 'openai', calls: [], text: raw.trim(), repairs: [], errors: [] }
  }
  const message = read.value
  for (const repair of read.repairs) builder.addRepair(repair.code, repair.message, repair.span)
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : []
  const callsNode = member(read.spans, 'tool_calls')
  toolCalls.forEach((entry, index) => {
    const node = callsNode?.items?.[index]
    const reading = readCallObject(raw, entry, node, 'wrapped', true)
    if (reading.kind === 'call') {
      builder.addCall(reading.call)
      for (const repair of reading.repairs) builder.repairs.push(repair)
    } else if (reading.kind === 'error') {
      const id = isJsonObject(entry) && typeof entry.id === 'string' ? ` (${entry.id})` : ''
      const message = reading.name !== undefined ? reading.error.message.replace(`"${reading.name}"`, `"${reading.name}"${id}`) : reading.error.message
      builder.addError(reading.error.code, message, reading.error.span)
    } else {
      builder.addError('missing_name', `tool_calls[${index}] has no function name.`, node?.span)
    }
  })
  return { protocol: 'openai', calls: builder.calls, text: contentText(message.content), repairs: builder.repairs, errors: builder.errors }
}

/** `openai` protocol: a native assistant message with `tool_calls`, serialised as JSON. */
export const openai: Protocol = {
  id: 'openai',
  label: 'OpenAI tool_calls (native)',
  description: 'Native assistant message with tool_calls; arguments are a JSON string.',
  native: true,
  parse: parseOpenAi,
  instructions: (tools) =>
    renderInstructions(
      tools,
      [
        'Call tools through the API\'s native tool calling: an assistant message with "tool_calls".',
        'Each call has an "id", "type": "function" and "function": {"name", "arguments"}, where "arguments" is a JSON-encoded string.',
        'Each result comes back as a "tool" message whose "tool_call_id" is the call\'s id.',
      ],
      (name, args) => writeOpenAIAssistant(toOpenAIAssistant(null, [{ id: 'call_1', name, arguments: args }])),
    ),
  example: JSON.stringify(toOpenAIAssistant(null, [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }])),
  render: ({ text, calls }) => writeOpenAIAssistant(toOpenAIAssistant(text || null, calls.map((call, i) => ({ id: call.id ?? `call_${i + 1}`, name: call.name, arguments: call.arguments })))),
}
