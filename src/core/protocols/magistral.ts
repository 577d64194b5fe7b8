/**
 * `magistral`: Mistral's reasoning models (Magistral Small / Medium 2507 and later, tokenizer
 * v13): reasoning between the `[THINK]` and `[/THINK]` control tokens, then the answer, with calls
 * as `[TOOL_CALLS]NAME[ARGS]{…}`. A call drafted inside `[THINK]` is never read.
 */
import { collectMistral } from './mistral'
import { defineTextProtocol } from './shared/define'
import { defineMarkers, detectMarkers, detectionReason } from './shared/detect'

const MARKERS = defineMarkers('[TOOL_CALLS]')

/** `magistral` protocol. */
export const magistral = defineTextProtocol({
  id: 'magistral',
  label: 'Magistral [THINK] + [TOOL_CALLS]',
  description: 'Magistral: [THINK]reasoning[/THINK], then [TOOL_CALLS]name[ARGS]{…} per call.',
  collect: collectMistral,
  // The same call token as Mistral; the reasoning tokens make it Magistral.
  detect: (raw, before) => {
    // Searched only once a marker is found: most outputs have none.
    let thinks: boolean | undefined
    return detectMarkers(raw, MARKERS, before, (_scan, at, marker) =>
      (thinks ??= raw.includes('[/THINK]')) ? { confidence: 0.95, ...detectionReason('detectMagistral', { marker, at }) } : { confidence: 0.5, ...detectionReason('detectMagistralPlain', { marker, at }) },
    )
  },
  rules: [
    'Think first between [THINK] and [/THINK]; the user does not see it.',
    'To call a tool after thinking, write [TOOL_CALLS]<tool name>[ARGS]{<arguments as JSON>}, once per call.',
  ],
  renderCall: (name, args) => `[TOOL_CALLS]${name}[ARGS]${JSON.stringify(args)}`,
  example: '[THINK]The user wants the weather in Paris; get_weather takes a city.[/THINK][TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
})
