/**
 * `llama3-json`: Llama 3.1/3.2/3.3 JSON tool calling, a bare `{"name", "parameters"}` object,
 * optionally after `<|python_tag|>` and before `<|eom_id|>`; Llama 3.2 separates parallel calls with `; `.
 */
import { collectJsonCalls } from './json'
import { defineTextProtocol } from './shared/define'
import { defineMarkers, detectMarkers, scanOutput, detectionReason } from './shared/detect'
import { skipSpace } from './shared/parse-builder'
import { TextScanner } from './stream/text-scanner'
import type { FormatDetection } from './types'

const PYTHON_TAG = defineMarkers('<|python_tag|>')
/** `{"name": "…", "parameters":` — Llama 3's own key pair. */
const LLAMA_HEAD = /^\{\s*"name"\s*:\s*"[^"\\]{1,128}"\s*,\s*"parameters"\s*:/

/** `<|python_tag|>{…}`, or a bare `{"name", "parameters"}` object at the start of the output. */
function detect(raw: string, before?: number): FormatDetection | undefined {
  const scan = scanOutput(raw)
  const limit = before ?? Number.POSITIVE_INFINITY
  if (scan.start < limit && LLAMA_HEAD.test(scan.view.slice(scan.start, scan.start + 300))) {
    return { at: scan.start, confidence: 0.75, ...detectionReason('detectLlama3Bare') }
  }
  return detectMarkers(raw, PYTHON_TAG, before, (found, at, marker) =>
    found.view.charCodeAt(skipSpace(found.view, at + marker.length)) === 0x7b ? { confidence: 0.9, ...detectionReason('detectMarkerJson', { marker, at }) } : undefined,
  )
}

/** `llama3-json` protocol: `{"name": NAME, "parameters": {…}}`, optionally after `<|python_tag|>`. */
export const llama3Json = defineTextProtocol({
  id: 'llama3-json',
  label: 'Llama 3 JSON',
  description: 'Llama 3.x: a bare {"name", "parameters"} object, optionally after <|python_tag|>; "; " between calls.',
  collect: (builder) => collectJsonCalls(builder),
  detect,
  createScanner: () => new TextScanner(false),
  rules: [
    'To call a tool, answer with only a JSON object {"name": "<tool name>", "parameters": {<arguments>}}.',
    'To call several tools, separate the objects with "; ".',
    'Do not use variables; write the values themselves.',
  ],
  renderCall: (name, args) => JSON.stringify({ name, parameters: args }),
  example: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}<|eom_id|>',
})
