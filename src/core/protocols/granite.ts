/**
 * `granite`: IBM Granite 3.x, `<|tool_call|>` followed by a JSON array of `{"name", "arguments"}`.
 * A closing `<|/tool_call|>` after the array (Phi-4-mini's special tokens wrap the same array) is
 * markup, not text.
 */
import { defineTextProtocol } from './shared/define'
import { collectMarkedJson } from './shared/wrapped-json'
import { defineMarkers, detectMarkers } from './shared/detect'

const MARKERS = defineMarkers('<|tool_call|>')

/** `granite` protocol: `<|tool_call|>[{"name", "arguments"}, …]`. */
export const granite = defineTextProtocol({
  id: 'granite',
  label: 'Granite <|tool_call|>',
  description: 'IBM Granite: <|tool_call|> followed by a JSON array of {"name", "arguments"}.',
  collect: (builder) => collectMarkedJson(builder, '<|tool_call|>', '<|/tool_call|>'),
  detect: (raw, before) => detectMarkers(raw, MARKERS, before),
  rules: [
    'To call tools, write <|tool_call|> followed by a JSON array of {"name": "<tool name>", "arguments": {<arguments>}} objects.',
    'You may write text before <|tool_call|>; write nothing after the array.',
  ],
  renderCall: (name, args) => `<|tool_call|>${JSON.stringify([{ name, arguments: args }])}`,
  example: '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
})
