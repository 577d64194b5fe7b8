/**
 * `mistral`: Mistral's `[TOOL_CALLS]` token, followed either by a JSON array of
 * `{"name", "arguments", "id"?}` (tokenizer v3, Mistral 7B v0.3, Nemo) or by
 * `NAME[ARGS]{…}` (tokenizer v11+, optionally `NAME[CALL_ID]ID[ARGS]{…}`), once per call; also
 * `NAME{…}` without `[ARGS]`.
 */
import { readJsonDeferred } from '../json'
import { decodeArguments } from './shared/call-object'
import { defineTextProtocol } from './shared/define'
import { type ParseBuilder, skipSpace } from './shared/parse-builder'
import { readNameEnd } from './shared/scan'
import { endsInsideMarkup } from './shared/tags'
import { readWrappedJson } from './shared/wrapped-json'
import type { ParsedCall } from './types'
import { defineMarkers, detectMarkers } from './shared/detect'
import { nested, parseSaid } from '../util/parse-text'

const MARKER = '[TOOL_CALLS]'
const MARKERS = defineMarkers(MARKER)

/** Reads `NAME[CALL_ID]ID[ARGS]{…}` at `start`; returns the end of the call. */
function readNamedCall(builder: ParseBuilder, markerAt: number, start: number): number {
  const view = builder.view
  const nameStart = skipSpace(view, start)
  const nameEnd = readNameEnd(view, nameStart)
  if (nameEnd === nameStart) {
    if (nameStart >= view.length) {
      builder.addError('truncated', () => parseSaid('mistralEndsAfterMarker', { marker: MARKER }), { start: markerAt, end: view.length })
      return view.length
    }
    builder.addError('invalid_call', () => parseSaid('mistralExpectedName', { marker: MARKER, offset: nameStart, found: view[nameStart] ?? '' }), { start: markerAt, end: nameStart })
    return nameStart
  }
  const name = view.slice(nameStart, nameEnd)
  let pos = nameEnd
  let id: string | undefined
  if (view.startsWith('[CALL_ID]', pos)) {
    const idStart = pos + '[CALL_ID]'.length
    const idEnd = readNameEnd(view, idStart)
    id = view.slice(idStart, idEnd)
    pos = idEnd
  }
  if (endsInsideMarkup(view, pos, ['[ARGS]', '[CALL_ID]'])) {
    builder.addError('truncated', () => parseSaid('mistralCutBeforeArgs', { name }), { start: markerAt, end: view.length })
    return view.length
  }
  // `[TOOL_CALLS]name{…}`: some Mistral releases (and fine-tunes) leave out [ARGS].
  const bare = !view.startsWith('[ARGS]', pos) && view.charCodeAt(skipSpace(view, pos)) === 0x7b
  if (!bare && !view.startsWith('[ARGS]', pos)) {
    if (pos >= view.length) {
      builder.addError('truncated', () => parseSaid('mistralCutBeforeArgs', { name }), { start: markerAt, end: view.length })
      return view.length
    }
    builder.addError('invalid_call', () => parseSaid('mistralExpectedArgs', { name, offset: pos, found: view[pos] ?? '' }), { start: markerAt, end: pos })
    return pos
  }
  const argsStart = skipSpace(view, bare ? pos : pos + '[ARGS]'.length)
  const read = readJsonDeferred(view, argsStart)
  if (!read.ok) {
    const cut = read.code === 'truncated'
    builder.addError(cut ? 'truncated' : 'invalid_arguments', () => parseSaid(cut ? 'callCut' : 'argsNotJson', { name, problem: nested(read.render().error) }), { start: argsStart, end: cut ? view.length : read.offset })
    return cut ? view.length : read.offset
  }
  for (const repair of read.repairs) builder.addRepair(repair.code, repair, repair.span)
  const decoded = decodeArguments(read.value, read.spans.span, name, read.spans.unclosed)
  if (!decoded.ok) {
    builder.addError(decoded.error.code, decoded.error, decoded.error.span)
    return read.end
  }
  const call: ParsedCall = {
    name,
    arguments: decoded.arguments,
    rawArguments: view.slice(read.start, read.end),
    spans: { call: { start: markerAt, end: read.end }, name: { start: nameStart, end: nameEnd }, arguments: read.spans.span },
  }
  if (id) call.id = id
  builder.addCall(call)
  return read.end
}

/** Reads every `[TOOL_CALLS]` call (either form) in `builder.view`. */
export function collectMistral(builder: ParseBuilder): void {
  const view = builder.view
  let pos = 0
  for (;;) {
    const at = view.indexOf(MARKER, pos)
    if (at < 0) return
    const after = at + MARKER.length
    const end = readWrappedJson(builder, after, MARKER) ?? readNamedCall(builder, at, after)
    builder.consume(at, end)
    pos = Math.max(end, after)
  }
}

/** `mistral` protocol: `[TOOL_CALLS][{"name", "arguments"}]` or `[TOOL_CALLS]NAME[ARGS]{…}`. */
export const mistral = defineTextProtocol({
  id: 'mistral',
  label: 'Mistral [TOOL_CALLS]',
  description: 'Mistral: [TOOL_CALLS] then a JSON array of {"name", "arguments"}, or NAME[ARGS]{…} per call.',
  collect: collectMistral,
  detect: (raw, before) => detectMarkers(raw, MARKERS, before),
  rules: [
    'To call tools, write [TOOL_CALLS] followed by a JSON array of {"name": "<tool name>", "arguments": {<arguments>}} objects.',
    'Write nothing after the array.',
  ],
  renderCall: (name, args) => `${MARKER}${JSON.stringify([{ name, arguments: args }])}`,
  example: '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]',
})
