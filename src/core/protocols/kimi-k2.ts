/**
 * `kimi-k2`: Moonshot Kimi K2 section tokens,
 * `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:INDEX<|tool_call_argument_begin|>{…}<|tool_call_end|><|tool_calls_section_end|>`;
 * the tool name is encoded in the call id.
 */
import { readJsonDeferred } from '../json'
import { decodeArguments } from './shared/call-object'
import { defineTextProtocol } from './shared/define'
import { type ParseBuilder, skipSpace } from './shared/parse-builder'
import { ForwardFinder } from './shared/scan'
import { defineMarkers, detectMarkers } from './shared/detect'
import { nested, parseSaid } from '../util/parse-text'

const SECTION_BEGIN = '<|tool_calls_section_begin|>'
const SECTION_END = '<|tool_calls_section_end|>'
const CALL_BEGIN = '<|tool_call_begin|>'
const ARGUMENT_BEGIN = '<|tool_call_argument_begin|>'
const CALL_END = '<|tool_call_end|>'
const MARKERS = defineMarkers(SECTION_BEGIN, CALL_BEGIN)

function readCall(builder: ParseBuilder, finder: ForwardFinder, at: number): number {
  const view = builder.view
  const idStart = at + CALL_BEGIN.length
  const argumentBegin = finder.next(ARGUMENT_BEGIN, idStart)
  if (argumentBegin < 0) {
    builder.addError('truncated', () => parseSaid('toolCallCutBefore', { offset: at, marker: ARGUMENT_BEGIN }), { start: at, end: view.length })
    return view.length
  }
  const rawId = view.slice(idStart, argumentBegin)
  const id = rawId.trim()
  // `functions.get_weather:0` → `get_weather`
  const withoutPrefix = id.startsWith('functions.') ? id.slice('functions.'.length) : id
  const colon = withoutPrefix.lastIndexOf(':')
  const name = colon >= 0 ? withoutPrefix.slice(0, colon) : withoutPrefix
  const nameStart = idStart + rawId.indexOf(name)
  const argsAt = skipSpace(view, argumentBegin + ARGUMENT_BEGIN.length)
  const read = readJsonDeferred(view, argsAt)
  if (!read.ok) {
    const cut = read.code === 'truncated'
    builder.addError(cut ? 'truncated' : 'invalid_arguments', () => parseSaid(cut ? 'callCut' : 'argsNotJson', { name, problem: nested(read.render().error) }), { start: argsAt, end: cut ? view.length : read.offset })
    if (cut) return view.length
    const end = finder.next(CALL_END, read.offset)
    return end < 0 ? view.length : end + CALL_END.length
  }
  for (const repair of read.repairs) builder.addRepair(repair.code, repair, repair.span)
  let end = skipSpace(view, read.end)
  if (view.startsWith(CALL_END, end)) end += CALL_END.length
  else {
    builder.addRepair('missing_close_tag', parseSaid('callWithoutClose', { name, marker: CALL_END }), { start: read.end, end: read.end })
    end = read.end
  }
  const decoded = decodeArguments(read.value, read.spans.span, name, read.spans.unclosed)
  if (!decoded.ok) {
    builder.addError(decoded.error.code, decoded.error, decoded.error.span)
    return end
  }
  builder.addCall({ name, id, arguments: decoded.arguments, rawArguments: view.slice(read.start, read.end), spans: { call: { start: at, end }, name: { start: nameStart, end: nameStart + name.length }, arguments: read.spans.span } })
  return end
}

function collect(builder: ParseBuilder): void {
  const view = builder.view
  const finder = new ForwardFinder(view)
  for (const token of [SECTION_BEGIN, SECTION_END]) {
    let at = view.indexOf(token)
    while (at >= 0) {
      builder.consume(at, at + token.length)
      at = view.indexOf(token, at + token.length)
    }
  }
  let pos = 0
  for (;;) {
    const at = finder.next(CALL_BEGIN, pos)
    if (at < 0) return
    const end = readCall(builder, finder, at)
    builder.consume(at, end)
    pos = Math.max(end, at + CALL_BEGIN.length)
  }
}

/** `kimi-k2` protocol: `<|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`. */
export const kimiK2 = defineTextProtocol({
  id: 'kimi-k2',
  label: 'Kimi K2 sections',
  description: 'Kimi K2: <|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}<|tool_call_end|>.',
  collect,
  detect: (raw, before) => detectMarkers(raw, MARKERS, before),
  rules: [
    `To call tools, write ${SECTION_BEGIN}, then per call ${CALL_BEGIN}functions.<tool name>:<call index>${ARGUMENT_BEGIN}{<arguments>}${CALL_END}, then ${SECTION_END}.`,
  ],
  renderCall: (name, args) => `${SECTION_BEGIN}${CALL_BEGIN}functions.${name}:0${ARGUMENT_BEGIN}${JSON.stringify(args)}${CALL_END}${SECTION_END}`,
  example: `${SECTION_BEGIN}${CALL_BEGIN}functions.get_weather:0${ARGUMENT_BEGIN}{"city": "Paris"}${CALL_END}${SECTION_END}`,
})
