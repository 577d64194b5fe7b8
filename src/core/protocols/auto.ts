/**
 * `auto`: picks the wire format from the output itself and says why.
 */
import { readJson } from '../json'
import { anthropic, anthropicBlocks } from './anthropic'
import { bracket } from './bracket'
import { commandR } from './command-r'
import { deepseek } from './deepseek'
import { glm4 } from './glm4'
import { glm45 } from './glm45'
import { granite } from './granite'
import { harmony } from './harmony'
import { json } from './json'
import { kimiK2 } from './kimi-k2'
import { llama3Json } from './llama3-json'
import { mistral } from './mistral'
import { isOpenAiMessage, openai } from './openai'
import { phi4 } from './phi4'
import { pipe } from './pipe'
import { pythonic } from './pythonic'
import { qwen3Coder } from './qwen3-coder'
import { blank, findReasoningSpans, skipSpace } from './shared/parse-builder'
import { readNameEnd } from './shared/scan'
import { xmlTag } from './xml-tag'
import type { ParseResult, Protocol } from './types'

/** A special token that identifies a format, in order of precedence (most specific first). */
const TOKENS: ReadonlyArray<readonly [token: string, protocol: Protocol]> = [
  ['<｜tool▁calls▁begin｜>', deepseek],
  ['<｜tool▁call▁begin｜>', deepseek],
  ['<|tool_calls_section_begin|>', kimiK2],
  ['<|tool_call_begin|>', kimiK2],
  ['<|START_ACTION|>', commandR],
  ['<|channel|>', harmony],
  ['[TOOL_CALLS]', mistral],
  ['<|tool_call|>', granite],
  ['functools[', phi4],
  ['<|python_tag|>', llama3Json],
]

/** Which member of the tag family a `<tool_call>` or `<function=` body belongs to. */
function tagFlavour(view: string, at: number, tagLength: number): { protocol: Protocol; why: string } {
  const body = skipSpace(view, at + tagLength)
  const excerpt = view.slice(body, body + 400)
  if (excerpt.startsWith('<function=') || view.startsWith('<function=', at)) {
    if (excerpt.includes('<parameter=')) return { protocol: qwen3Coder, why: 'with <function=…> and <parameter=…> inside' }
    return { protocol: xmlTag, why: 'with a JSON body' }
  }
  if (excerpt.startsWith('{') || excerpt.startsWith('[')) return { protocol: xmlTag, why: 'with a JSON body' }
  if (excerpt.includes('<arg_key>')) return { protocol: glm45, why: 'with a name and <arg_key>/<arg_value> pairs' }
  return { protocol: xmlTag, why: '' }
}

const PYTHONIC_LIST = /(^|\n)[ \t]*\[[ \t]*[A-Za-z_][\w.]*(\\_[\w.]*)*\(/

/** The protocol `auto` chose for `raw`, and why. Pure; linear in `raw.length`. */
export function detectProtocol(raw: string): { protocol: Protocol; reason: string } {
  const { protocol, reason } = detect(raw)
  return { protocol, reason }
}

/** {@link detectProtocol}, plus the chosen protocol's result when detection already computed it. */
function detect(raw: string): { protocol: Protocol; reason: string; result?: ParseResult } {
  const trimmed = raw.trimStart()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const read = readJson(raw)
    if (read.ok && raw.slice(read.end).trim() === '') {
      // Both shapes have role/content: tool_calls make it OpenAI, typed content blocks Anthropic.
      const hasToolCalls = typeof read.value === 'object' && read.value !== null && !Array.isArray(read.value) && Array.isArray(read.value.tool_calls)
      if (!hasToolCalls && anthropicBlocks(read.value)) return { protocol: anthropic, reason: 'The output is a JSON message of typed content blocks (Anthropic).' }
      if (isOpenAiMessage(read.value)) return { protocol: openai, reason: 'The output is a JSON assistant message with role/content/tool_calls (OpenAI).' }
    }
  }
  // Call syntax quoted inside reasoning must not decide the format.
  const view = blank(raw, findReasoningSpans(raw))
  for (const [token, protocol] of TOKENS) {
    const at = view.indexOf(token)
    if (at >= 0) return { protocol, reason: `Found ${token} at offset ${at}.` }
  }
  for (const tag of ['<tool_call>', '<function=']) {
    const at = view.indexOf(tag)
    if (at < 0) continue
    const flavour = tagFlavour(view, at, tag === '<tool_call>' ? tag.length : 0)
    return { protocol: flavour.protocol, reason: `Found ${tag} at offset ${at}${flavour.why ? ` ${flavour.why}` : ''}.` }
  }
  for (const tag of ['<tool>', '<function_call>']) {
    const at = view.indexOf(tag)
    if (at >= 0) return { protocol: xmlTag, reason: `Found ${tag} at offset ${at}.` }
  }
  const toolAt = view.indexOf('[TOOL')
  if (toolAt >= 0) {
    let afterName = toolAt + '[TOOL'.length
    while (view[afterName] === ' ' || view[afterName] === ':') afterName++
    afterName = readNameEnd(view, afterName)
    while (view[afterName] === ' ') afterName++
    if (view[afterName] === '|') return { protocol: pipe, reason: `Found [TOOL:name| at offset ${toolAt}.` }
    if (view[afterName] === ']') return { protocol: bracket, reason: `Found [TOOL: name] at offset ${toolAt}.` }
  }
  const list = PYTHONIC_LIST.exec(view)
  if (list) return { protocol: pythonic, reason: `Found a Python call list at offset ${list.index + (list[1]?.length ?? 0)}.` }
  const start = skipSpace(view, 0)
  if (/^[A-Za-z_][\w.]*\(/.test(view.slice(start, start + 130))) {
    const result = pythonic.parse(raw)
    if (result.calls.length > 0 && result.text === '') return { protocol: pythonic, reason: 'The output is a sequence of Python calls.', result }
  }
  if (/^[A-Za-z_][\w.-]{0,127}[ \t]*\r?\n\s*\{/.test(view.slice(start, start + 400))) {
    const result = glm4.parse(raw)
    if (result.calls.length > 0) return { protocol: glm4, reason: 'The output is a tool name on its own line followed by JSON arguments (GLM-4).', result }
  }
  const jsonResult = json.parse(raw)
  if (jsonResult.calls.length > 0 && view.charCodeAt(start) === 0x7b) {
    const first = readJson(view, start)
    const value = first.ok ? first.value : undefined
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && typeof value.name === 'string' && Object.hasOwn(value, 'parameters')) {
      return { protocol: llama3Json, reason: 'The output starts with a bare {"name", "parameters"} object (Llama 3 JSON).' }
    }
  }
  // Detection already parsed the output as json; parsing it again would double the cost of `auto`.
  if (jsonResult.calls.length > 0 || jsonResult.errors.length > 0) {
    return { protocol: json, reason: 'Found a JSON tool-call object in the text.', result: jsonResult }
  }
  return { protocol: json, reason: 'No tool-call syntax found; the output is text.', result: jsonResult }
}

/** Parses with the detected protocol; `protocol` is the chosen id and `detection` says why. */
export function parseAuto(raw: string): ParseResult {
  const { protocol, reason, result: detected } = detect(raw)
  const result = detected ?? protocol.parse(raw)
  return { ...result, protocol: protocol.id, detection: reason }
}

/** `auto` protocol: detects the format of each output. Its instructions are those of `json`. */
export const auto: Protocol = {
  id: 'auto',
  label: 'Auto-detect',
  description: 'Detects the format of each output and says which it chose and why.',
  native: false,
  parse: parseAuto,
  instructions: (tools) => json.instructions(tools),
  example: xmlTag.example,
  // A model told to speak "auto" gets json's instructions, so it writes json.
  render: (output) => json.render(output),
}
