/**
 * `deepseek`: DeepSeek V3 / R1 / V3.1 special tokens (fullwidth bars):
 * `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>`
 * (V3, R1) and `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>` (V3.1).
 */
import { readJson } from '../json'
import { decodeArguments, lowerFirst } from './shared/call-object'
import { defineTextProtocol } from './shared/define'
import { type ParseBuilder, skipSpace } from './shared/parse-builder'
import { ForwardFinder, readNameEnd } from './shared/scan'
import { defineMarkers, detectMarkers } from './shared/detect'

const CALLS_BEGIN = '<｜tool▁calls▁begin｜>'
const CALLS_END = '<｜tool▁calls▁end｜>'
const CALL_BEGIN = '<｜tool▁call▁begin｜>'
const CALL_END = '<｜tool▁call▁end｜>'
const SEP = '<｜tool▁sep｜>'
const MARKERS = defineMarkers(CALLS_BEGIN, CALL_BEGIN)

function consumeAll(builder: ParseBuilder, token: string): void {
  let at = builder.view.indexOf(token)
  while (at >= 0) {
    builder.consume(at, at + token.length)
    at = builder.view.indexOf(token, at + token.length)
  }
}

/** Reads one call whose begin token is at `at`; returns its end. */
function readCall(builder: ParseBuilder, finder: ForwardFinder, at: number): number {
  const view = builder.view
  const headStart = at + CALL_BEGIN.length
  const sep = finder.next(SEP, headStart)
  const nextBegin = finder.next(CALL_BEGIN, headStart)
  if (sep < 0 || (nextBegin >= 0 && nextBegin < sep)) {
    if (sep < 0 && nextBegin < 0) {
      builder.addError('truncated', `The tool call at offset ${at} was cut off before ${SEP}.`, { start: at, end: view.length })
      return view.length
    }
    builder.addError('invalid_call', `Expected ${SEP} in the tool call at offset ${at}.`, { start: at, end: headStart })
    return headStart
  }
  const head = view.slice(headStart, sep).trim()
  let nameStart: number
  let nameEnd: number
  let argsAt: number
  if (head === 'function' || head === '') {
    nameStart = skipSpace(view, sep + SEP.length)
    nameEnd = readNameEnd(view, nameStart)
    argsAt = skipSpace(view, nameEnd)
  } else {
    nameStart = skipSpace(view, headStart)
    nameEnd = nameStart + head.length
    argsAt = skipSpace(view, sep + SEP.length)
  }
  const name = view.slice(nameStart, nameEnd)
  let fenced = false
  if (view.startsWith('```', argsAt)) {
    fenced = true
    let lineEnd = argsAt + 3
    while (lineEnd < view.length && /[A-Za-z0-9_-]/.test(view[lineEnd] ?? '')) lineEnd++
    argsAt = skipSpace(view, lineEnd)
  }
  const read = readJson(view, argsAt)
  if (!read.ok) {
    const cut = read.error.code === 'truncated'
    builder.addError(cut ? 'truncated' : 'invalid_arguments', `The ${cut ? 'call to' : 'arguments of'} "${name}" ${cut ? 'was cut off' : 'are not valid JSON'}: ${lowerFirst(read.error.message)}`, { start: argsAt, end: cut ? view.length : read.error.offset })
    if (cut) return view.length
    const end = finder.next(CALL_END, read.error.offset)
    return end < 0 ? view.length : end + CALL_END.length
  }
  for (const repair of read.repairs) builder.addRepair(repair.code, repair.message, repair.span)
  let end = skipSpace(view, read.end)
  if (fenced && view.startsWith('```', end)) end = skipSpace(view, end + 3)
  if (view.startsWith(CALL_END, end)) end += CALL_END.length
  else {
    builder.addRepair('missing_close_tag', `Read the call to "${name}" without ${CALL_END}.`, { start: read.end, end: read.end })
    end = read.end
  }
  const decoded = decodeArguments(read.value, read.spans.span, name, read.spans.unclosed)
  if (!decoded.ok) {
    builder.addError(decoded.error.code, decoded.error.message, decoded.error.span)
    return end
  }
  builder.addCall({ name, arguments: decoded.arguments, rawArguments: view.slice(read.start, read.end), spans: { call: { start: at, end }, name: { start: nameStart, end: nameEnd }, arguments: read.spans.span } })
  return end
}

function collect(builder: ParseBuilder): void {
  const view = builder.view
  const finder = new ForwardFinder(view)
  consumeAll(builder, CALLS_BEGIN)
  consumeAll(builder, CALLS_END)
  let pos = 0
  for (;;) {
    const at = finder.next(CALL_BEGIN, pos)
    if (at < 0) return
    const end = readCall(builder, finder, at)
    builder.consume(at, end)
    pos = Math.max(end, at + CALL_BEGIN.length)
  }
}

/** `deepseek` protocol: `<｜tool▁call▁begin｜>…<｜tool▁sep｜>…<｜tool▁call▁end｜>`. */
export const deepseek = defineTextProtocol({
  id: 'deepseek',
  label: 'DeepSeek tool tokens',
  description: 'DeepSeek V3/R1/V3.1: <｜tool▁call▁begin｜>function<｜tool▁sep｜>name and ```json arguments.',
  collect,
  detect: (raw, before) => detectMarkers(raw, MARKERS, before),
  rules: [
    `To call tools, write ${CALLS_BEGIN}, then for each call ${CALL_BEGIN}function${SEP}<tool name>, a new line, the arguments as JSON in a \`\`\`json fence, and ${CALL_END}; finish with ${CALLS_END}.`,
  ],
  renderCall: (name, args) => `${CALLS_BEGIN}${CALL_BEGIN}function${SEP}${name}\n\`\`\`json\n${JSON.stringify(args)}\n\`\`\`${CALL_END}${CALLS_END}`,
  example: `${CALLS_BEGIN}${CALL_BEGIN}function${SEP}get_weather\n\`\`\`json\n{"city": "Paris"}\n\`\`\`${CALL_END}${CALLS_END}`,
})
