/**
 * `command-r`: Cohere Command R7B / R+ (2024-08), an action block
 * `<|START_ACTION|>[{"tool_call_id", "tool_name", "parameters"}]<|END_ACTION|>`, with reasoning in
 * `<|START_THINKING|>…<|END_THINKING|>` and the answer in `<|START_RESPONSE|>…<|END_RESPONSE|>`;
 * and the first Command R / R+ (2024-03, the `tool_use` chat template of their tokenizer config):
 * ``Action: ```json [{"tool_name", "parameters"}] ``` `` after an optional `Plan:` line.
 */
import { skipSpace, type ParseBuilder } from './shared/parse-builder'
import { defineTextProtocol } from './shared/define'
import { collectMarkedJson, readWrappedJson } from './shared/wrapped-json'
import { defineMarkers, detectMarkers, type OutputScan, detectionReason, type DetectionReason } from './shared/detect'

const MARKERS = defineMarkers('<|START_ACTION|>', 'Action:')
const FENCE = '```'
/** ``Action: ```json`` then the array: the first Command R's call block. */
const ACTION_BLOCK = /^Action:[ \t]*```(?:json)?[ \t]*\r?\n?\s*\[\s*\{\s*"tool_name"/

/**
 * Where the JSON of an ``Action: ```json`` block starts, or -1 when `at` holds no such block
 * (ReAct-style `Action: search` prose is not a call).
 */
function actionBlockStart(view: string, at: number): number {
  const head = view.slice(at, at + 200)
  if (!ACTION_BLOCK.test(head)) return -1
  const fence = view.indexOf(FENCE, at)
  const lineEnd = view.indexOf('\n', fence)
  const info = view.slice(fence + FENCE.length, lineEnd < 0 ? view.length : lineEnd).trim()
  return info === '' || info === 'json' ? fence + FENCE.length + info.length : view.indexOf('[', fence)
}

/** Reads every ``Action: ```json [...] ``` `` block; each is consumed with its fence. */
function collectActionBlocks(builder: ParseBuilder): void {
  const view = builder.view
  for (let at = view.indexOf('Action:'); at >= 0; at = view.indexOf('Action:', at + 7)) {
    const start = actionBlockStart(view, at)
    if (start < 0) continue
    const end = readWrappedJson(builder, start, 'Action:')
    if (end === undefined) continue
    const close = skipSpace(view, end)
    const stop = view.startsWith(FENCE, close) ? close + FENCE.length : end
    builder.consume(at, stop)
    at = Math.max(at, stop - 7)
  }
}

function checkAction(scan: OutputScan, at: number, marker: string): ({ confidence: number } & DetectionReason) | undefined {
  if (marker !== 'Action:') return { confidence: 0.9, ...detectionReason('detectFoundMarker', { marker, at }) }
  return actionBlockStart(scan.view, at) < 0 ? undefined : { confidence: 0.85, ...detectionReason('detectCommandRBlock', { at }) }
}

function collect(builder: ParseBuilder): void {
  collectMarkedJson(builder, '<|START_ACTION|>', '<|END_ACTION|>')
  collectActionBlocks(builder)
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
  detect: (raw, before) => detectMarkers(raw, MARKERS, before, checkAction),
  rules: [
    'To call tools, write <|START_ACTION|>, a JSON array of {"tool_call_id": "<n>", "tool_name": "<tool name>", "parameters": {<arguments>}}, then <|END_ACTION|>.',
    'Answer the user inside <|START_RESPONSE|>…<|END_RESPONSE|>.',
  ],
  renderCall: (name, args) => `<|START_ACTION|>[\n    ${JSON.stringify({ tool_call_id: '0', tool_name: name, parameters: args })}\n]<|END_ACTION|>`,
  example: '<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}\n]<|END_ACTION|>',
})
