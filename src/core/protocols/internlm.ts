/**
 * `internlm`: InternLM2 / 2.5 chat format (its chat template and `lmdeploy`'s InternLM tool
 * parser): `<|action_start|><|plugin|>\n{"name": NAME, "parameters": {…}}<|action_end|>`.
 */
import { defineTextProtocol } from './shared/define'
import { defineMarkers, detectMarkers, detectionReason } from './shared/detect'
import { type ParseBuilder, skipSpace } from './shared/parse-builder'
import { readWrappedJson } from './shared/wrapped-json'
import { parseSaid } from '../util/parse-text'

const ACTION_START = '<|action_start|>'
const PLUGIN = '<|plugin|>'
const ACTION_END = '<|action_end|>'
const MARKERS = defineMarkers(ACTION_START)

function collect(builder: ParseBuilder): void {
  const view = builder.view
  let pos = 0
  for (;;) {
    const at = view.indexOf(ACTION_START, pos)
    if (at < 0) return
    const plugin = skipSpace(view, at + ACTION_START.length)
    if (!view.startsWith(PLUGIN, plugin)) {
      // `<|interpreter|>` (code) and other actions are not tool calls.
      pos = at + ACTION_START.length
      continue
    }
    const after = plugin + PLUGIN.length
    let end = readWrappedJson(builder, after, PLUGIN)
    if (end === undefined) {
      if (skipSpace(view, after) >= view.length) {
        builder.addError('truncated', () => parseSaid('endsAfterMarkerCall', { marker: PLUGIN }), { start: at, end: view.length })
        end = view.length
      } else {
        builder.addError('invalid_call', () => parseSaid('expectedObjectAfter', { marker: PLUGIN, offset: skipSpace(view, after) }), { start: at, end: after })
        end = after
      }
    }
    const close = skipSpace(view, end)
    if (view.startsWith(ACTION_END, close)) end = close + ACTION_END.length
    builder.consume(at, end)
    pos = Math.max(end, at + ACTION_START.length)
  }
}

/** `internlm` protocol. */
export const internlm = defineTextProtocol({
  id: 'internlm',
  label: 'InternLM action',
  description: 'InternLM2/2.5: <|action_start|><|plugin|> then {"name", "parameters"} JSON and <|action_end|>.',
  collect,
  detect: (raw, before) =>
    detectMarkers(raw, MARKERS, before, (scan, at) => (scan.view.startsWith(PLUGIN, skipSpace(scan.view, at + ACTION_START.length)) ? { confidence: 0.95, ...detectionReason('detectFoundMarker', { marker: `${ACTION_START}${PLUGIN}`, at }) } : undefined)),
  rules: [`To call a tool, write ${ACTION_START}${PLUGIN}, a new line, one JSON object {"name": "<tool name>", "parameters": {<arguments>}}, then ${ACTION_END}.`],
  renderCall: (name, args) => `${ACTION_START}${PLUGIN}\n${JSON.stringify({ name, parameters: args })}${ACTION_END}`,
  example: `I will look it up.${ACTION_START}${PLUGIN}\n{"name": "get_weather", "parameters": {"city": "Paris"}}${ACTION_END}`,
})
