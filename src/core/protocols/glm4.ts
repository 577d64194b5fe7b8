/**
 * `glm4`: GLM-4 (9B chat) tool calls, the tool name alone on the first line and its JSON arguments
 * on the next: `get_weather\n{"city": "Paris"}`.
 */
import { readJsonDeferred } from '../json'
import { decodeArguments } from './shared/call-object'
import { defineTextProtocol } from './shared/define'
import type { Protocol } from './types'
import { type ParseBuilder, skipSpace } from './shared/parse-builder'
import { scanOutput, detectionReason } from './shared/detect'
import type { FormatDetection } from './types'
import { nested, parseSaid } from '../util/parse-text'

/** A name alone on the first line, then an object on the next. */
const LAYOUT = /^[A-Za-z_][\w.-]{0,127}[ \t]*\r?\n\s*\{/
/** The object is itself a call (`okay\n{"name": …}`): then the word is prose, not a tool name. */
const CALL_OBJECT = /^[A-Za-z_][\w.-]{0,127}[ \t]*\r?\n\s*\{\s*["']?(?:tool|tool_name|name|function|tool_calls)["']?\s*:/

/** GLM-4's layout at the very start of the output. */
function detect(raw: string, before?: number): FormatDetection | undefined {
  const scan = scanOutput(raw)
  if (scan.start >= (before ?? Number.POSITIVE_INFINITY)) return undefined
  const head = scan.view.slice(scan.start, scan.start + 400)
  if (!LAYOUT.test(head) || CALL_OBJECT.test(head)) return undefined
  return { at: scan.start, confidence: 0.6, ...detectionReason('detectGlm4') }
}

/** Reads `NAME\n{…}` at the start of the output (after whitespace). */
function collect(builder: ParseBuilder): void {
  const view = builder.view
  const nameStart = skipSpace(view, 0)
  const match = /^[A-Za-z_][\w.-]{0,127}[ \t]*\r?\n/.exec(view.slice(nameStart, nameStart + 160))
  if (!match) return
  const name = match[0].trim()
  const argsAt = skipSpace(view, nameStart + match[0].length)
  if (view.charCodeAt(argsAt) !== 0x7b) return
  const read = readJsonDeferred(view, argsAt)
  if (!read.ok) {
    const cut = read.code === 'truncated'
    builder.addError(cut ? 'truncated' : 'invalid_arguments', () => parseSaid(cut ? 'callCut' : 'argsNotJson', { name, problem: nested(read.render().error) }), { start: argsAt, end: cut ? view.length : read.offset })
    builder.consume(nameStart, cut ? view.length : argsAt)
    return
  }
  for (const repair of read.repairs) builder.addRepair(repair.code, repair, repair.span)
  const decoded = decodeArguments(read.value, read.spans.span, name, read.spans.unclosed)
  builder.consume(nameStart, read.end)
  if (!decoded.ok) {
    builder.addError(decoded.error.code, decoded.error, decoded.error.span)
    return
  }
  builder.addCall({ name, arguments: decoded.arguments, rawArguments: view.slice(read.start, read.end), spans: { call: { start: nameStart, end: read.end }, name: { start: nameStart, end: nameStart + name.length }, arguments: read.spans.span } })
}

/** `glm4` protocol: the tool name on one line, JSON arguments on the next. */
const base = defineTextProtocol({
  id: 'glm4',
  label: 'GLM-4 name + JSON',
  description: 'GLM-4: the tool name alone on the first line, JSON arguments on the next.',
  collect,
  detect,
  rules: ['To call a tool, write only its name on the first line and its arguments as a JSON object on the next line.'],
  renderCall: (name, args) => `${name}\n${JSON.stringify(args)}`,
  example: 'get_weather\n{"city": "Paris"}',
})

/** GLM-4 output is only the call: prose beside it would be read as the tool name, so `render` leaves it out. */
export const glm4: Protocol = {
  ...base,
  render: ({ text, calls }) => (calls.length > 0 ? base.render({ calls: calls.slice(0, 1) }) : (text ?? '')),
}
