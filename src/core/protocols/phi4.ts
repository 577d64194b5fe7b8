/**
 * `phi4`: Microsoft Phi-4-mini, `functools[{"name", "arguments"}, …]`.
 */
import { defineTextProtocol } from './shared/define'
import { collectMarkedJson } from './shared/wrapped-json'
import { defineMarkers, detectMarkers } from './shared/detect'

const MARKERS = defineMarkers('functools[', 'functools [')

/** `phi4` protocol: `functools[{"name", "arguments"}]`. */
export const phi4 = defineTextProtocol({
  id: 'phi4',
  label: 'Phi-4 functools',
  description: 'Phi-4-mini: functools[…] holding a JSON array of {"name", "arguments"}.',
  collect: (builder) => collectMarkedJson(builder, 'functools'),
  detect: (raw, before) => detectMarkers(raw, MARKERS, before),
  rules: ['To call tools, write functools followed by a JSON array of {"name": "<tool name>", "arguments": {<arguments>}} objects.'],
  renderCall: (name, args) => `functools${JSON.stringify([{ name, arguments: args }])}`,
  example: 'functools[{"name": "get_weather", "arguments": {"city": "Paris"}}]',
})
