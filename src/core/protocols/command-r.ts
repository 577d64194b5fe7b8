/**
 * `command-r`: Cohere Command R7B / R+ (2024-08), an action block
 * `<|START_ACTION|>[{"tool_call_id", "tool_name", "parameters"}]<|END_ACTION|>`, with reasoning in
 * `<|START_THINKING|>…<|END_THINKING|>` and the answer in `<|START_RESPONSE|>…<|END_RESPONSE|>`.
 */
import type { ParseBuilder } from './shared/parse-builder'
import { defineTextProtocol } from './shared/define'
import { collectMarkedJson } from './shared/wrapped-json'
import { defineMarkers, detectMarkers } from './shared/detect'

const MARKERS = defineMarkers('<|START_ACTION|>')

function collect(builder: ParseBuilder): void {
  collectMarkedJson(builder, '<|START_ACTION|>', '<|END_ACTION|>')
  // The response markers frame the visible answer; they are not part of it.
  for (const marker of ['<|START_RESPONSE|>', '<|END_RESPONSE|>']) {
    let at = builder.view.indexOf(marker)
    while (at >= 0) {
      builder.consume(at, at + marker.length)
      at = builder.view.indexOf(marker, at + marker.length)
    }
  }
}

/** `command-r` protocol: `<|START_ACTION|>[{"tool_name", "parameters"}]<|END_ACTION|>`. */
export const commandR = defineTextProtocol({
  id: 'command-r',
  label: 'Command R action',
  description: 'Cohere Command R: <|START_ACTION|>[{"tool_call_id", "tool_name", "parameters"}]<|END_ACTION|>.',
  collect,
  detect: (raw, before) => detectMarkers(raw, MARKERS, before),
  rules: [
    'To call tools, write <|START_ACTION|>, a JSON array of {"tool_call_id": "<n>", "tool_name": "<tool name>", "parameters": {<arguments>}}, then <|END_ACTION|>.',
    'Answer the user inside <|START_RESPONSE|>…<|END_RESPONSE|>.',
  ],
  renderCall: (name, args) => `<|START_ACTION|>[\n    ${JSON.stringify({ tool_call_id: '0', tool_name: name, parameters: args })}\n]<|END_ACTION|>`,
  example: '<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}\n]<|END_ACTION|>',
})
