/**
 * The tag family of formats, read by one scanner because models mix them freely:
 * - `<tool>{…}</tool>`, `<tool_call>{…}</tool_call>` (Hermes, Qwen 2.5/3), `<function_call>{…}</function_call>`;
 * - `<function=NAME>{…}</function>` (Llama 3.1 custom tools);
 * - `<tool_call><function=NAME><parameter=KEY>value</parameter>…</function></tool_call>` (Qwen3-Coder);
 * - `<tool_call>NAME<arg_key>KEY</arg_key><arg_value>value</arg_value>…</tool_call>` (GLM-4.5).
 */
import { readJson } from '../../json'
import type { JsonValue } from '../../messages'
import type { FormatDetection, ParsedCall, Span } from '../types'
import { decodeArguments, isJsonObject, readCallObject } from './call-object'
import { type ParseBuilder, skipSpace } from './parse-builder'
import { ForwardFinder, readNameEnd } from './scan'
import { defineMarkers, detectMarkers, detectionReason } from './detect'
import { nested, parsePhrase, parseSaid } from '../../util/parse-text'
import type { Phrase } from '../../util/phrase'
import { setMember } from '../../util/json-object'

const WRAPPER_TAGS = ['tool_call', 'tool', 'function_call', 'seed:tool_call'] as const
const WRAPPER_OPENERS = WRAPPER_TAGS.map((name) => `<${name}>`)

/** `t`, `f` or `s`: the first letter of every opener this scanner reads after `<`. */
function isTagNameStart(code: number): boolean {
  return code === 0x74 || code === 0x66 || code === 0x73
}

type JsonObject = { [key: string]: JsonValue }

/** A tag value: a JSON object or array when it reads as one, otherwise the text itself. */
export function tagValue(text: string): JsonValue {
  const trimmed = text.trim()
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const read = readJson(trimmed)
    if (read.ok && read.end === trimmed.length && read.repairs.length === 0) return read.value
  }
  return text
}

/** Strips exactly one line break at each end (Qwen3-Coder puts values on their own lines). */
export function stripOneNewline(text: string): string {
  let out = text
  if (out.startsWith('\r\n')) out = out.slice(2)
  else if (out.startsWith('\n')) out = out.slice(1)
  if (out.endsWith('\r\n')) out = out.slice(0, -2)
  else if (out.endsWith('\n')) out = out.slice(0, -1)
  return out
}

class TagScanner {
  private readonly view: string
  private readonly finder: ForwardFinder

  constructor(private readonly builder: ParseBuilder) {
    this.view = builder.view
    this.finder = new ForwardFinder(builder.view)
  }

  run(): void {
    const view = this.view
    let pos = 0
    while (pos < view.length) {
      const lt = view.indexOf('<', pos)
      if (lt < 0) break
      let next: number | undefined
      if (view.startsWith('<function=', lt) || view.startsWith('<function name=', lt)) {
        next = this.readFunctionTag(lt)
      } else if (isTagNameStart(view.charCodeAt(lt + 1))) {
        const tag = WRAPPER_TAGS.find((_name, index) => view.startsWith(WRAPPER_OPENERS[index] ?? '', lt))
        if (tag) next = this.readWrapper(lt, tag)
      }
      if (next !== undefined) this.builder.consume(lt, next)
      pos = next ?? lt + 1
    }
  }

  private cutOff(name: string | undefined, problem: Phrase | string, start: number): number {
    this.builder.addError('truncated', name === undefined ? parseSaid('toolCallCut', { problem }) : parseSaid('callCut', { name, problem }), { start, end: this.view.length })
    return this.view.length
  }

  /** After a call's body: the close tag, or a named repair when it is missing. Returns the end of the call. */
  private expectClose(close: string, open: string | undefined, bodyEnd: number): number {
    const view = this.view
    const after = skipSpace(view, bodyEnd)
    if (view.startsWith(close, after)) return after + close.length
    if (after >= view.length) {
      this.builder.addRepair('missing_close_tag', parseSaid('tagCloseCut', { close }), { start: bodyEnd, end: bodyEnd })
      return view.length
    }
    const closeAt = this.finder.next(close, bodyEnd)
    const nextOpen = open === undefined ? -1 : this.finder.next(open, bodyEnd)
    if (closeAt >= 0 && (nextOpen < 0 || closeAt < nextOpen)) {
      this.builder.addRepair('extra_text_in_tag', parseSaid('tagExtraText', { close }), { start: bodyEnd, end: closeAt })
      return closeAt + close.length
    }
    this.builder.addRepair('missing_close_tag', parseSaid('tagCloseMissing', { close }), { start: bodyEnd, end: bodyEnd })
    return bodyEnd
  }

  private readWrapper(lt: number, tag: string): number | undefined {
    const view = this.view
    const open = `<${tag}>`
    const close = `</${tag}>`
    const bodyStart = skipSpace(view, lt + open.length)
    if (bodyStart >= view.length) return this.cutOff(undefined, parsePhrase('cutAfterOpen', { open }), lt)
    const code = view.charCodeAt(bodyStart)
    if (code === 0x7b || code === 0x5b) return this.readJsonBody(lt, bodyStart, open, close)
    if (view.startsWith('<function=', bodyStart) || view.startsWith('<function name=', bodyStart)) {
      const end = this.readFunctionTag(bodyStart)
      if (end === undefined) {
        this.builder.addError('invalid_call', () => parseSaid('tagExpectedFunction', { open, offset: bodyStart }), { start: bodyStart, end: bodyStart })
        const closeAt = this.finder.next(close, bodyStart)
        return closeAt < 0 ? view.length : closeAt + close.length
      }
      return end >= view.length ? end : this.expectClose(close, open, end)
    }
    if (view.startsWith(close, bodyStart)) {
      this.builder.addError('missing_name', () => parseSaid('tagEmpty', { open }), { start: lt, end: bodyStart + close.length })
      return bodyStart + close.length
    }
    const nameEnd = readNameEnd(view, bodyStart)
    const closeAt = this.finder.next(close, bodyStart)
    const nextOpen = this.finder.next(open, lt + open.length)
    const closed = closeAt >= 0 && (nextOpen < 0 || closeAt < nextOpen)
    if (nameEnd > bodyStart) {
      const after = skipSpace(view, nameEnd)
      const lineBreak = after > nameEnd && /[\r\n]/.test(view.slice(nameEnd, after))
      const shaped = after >= view.length || lineBreak || view.startsWith('<arg_key>', after) || view.charCodeAt(after) === 0x7b || view.startsWith(close, after)
      if (shaped || closed) return this.readNamedBody(lt, bodyStart, nameEnd, close, open)
    }
    // "Wrap it in a <tool_call> tag": a mention in prose, not a call (no body, no close tag).
    if (!closed) return undefined
    this.builder.addError(
      'invalid_json',
      parseSaid('tagExpectedObject', { open, offset: bodyStart, found: view[bodyStart] ?? '' }),
      { start: bodyStart, end: bodyStart + 1 },
    )
    return closeAt + close.length
  }

  /**
   * A JSON body: one call object, an array of them, or several objects one after another (two
   * calls in one block). A body whose only defect is a missing final `}` before the close tag
   * is read with the closers supplied (repair `missing_closer`).
   */
  private readJsonBody(lt: number, bodyStart: number, open: string, close: string): number {
    const view = this.view
    let at = bodyStart
    let end = bodyStart
    for (let count = 0; ; count++) {
      let read = readJson(view, at, { spanDepth: 3 })
      if (!read.ok && read.error.code === 'invalid_json' && view.startsWith(close, skipSpace(view, read.error.offset))) {
        // Only closers missing before the close tag: read the body as if the output ended there.
        const retry = readJson(view.slice(0, skipSpace(view, read.error.offset)), at, { spanDepth: 3 })
        if (retry.ok) read = retry
      }
      if (!read.ok) {
        if (count > 0) break
        if (read.error.code === 'truncated') {
          const partial = read.partial
          const first = Array.isArray(partial) ? partial[partial.length - 1] : partial
          const name = isJsonObject(first) && typeof first.name === 'string' ? first.name : undefined
          return this.cutOff(name, nested(read.error), lt)
        }
        this.builder.addError('invalid_json', () => parseSaid('tagBodyInvalid', { open, problem: nested(read.error) }), { start: at, end: read.error.offset })
        const closeAt = this.finder.next(close, at)
        return closeAt < 0 ? view.length : closeAt + close.length
      }
      for (const repair of read.repairs) this.builder.addRepair(repair.code, repair, repair.span)
      const items = Array.isArray(read.value) ? read.value : [read.value]
      items.forEach((item, index) => {
        const node = Array.isArray(read.value) ? read.spans.items?.[index] : read.spans
        const reading = readCallObject(this.builder.raw, item, node, 'wrapped')
        if (reading.kind === 'call') {
          this.builder.addCall(reading.call)
          for (const repair of reading.repairs) this.builder.repairs.push(repair)
        } else if (reading.kind === 'error') {
          this.builder.addError(reading.error.code, reading.error, reading.error.span)
        }
      })
      end = read.end
      // Another object right after this one (optionally after a comma) is the block's next call.
      let next = skipSpace(view, read.end)
      if (view.charCodeAt(next) === 0x2c) next = skipSpace(view, next + 1)
      if (view.charCodeAt(next) !== 0x7b) break
      at = next
    }
    return this.expectClose(close, open, end)
  }

  private pushCall(call: ParsedCall): void {
    this.builder.addCall(call)
  }

  /**
   * Arguments that are not JSON: cut off at the end of the output is `truncated`, anything else
   * an `invalid_arguments` error; reading resumes after the closing tag. Returns where it resumes.
   */
  private unreadableArguments(name: string, error: { code: string; message: string; offset: number }, pos: number, close: string, lt: number): number {
    if (error.code === 'truncated') return this.cutOff(name, nested(error), lt)
    this.builder.addError('invalid_arguments', () => parseSaid('argsNotJsonKeepCase', { name, problem: nested(error) }), { start: pos, end: error.offset })
    const closeAt = this.finder.next(close, pos)
    return closeAt < 0 ? this.view.length : closeAt + close.length
  }

  /** `<tool_call>NAME` followed by `<arg_key>/<arg_value>` pairs (GLM-4.5) or a JSON object (GLM-4). */
  private readNamedBody(lt: number, nameStart: number, nameEnd: number, close: string, open: string): number {
    const view = this.view
    const name = view.slice(nameStart, nameEnd)
    let pos = skipSpace(view, nameEnd)
    const args: JsonObject = {}
    let argsSpan: Span | undefined
    if (view.charCodeAt(pos) === 0x7b) {
      const read = readJson(view, pos)
      if (!read.ok) return this.unreadableArguments(name, read.error, pos, close, lt)
      for (const repair of read.repairs) this.builder.addRepair(repair.code, repair, repair.span)
      const decoded = decodeArguments(read.value, read.spans.span, name, read.spans.unclosed)
      if (!decoded.ok) {
        this.builder.addError(decoded.error.code, decoded.error, decoded.error.span)
      } else {
        this.pushCall({ name, arguments: decoded.arguments, rawArguments: view.slice(read.start, read.end), spans: { call: { start: lt, end: read.end }, name: { start: nameStart, end: nameEnd }, arguments: read.spans.span } })
      }
      const end = this.expectClose(close, open, read.end)
      const last = this.builder.calls[this.builder.calls.length - 1]
      if (decoded.ok && last) last.spans.call.end = end
      return end
    }
    for (;;) {
      pos = skipSpace(view, pos)
      if (view.startsWith('<arg_key>', pos)) {
        const keyStart = pos + '<arg_key>'.length
        const keyEnd = this.finder.next('</arg_key>', keyStart)
        if (keyEnd < 0) return this.cutOff(name, parsePhrase('cutInsideArgKey', { offset: pos }), lt)
        const key = view.slice(keyStart, keyEnd).trim()
        pos = skipSpace(view, keyEnd + '</arg_key>'.length)
        if (!view.startsWith('<arg_value>', pos)) {
          if (endsInsideMarkup(view, pos, ['<arg_value>'])) return this.cutOff(name, parsePhrase('cutBeforeArgValue', { key }), lt)
          this.builder.addError('invalid_call', () => parseSaid('tagExpectedArgValue', { key, offset: pos }), { start: pos, end: pos })
          const closeAt = this.finder.next(close, pos)
          return closeAt < 0 ? view.length : closeAt + close.length
        }
        const valueStart = pos + '<arg_value>'.length
        const valueEnd = this.finder.next('</arg_value>', valueStart)
        if (valueEnd < 0) return this.cutOff(name, parsePhrase('cutInsideArgValue', { key }), lt)
        argsSpan = { start: argsSpan?.start ?? keyStart - '<arg_key>'.length, end: valueEnd + '</arg_value>'.length }
        setMember(args, key, tagValue(view.slice(valueStart, valueEnd)))
        pos = valueEnd + '</arg_value>'.length
        continue
      }
      break
    }
    // Ending inside the next tag, or before any pair, is a cut; ending after complete pairs is
    // only the close tag missing (repaired, like closers missing after a complete JSON value).
    if (endsInsideTag(view, pos, ['<arg_key>', close]) || (pos >= view.length && argsSpan === undefined)) return this.cutOff(name, parsePhrase('cutAfterArguments', { close }), lt)
    const end = this.expectClose(close, open, pos)
    const call: ParsedCall = { name, arguments: args, spans: { call: { start: lt, end }, name: { start: nameStart, end: nameEnd } } }
    if (argsSpan) {
      call.spans.arguments = argsSpan
      call.rawArguments = view.slice(argsSpan.start, argsSpan.end)
    }
    this.pushCall(call)
    return end
  }

  /** `<function=NAME>` with a JSON body (Llama 3.1) or `<parameter=KEY>` elements (Qwen3-Coder). Undefined when not a tag. */
  private readFunctionTag(lt: number): number | undefined {
    const view = this.view
    let nameStart: number
    let nameEnd: number
    let headerEnd: number
    if (view.startsWith('<function=', lt)) {
      nameStart = lt + '<function='.length
      nameEnd = readNameEnd(view, nameStart)
      headerEnd = nameEnd
    } else {
      // `<function name="get_weather">`: the attribute form.
      const quoteAt = skipSpace(view, lt + '<function name='.length)
      const quote = view.charCodeAt(quoteAt)
      const quoted = quote === 0x22 || quote === 0x27
      nameStart = quoted ? quoteAt + 1 : quoteAt
      nameEnd = readNameEnd(view, nameStart)
      headerEnd = quoted && view.charCodeAt(nameEnd) === quote ? skipSpace(view, nameEnd + 1) : nameEnd
    }
    if (nameEnd === nameStart || view.charCodeAt(headerEnd) !== 0x3e) return undefined
    const name = view.slice(nameStart, nameEnd).replace(/\\_/g, '_')
    const close = '</function>'
    let pos = skipSpace(view, headerEnd + 1)
    const nameSpan = { start: nameStart, end: nameEnd }
    if (view.startsWith(close, pos)) {
      this.pushCall({ name, arguments: {}, spans: { call: { start: lt, end: pos + close.length }, name: nameSpan } })
      return pos + close.length
    }
    if (endsInsideMarkup(view, pos, ['<parameter=', close])) return this.cutOff(name, parsePhrase('cutAfterFunction', { name }), lt)
    if (view.charCodeAt(pos) === 0x7b) {
      const read = readJson(view, pos)
      if (!read.ok) return this.unreadableArguments(name, read.error, pos, close, lt)
      for (const repair of read.repairs) this.builder.addRepair(repair.code, repair, repair.span)
      const end = this.expectClose(close, undefined, read.end)
      const decoded = decodeArguments(read.value, read.spans.span, name, read.spans.unclosed)
      if (!decoded.ok) {
        this.builder.addError(decoded.error.code, decoded.error, decoded.error.span)
        return end
      }
      this.pushCall({ name, arguments: decoded.arguments, rawArguments: view.slice(read.start, read.end), spans: { call: { start: lt, end }, name: nameSpan, arguments: read.spans.span } })
      return end
    }
    const args: JsonObject = {}
    let argsSpan: Span | undefined
    for (;;) {
      pos = skipSpace(view, pos)
      if (endsInsideTag(view, pos, ['<parameter=', close])) return this.cutOff(name, parsePhrase('cutInsideTag'), lt)
      if (!view.startsWith('<parameter=', pos)) break
      const keyStart = pos + '<parameter='.length
      let gt = keyStart
      while (gt < view.length && view.charCodeAt(gt) !== 0x3e && view.charCodeAt(gt) !== 0x0a) gt++
      if (view.charCodeAt(gt) !== 0x3e) {
        if (gt >= view.length) return this.cutOff(name, parsePhrase('cutInsideParameterTag', { offset: pos }), lt)
        this.builder.addError('invalid_call', () => parseSaid('tagExpectedGt', { offset: keyStart }), { start: pos, end: pos })
        const closeAt = this.finder.next(close, pos)
        return closeAt < 0 ? view.length : closeAt + close.length
      }
      const key = view.slice(keyStart, gt).trim()
      const valueStart = gt + 1
      const ends = [this.finder.next('</parameter>', valueStart), this.finder.next('<parameter=', valueStart), this.finder.next(close, valueStart)].filter((at) => at >= 0)
      if (ends.length === 0) return this.cutOff(name, parsePhrase('cutInsideParameter', { key }), lt)
      const valueEnd = Math.min(...ends)
      setMember(args, key, tagValue(stripOneNewline(view.slice(valueStart, valueEnd))))
      pos = view.startsWith('</parameter>', valueEnd) ? valueEnd + '</parameter>'.length : valueEnd
      if (!view.startsWith('</parameter>', valueEnd)) {
        this.builder.addRepair('missing_close_tag', parseSaid('tagParameterWithoutClose', { key }), { start: valueEnd, end: valueEnd })
      }
      argsSpan = { start: argsSpan?.start ?? keyStart - '<parameter='.length, end: pos }
    }
    let end: number
    if (view.startsWith(close, pos)) end = pos + close.length
    else if (pos >= view.length) {
      this.builder.addRepair('missing_close_tag', parseSaid('tagFunctionWithoutClose', { name }), { start: pos, end: pos })
      end = view.length
    } else {
      this.builder.addError('invalid_call', () => parseSaid('tagExpectedParameter', { name, offset: pos, found: view[pos] ?? '' }), { start: pos, end: pos + 1 })
      const closeAt = this.finder.next(close, pos)
      return closeAt < 0 ? view.length : closeAt + close.length
    }
    const call: ParsedCall = { name, arguments: args, spans: { call: { start: lt, end }, name: nameSpan } }
    if (argsSpan) {
      call.spans.arguments = argsSpan
      call.rawArguments = view.slice(argsSpan.start, argsSpan.end)
    }
    this.pushCall(call)
    return end
  }
}

/**
 * True when the output ends at `pos` (after whitespace) or inside one of `tags` (a prefix of it
 * runs to the end): a tag-structured call stopped there may have gone on.
 */
export function endsInsideMarkup(view: string, pos: number, tags: readonly string[]): boolean {
  return pos >= view.length || endsInsideTag(view, pos, tags)
}

/** True when what is left at `pos` is a proper prefix of one of `tags` (`</para` at the end). */
export function endsInsideTag(view: string, pos: number, tags: readonly string[]): boolean {
  const rest = view.length - pos
  return rest > 0 && rest < 24 && tags.some((tag) => rest < tag.length && tag.startsWith(view.slice(pos)))
}

/**
 * Finds every tag-wrapped call in `builder.view` and records calls, repairs, errors and the
 * consumed markup on the builder. Pure apart from the builder; never throws; linear.
 */
export function collectTaggedCalls(builder: ParseBuilder): void {
  new TagScanner(builder).run()
}

/** The tags that open a call of the tag family (registered for the shared detection scan). */
export const TAG_MARKERS = defineMarkers('<tool_call>', '<tool>', '<function_call>', '<function=', '<function name=')

/** What follows a tag-family opener, as far as detection needs to know. */
export type TagBody = 'json' | 'function-json' | 'function-parameters' | 'arg-pairs' | 'name' | 'other'

/**
 * Classifies the body after the opener `marker` at `at` from a bounded excerpt (400 chars), so
 * detection stays cheap whatever the output's length.
 */
export function tagBody(view: string, at: number, marker: string): TagBody {
  const bodyStart = marker === '<function=' || marker === '<function name=' ? at : skipSpace(view, at + marker.length)
  const excerpt = view.slice(bodyStart, bodyStart + 400)
  if (excerpt.startsWith('<function=') || excerpt.startsWith('<function name=')) {
    const close = excerpt.indexOf('>')
    if (close < 0) return 'other'
    const after = skipSpace(excerpt, close + 1)
    if (excerpt.startsWith('<parameter=', after)) return 'function-parameters'
    if (excerpt.charCodeAt(after) === 0x7b || excerpt.startsWith('</function>', after) || after >= excerpt.length) return 'function-json'
    return 'other'
  }
  const first = excerpt.charCodeAt(0)
  if (first === 0x7b || first === 0x5b) return 'json'
  const nameEnd = readNameEnd(excerpt, 0)
  if (nameEnd === 0) return 'other'
  const after = skipSpace(excerpt, nameEnd)
  if (excerpt.startsWith('<arg_key>', after)) return 'arg-pairs'
  // `<tool_call>get_time</tool_call>`, or a name on its own line: a call without arguments.
  if (excerpt.startsWith('</', after) || (after > nameEnd && /[\r\n]/.test(excerpt.slice(nameEnd, after)))) return 'name'
  return 'other'
}

/**
 * Detection for one member of the tag family: the earliest opener whose body is of one of `kinds`.
 *
 * @param confidence by body kind; kinds not listed are not this member's
 */
export function detectTags(raw: string, before: number | undefined, label: 'detectTagJson' | 'detectTagFunction' | 'detectTagArgPairs', confidence: Partial<Record<TagBody, number>>): FormatDetection | undefined {
  return detectMarkers(
    raw,
    TAG_MARKERS,
    before,
    (scan, at, marker) => {
      const kind = tagBody(scan.view, at, marker)
      const score = confidence[kind]
      return score === undefined ? undefined : { confidence: score, ...detectionReason(label, { marker, at }) }
    },
    8,
  )
}
