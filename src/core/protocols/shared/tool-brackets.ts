/**
 * The two `[TOOL: …]` formats of the hand-written designs, read by one scanner because they
 * share the opening: `[TOOL: name] [ARGS: {…}]` (bracket) and `[TOOL:name|key=value|…]` (pipe).
 */
import { readJsonDeferred } from '../../json'
import type { JsonValue } from '../../messages'
import type { FormatDetection, ParsedCall } from '../types'
import { defineMarkers, detectMarkers, detectionReason } from './detect'
import { decodeArguments } from './call-object'
import { type ParseBuilder, skipSpace } from './parse-builder'
import { readNameEnd } from './scan'
import { nested, parseSaid } from '../../util/parse-text'
import { setMember } from '../../util/json-object'

const OPEN = '[TOOL'

function skipBlanks(text: string, pos: number): number {
  let i = pos
  while (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09) i++
  return i
}

/** Reads `|key=value|…]` starting at the first `|`; returns the end of the call. */
function readPipe(builder: ParseBuilder, at: number, name: string, nameSpan: { start: number; end: number }, pipeAt: number): number {
  const view = builder.view
  // Values may hold `=`, parentheses, operators and balanced brackets (`a[1]`); the call ends at
  // the first `]` outside brackets.
  let depth = 0
  let end = -1
  for (let i = pipeAt; i < view.length; i++) {
    const code = view.charCodeAt(i)
    if (code === 0x5b) depth++
    else if (code === 0x5d) {
      if (depth === 0) {
        end = i
        break
      }
      depth--
    }
  }
  if (end < 0) {
    builder.addError('truncated', () => parseSaid('bracketCutName', { name }), { start: at, end: view.length })
    return view.length
  }
  const args: { [key: string]: JsonValue } = {}
  let segmentStart = pipeAt + 1
  for (let i = pipeAt + 1; i <= end; i++) {
    if (i < end && view.charCodeAt(i) !== 0x7c) continue
    const segment = view.slice(segmentStart, i)
    if (segment.trim() !== '') {
      const equals = segment.indexOf('=')
      if (equals < 0) {
        builder.addError('invalid_arguments', () => parseSaid('bracketExpectedKeyValue', { name, offset: segmentStart, segment: segment.trim() }), { start: segmentStart, end: i })
      } else {
        const key = segment.slice(0, equals).trim()
        const value = segment.slice(equals + 1).trim()
        setMember(args, key, value)
      }
    }
    segmentStart = i + 1
  }
  builder.addCall({ name, arguments: args, rawArguments: view.slice(pipeAt + 1, end), spans: { call: { start: at, end: end + 1 }, name: nameSpan, arguments: { start: pipeAt + 1, end } } })
  return end + 1
}

/** Reads an optional `[ARGS: {…}]` after `[TOOL: name]`; returns the end of the call. */
function readArgsBlock(builder: ParseBuilder, at: number, name: string, nameSpan: { start: number; end: number }, toolEnd: number): number {
  const view = builder.view
  const argsAt = skipSpace(view, toolEnd)
  const call: ParsedCall = { name, arguments: {}, spans: { call: { start: at, end: toolEnd }, name: nameSpan } }
  // `[TOOL: name] [AR` at the end: the arguments were cut off.
  const rest = view.length - argsAt
  if (rest > 0 && rest < '[ARGS:'.length && '[ARGS:'.startsWith(view.slice(argsAt))) {
    builder.addError('truncated', () => parseSaid('bracketCutInsideArgs', { name }), { start: at, end: view.length })
    return view.length
  }
  if (!view.startsWith('[ARGS', argsAt)) {
    builder.addCall(call)
    return toolEnd
  }
  const colon = skipBlanks(view, argsAt + '[ARGS'.length)
  if (view.charCodeAt(colon) !== 0x3a) {
    builder.addCall(call)
    return toolEnd
  }
  const jsonAt = skipSpace(view, colon + 1)
  if (jsonAt >= view.length) {
    builder.addError('truncated', () => parseSaid('bracketCutAfterArgs', { name }), { start: at, end: view.length })
    return view.length
  }
  // Deferred: past MAX_LISTED_ERRORS a failure is only counted, so its message is never written
  // (`[TOOL: f] [ARGS: {f(a=` repeated wrote one per call).
  const read = readJsonDeferred(view, jsonAt)
  if (!read.ok) {
    const cut = read.code === 'truncated'
    builder.addError(cut ? 'truncated' : 'invalid_arguments', () => parseSaid(cut ? 'callCut' : 'argsNotJson', { name, problem: nested(read.render().error) }), { start: jsonAt, end: cut ? view.length : read.offset })
    return cut ? view.length : read.offset
  }
  for (const repair of read.repairs) builder.addRepair(repair.code, repair, repair.span)
  const decoded = decodeArguments(read.value, read.spans.span, name, read.spans.unclosed)
  let end = skipSpace(view, read.end)
  if (view.charCodeAt(end) === 0x5d) end++
  else {
    builder.addRepair('missing_closer', parseSaid('bracketArgsWithoutClose', { name }), { start: read.end, end: read.end })
    end = read.end
  }
  if (!decoded.ok) {
    builder.addError(decoded.error.code, decoded.error, decoded.error.span)
    return end
  }
  call.arguments = decoded.arguments
  call.rawArguments = view.slice(read.start, read.end)
  call.spans = { call: { start: at, end }, name: nameSpan, arguments: read.spans.span }
  builder.addCall(call)
  return end
}

/** Finds every `[TOOL: …]` call (either form) and records it on the builder. Linear. */
export function collectToolBrackets(builder: ParseBuilder): void {
  const view = builder.view
  let pos = 0
  for (;;) {
    const at = view.indexOf(OPEN, pos)
    if (at < 0) return
    const colon = skipBlanks(view, at + OPEN.length)
    if (view.charCodeAt(colon) !== 0x3a) {
      pos = at + 1
      continue
    }
    const nameStart = skipBlanks(view, colon + 1)
    const nameEnd = readNameEnd(view, nameStart)
    const next = skipBlanks(view, nameEnd)
    const written = view.slice(nameStart, nameEnd)
    // Markdown-escaped underscores (`get\\_weather`); most names hold no backslash and skip the regex.
    const name = written.includes('\\') ? written.replace(/\\_/g, '_') : written
    const nameSpan = { start: nameStart, end: nameEnd }
    let end: number
    if (nameEnd === nameStart || next >= view.length) {
      if (next < view.length) {
        pos = at + 1
        continue
      }
      builder.addError('truncated', () => parseSaid('bracketEndsInside', { offset: at }), { start: at, end: view.length })
      end = view.length
    } else if (view.charCodeAt(next) === 0x5d) {
      end = readArgsBlock(builder, at, name, nameSpan, next + 1)
    } else if (view.charCodeAt(next) === 0x7c) {
      end = readPipe(builder, at, name, nameSpan, next)
    } else {
      builder.addError('invalid_call', () => parseSaid('bracketExpectedClose', { name, offset: next, found: view[next] ?? '' }), { start: at, end: next })
      end = next
    }
    builder.consume(at, end)
    pos = Math.max(end, at + 1)
  }
}

const MARKERS = defineMarkers('[TOOL:', '[TOOL :')

/**
 * Detection for the `[TOOL: …]` pair: `]` after the name is `bracket`, `|` is `pipe`.
 *
 * @param form which of the two forms to look for
 */
export function detectToolBrackets(raw: string, before: number | undefined, form: 'bracket' | 'pipe'): FormatDetection | undefined {
  return detectMarkers(raw, MARKERS, before, (scan, at, marker) => {
    const view = scan.view
    const nameStart = skipBlanks(view, at + marker.length)
    const nameEnd = readNameEnd(view, nameStart)
    if (nameEnd === nameStart) return undefined
    const next = view.charCodeAt(skipBlanks(view, nameEnd))
    if (form === 'bracket' && next === 0x5d) return { confidence: 0.85, ...detectionReason('detectBracket', { at }) }
    if (form === 'pipe' && next === 0x7c) return { confidence: 0.85, ...detectionReason('detectPipe', { at }) }
    return undefined
  })
}
