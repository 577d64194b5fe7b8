/**
 * `xml-tag`: calls wrapped in tags. `<tool>{…}</tool>` (hand-written designs), `<tool_call>{…}</tool_call>`
 * (Hermes, Qwen 2.5/3 chat templates) and `<function=NAME>{…}</function>` (Llama 3.1 custom tools).
 */
import { renderInstructions } from './shared/instructions'
import { ParseBuilder } from './shared/parse-builder'
import { collectTaggedCalls, detectTags } from './shared/tags'
import { TextScanner } from './stream/text-scanner'
import { joinOutput, type ParseResult, type Protocol } from './types'

/**
 * Parses tag-wrapped calls. Several tags are several calls; a close tag missing at the end of a
 * complete call is a repair; a close tag inside a JSON string does not end the body; calls inside
 * `<think>…</think>` are ignored. The Qwen3-Coder and GLM-4.5 bodies are read too.
 * Pure; never throws; linear in `raw.length`.
 */
export function parseXmlTag(raw: string, protocol = 'xml-tag'): ParseResult {
  const builder = new ParseBuilder(raw, protocol)
  collectTaggedCalls(builder)
  return builder.result()
}

/** `xml-tag` protocol: `<tool_call>{"name", "arguments"}</tool_call>`, `<tool>…</tool>`, `<function=NAME>{…}</function>`. */
export const xmlTag: Protocol = {
  id: 'xml-tag',
  label: 'XML tags',
  description: '<tool_call>{"name", "arguments"}</tool_call> (Hermes, Qwen), <tool>…</tool>, <function=NAME>{…}</function> (Llama 3.1).',
  native: false,
  parse: (raw) => parseXmlTag(raw),
  detect: (raw, before) => detectTags(raw, before, 'with a JSON body', { json: 0.85, 'function-json': 0.85, name: 0.5 }),
  createScanner: () => new TextScanner(true),
  instructions: (tools) =>
    renderInstructions(
      tools,
      [
        'To call a tool, write <tool_call></tool_call> tags holding one JSON object: {"name": "<tool name>", "arguments": {<arguments>}}.',
        'To call several tools, write several <tool_call> blocks, one call each.',
        'You may write text before the tags. Stop after the last </tool_call> and wait for the results.',
        'Tool results come back inside <tool_response></tool_response> tags.',
      ],
      (name, args) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`,
    ),
  example: 'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
  render: ({ text, calls }) =>
    joinOutput(text, calls.map((call) => `<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n</tool_call>`)),
}
