/**
 * `anthropic`: the native Anthropic Messages assistant message,
 * `{"role": "assistant", "content": [{"type": "text", "text"}, {"type": "tool_use", "id", "name", "input": {…}}]}`,
 * serialised as JSON (a bare content-block array is accepted too). Arguments are an object.
 */
import { readJson, type JsonSpanNode } from '../json'
import type { JsonValue } from '../messages'
import { decodeArguments, isJsonObject, stringContentSpan } from './shared/call-object'
import { renderInstructions } from './shared/instructions'
import { ParseBuilder } from './shared/parse-builder'
import { reparseScanner } from './stream/reparse-scanner'
import { scanOutput, detectionReason } from './shared/detect'
import type { FormatDetection, ParseResult, ParsedCall, Protocol } from './types'
import { nested, parseSaid } from '../util/parse-text'

const BLOCK = String.raw`\{\s*"type"\s*:\s*"(?:text|tool_use|thinking|redacted_thinking)"`
/** A message whose content is an array of typed blocks. */
const MESSAGE = new RegExp(String.raw`"content"\s*:\s*\[\s*` + BLOCK)
/** A message's first key (`{"id": "msg_…", "type": "message", "role": …}` or `{"role": …}`). */
const MESSAGE_FIRST_KEY = /^\{\s*"(?:role|content|id|type|model|stop_reason)"/
/** A bare block array. */
const BLOCKS = new RegExp(String.raw`^\[\s*` + BLOCK)

/** A JSON message (or block array) of Anthropic content blocks at the start of the output. */
function detect(raw: string, before?: number): FormatDetection | undefined {
  const scan = scanOutput(raw)
  if (scan.start >= (before ?? Number.POSITIVE_INFINITY)) return undefined
  const head = scan.view.slice(scan.start, scan.start + 2048)
  // Both shapes have role/content: tool_calls make it OpenAI.
  if (head.startsWith('{') && MESSAGE_FIRST_KEY.test(head) && MESSAGE.test(head) && !head.includes('"tool_calls"')) {
    return { at: scan.start, confidence: 0.92, ...detectionReason('detectAnthropicMessage') }
  }
  if (BLOCKS.test(head)) return { at: scan.start, confidence: 0.85, ...detectionReason('detectAnthropicBlocks') }
  return undefined
}

function member(node: JsonSpanNode | undefined, key: string): JsonSpanNode | undefined {
  const members = node?.members ?? []
  for (let index = members.length - 1; index >= 0; index--) if (members[index]?.key === key) return members[index]?.value
  return undefined
}

/** The content blocks of an Anthropic message (or a bare block array), or undefined when `value` is not one. */
export function anthropicBlocks(value: JsonValue): JsonValue[] | undefined {
  const content = isJsonObject(value) ? value.content : value
  if (!Array.isArray(content)) return undefined
  const typed = content.every((block) => isJsonObject(block) && typeof block.type === 'string')
  return typed && content.length > 0 ? content : undefined
}

/** Parses a native Anthropic assistant message. Pure; never throws; linear in `raw.length`. */
export function parseAnthropic(raw: string): ParseResult {
  const builder = new ParseBuilder(raw, 'anthropic')
  const read = readJson(raw, 0, { spanDepth: 3 })
  const blocks = read.ok && raw.slice(read.end).trim() === '' ? anthropicBlocks(read.value) : undefined
  if (!read.ok && read.error.code === 'truncated' && (MESSAGE.test(raw.slice(0, 2048)) || BLOCKS.test(raw.trimStart().slice(0, 2048)))) {
    // The cut block is the last tool_use; its name is within a few hundred chars of its type.
    const last = raw.lastIndexOf('"tool_use"')
    const name = last < 0 ? undefined : /"name"\s*:\s*"([^"\\]{1,128})"/.exec(raw.slice(last, last + 400))?.[1]
    builder.addError('truncated', name ? parseSaid('callCutKeepCase', { name, problem: nested(read.error) }) : parseSaid('messageCut', { problem: nested(read.error) }), { start: read.start, end: raw.length })
    return { protocol: 'anthropic', calls: [], text: '', repairs: [], errors: builder.errors }
  }
  if (!read.ok || !blocks) return { protocol: 'anthropic', calls: [], text: raw.trim(), repairs: [], errors: [] }
  for (const repair of read.repairs) builder.addRepair(repair.code, repair, repair.span)
  const blocksNode = Array.isArray(read.value) ? read.spans : member(read.spans, 'content')
  const texts: string[] = []
  blocks.forEach((block, index) => {
    if (!isJsonObject(block)) return
    const node = blocksNode?.items?.[index]
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
    if (block.type !== 'tool_use') return
    const name = typeof block.name === 'string' ? block.name : ''
    if (name === '') {
      builder.addError('missing_name', () => parseSaid('anthropicNoName', { index }), node?.span)
      return
    }
    const inputNode = member(node, 'input')
    if (node?.unclosed && !Object.hasOwn(block, 'input')) {
      builder.addError('truncated', () => parseSaid('callCutBeforeInput', { name }), node.span)
      return
    }
    const decoded = decodeArguments(block.input, inputNode?.span, name, inputNode?.unclosed)
    if (!decoded.ok) {
      builder.addError(decoded.error.code, decoded.error, decoded.error.span)
      return
    }
    const nameNode = member(node, 'name')
    const call: ParsedCall = { name, arguments: decoded.arguments, spans: { call: node?.span ?? { start: 0, end: raw.length } } }
    if (nameNode) call.spans.name = stringContentSpan(raw, nameNode.span)
    if (inputNode) {
      call.spans.arguments = inputNode.span
      call.rawArguments = raw.slice(inputNode.span.start, inputNode.span.end)
    }
    if (typeof block.id === 'string') call.id = block.id
    builder.addCall(call)
  })
  return { protocol: 'anthropic', calls: builder.calls, text: texts.join('\n').trim(), repairs: builder.repairs, errors: builder.errors }
}

/** `anthropic` protocol: native `tool_use` content blocks. */
export const anthropic: Protocol = {
  id: 'anthropic',
  label: 'Anthropic tool_use (native)',
  description: 'Native Anthropic message: content blocks of type text and tool_use (input is an object).',
  native: true,
  parse: parseAnthropic,
  detect,
  createScanner: reparseScanner(parseAnthropic),
  instructions: (tools) =>
    renderInstructions(
      tools,
      [
        'Call tools through the API\'s native tool use: a "tool_use" content block with "id", "name" and "input" (an object).',
        'Each result comes back as a "tool_result" block whose "tool_use_id" is the call\'s id.',
      ],
      (name, args) => JSON.stringify({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name, input: args }] }, null, 2),
    ),
  example: JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] }),
  render: ({ text, calls }) =>
    JSON.stringify(
      {
        role: 'assistant',
        content: [
          ...(text ? [{ type: 'text', text }] : []),
          ...calls.map((call, i) => ({ type: 'tool_use', id: call.id ?? `toolu_${i + 1}`, name: call.name, input: call.arguments })),
        ],
      },
      null,
      2,
    ),
}
