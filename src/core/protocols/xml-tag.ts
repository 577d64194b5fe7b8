/**
 * `xml-tag`: calls wrapped in tags. `<tool>{…}</tool>` (hand-written designs), `<tool_call>{…}</tool_call>`
 * (Hermes, Qwen 2.5/3 chat templates), `<function=NAME>{…}</function>` (Llama 3.1 custom tools),
 * `<function name="NAME">{…}</function>` (the attribute form) and `<function_call> {…}` (IBM
 * Granite-20B-FunctionCalling, which writes no close tag).
 */
import { collectJsonCalls, detectJsonCall } from './json'
import { defineMarkers, scanOutput, detectionReason } from './shared/detect'
import { renderInstructions } from './shared/instructions'
import { ParseBuilder } from './shared/parse-builder'
import { collectTaggedCalls, detectTags } from './shared/tags'
import { TextScanner } from './stream/text-scanner'
import { joinOutput, type FormatDetection, type ParseResult, type Protocol } from './types'
import { parseSaid } from '../util/parse-text'

/** Close tags a model may write after a bare call object, having left out the opening tag. */
const ORPHAN_CLOSERS = defineMarkers('</tool_call>', '</tool>', '</function_call>')
const ORPHANS_START_WITH_CLOSE = ORPHAN_CLOSERS.every((close) => close.startsWith('</'))

/** The close tag after a bare JSON call whose opening tag is missing, if the output has one. */
function orphanClose(first: (marker: string) => number): { at: number; close: string } | undefined {
  for (const close of ORPHAN_CLOSERS) {
    const at = first(close)
    if (at < 0) continue
    const opener = first(close.replace('</', '<'))
    if (opener < 0 || opener > at) return { at, close }
  }
  return undefined
}

/** `{"name": …}` then `</tool_call>` with no `<tool_call>`: read the call and drop the close tag. */
function collectOrphanCall(builder: ParseBuilder): void {
  const view = builder.view
  const orphan = orphanClose((marker) => view.indexOf(marker))
  if (!orphan) return
  collectJsonCalls(builder, { reportProse: false })
  const last = builder.calls[builder.calls.length - 1]
  if (!last || last.spans.call.end > orphan.at) return
  builder.consume(orphan.at, orphan.at + orphan.close.length)
  builder.addRepair('missing_open_tag', parseSaid('missingOpenTag', { close: orphan.close }), { start: orphan.at, end: orphan.at + orphan.close.length })
}

function detect(raw: string, before?: number): FormatDetection | undefined {
  const tagged = detectTags(raw, before, 'detectTagJson', { json: 0.85, 'function-json': 0.85, name: 0.5 })
  if (tagged) return tagged
  const scan = scanOutput(raw)
  // Every orphan closer starts with '</': one native search spares most outputs the full marker scan.
  if (!ORPHANS_START_WITH_CLOSE || !scan.view.includes('</')) return undefined
  const orphan = orphanClose((marker) => scan.first(marker))
  if (!orphan) return undefined
  const call = detectJsonCall(raw, Math.min(orphan.at, before ?? orphan.at))
  return call ? { at: call.at, confidence: 0.75, ...detectionReason('detectOrphanClose', { at: call.at, close: orphan.close }) } : undefined
}

/**
 * Parses tag-wrapped calls. Several tags are several calls; a close tag missing at the end of a
 * complete call is a repair; a close tag inside a JSON string does not end the body; calls inside
 * `<think>…</think>` are ignored. The Qwen3-Coder and GLM-4.5 bodies are read too.
 * Pure; never throws; linear in `raw.length`.
 */
export function parseXmlTag(raw: string, protocol = 'xml-tag'): ParseResult {
  const builder = new ParseBuilder(raw, protocol)
  collectTaggedCalls(builder)
  if (builder.calls.length === 0 && builder.errors.length === 0) collectOrphanCall(builder)
  return builder.result()
}

/** `xml-tag` protocol: `<tool_call>{"name", "arguments"}</tool_call>`, `<tool>…</tool>`, `<function=NAME>{…}</function>`. */
export const xmlTag: Protocol = {
  id: 'xml-tag',
  label: 'XML tags',
  description: '<tool_call>{"name", "arguments"}</tool_call> (Hermes, Qwen), <tool>…</tool>, <function=NAME>{…}</function> (Llama 3.1).',
  native: false,
  parse: (raw) => parseXmlTag(raw),
  detect,
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
