/**
 * Reading the JSON that follows a format's marker (`[TOOL_CALLS]`, `<|tool_call|>`, `functools`,
 * `<|START_ACTION|>`): one call object or an array of them, every object taken as a call.
 */
import { mayStartValue, readJsonDeferred } from '../../json'
import { isJsonObject, readCallObject } from './call-object'
import { type ParseBuilder, skipSpace } from './parse-builder'
import { nested, parseSaid } from '../../util/parse-text'

/**
 * Reads calls from the JSON value at `start` (after whitespace) and records them on the builder.
 * Returns the offset after the value, `view.length` when it was cut off (error `truncated`), or
 * `undefined` when no JSON value starts there (nothing recorded).
 *
 * @param marker the marker before the value, for messages
 */
export function readWrappedJson(builder: ParseBuilder, start: number, marker: string): number | undefined {
  const view = builder.view
  const at = skipSpace(view, start)
  const code = view.charCodeAt(at)
  // Hostile input repeats the marker (`[TOOL_CALLS][TOOL_CALLS]…`): a certain failure is not read.
  if ((code !== 0x7b && code !== 0x5b) || !mayStartValue(view, at)) return undefined
  // Deferred: a megabyte of `[TOOL_CALLS]{"name": "f"` fails a read every few characters, and
  // past the listed errors a failure's message is never written.
  const deferred = readJsonDeferred(view, at, { spanDepth: 3 })
  if (!deferred.ok && deferred.code !== 'truncated') {
    builder.addError('invalid_json', () => parseSaid('wrappedInvalid', { marker, problem: nested(deferred.render().error) }), { start: at, end: deferred.offset })
    return deferred.offset
  }
  const read = deferred.ok ? deferred : deferred.render()
  if (!read.ok) {
    if (read.error.code === 'truncated') {
      const partial = read.partial
      const last = Array.isArray(partial) ? partial[partial.length - 1] : partial
      const nameValue = isJsonObject(last) ? (last.name ?? last.tool_name ?? last.tool) : undefined
      const problem = nested(read.error)
      builder.addError('truncated', typeof nameValue === 'string' ? parseSaid('callCut', { name: nameValue, problem }) : parseSaid('toolCallAfterCut', { marker, problem }), { start: at, end: view.length })
      return view.length
    }
    builder.addError('invalid_json', () => parseSaid('wrappedInvalid', { marker, problem: nested(read.error) }), { start: at, end: read.error.offset })
    return read.error.offset
  }
  for (const repair of read.repairs) builder.addRepair(repair.code, repair, repair.span)
  const items = Array.isArray(read.value) ? read.value : [read.value]
  items.forEach((item, index) => {
    const node = Array.isArray(read.value) ? read.spans.items?.[index] : read.spans
    const reading = readCallObject(builder.raw, item, node, 'wrapped')
    if (reading.kind === 'call') {
      builder.addCall(reading.call)
      for (const repair of reading.repairs) builder.repairs.push(repair)
    } else if (reading.kind === 'error') {
      builder.addError(reading.error.code, reading.error, reading.error.span)
    }
  })
  return read.end
}

/**
 * Parses formats of the shape "marker, then JSON call(s), then optionally an end marker":
 * every occurrence of `marker` starts calls; what lies outside is text.
 */
export function collectMarkedJson(builder: ParseBuilder, marker: string, endMarker?: string): void {
  const view = builder.view
  let pos = 0
  for (;;) {
    const at = view.indexOf(marker, pos)
    if (at < 0) return
    const after = at + marker.length
    const end = readWrappedJson(builder, after, marker)
    if (end === undefined) {
      // A word marker (`functools`) can be ordinary prose; only a special token promises a call.
      if (!marker.startsWith('<') && !marker.startsWith('[')) {
        pos = after
        continue
      }
      if (skipSpace(view, after) >= view.length) {
        builder.addError('truncated', () => parseSaid('endsAfterMarker', { marker }), { start: at, end: view.length })
        builder.consume(at, view.length)
        return
      }
      builder.addError('invalid_call', () => parseSaid('expectedJsonAfter', { marker, offset: skipSpace(view, after) }), { start: at, end: after })
      builder.consume(at, after)
      pos = after
      continue
    }
    let stop = end
    if (endMarker !== undefined) {
      const next = skipSpace(view, end)
      if (view.startsWith(endMarker, next)) stop = next + endMarker.length
    }
    builder.consume(at, stop)
    pos = Math.max(stop, after)
  }
}
