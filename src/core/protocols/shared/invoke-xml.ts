/**
 * The `<invoke name="…"><parameter name="…">value</parameter></invoke>` call shape shared by
 * MiniMax M2 (inside `<minimax:tool_call>`) and DeepSeek V3.2 DSML (the same elements spelled
 * `<｜DSML｜invoke>` and `<｜DSML｜parameter … string="true|false">`, inside `<｜DSML｜function_calls>`).
 */
import type { JsonValue } from '../../messages'
import { readJson } from '../../json'
import type { ParsedCall, Span } from '../types'
import { type ParseBuilder, skipSpace } from './parse-builder'
import { ForwardFinder, readNameEnd } from './scan'
import { endsInsideMarkup, endsInsideTag, stripOneNewline, tagValue } from './tags'
import { nested, parsePhrase, parseSaid } from '../../util/parse-text'
import type { Phrase } from '../../util/phrase'
import { setMember } from '../../util/json-object'

/** The element names of one spelling. */
export interface InvokeSyntax {
  /** The block around the calls, e.g. `<minimax:tool_call>` and `</minimax:tool_call>`. */
  blockOpen: string
  blockClose: string
  /** `<invoke` (the element, without ` name=`). */
  invoke: string
  invokeClose: string
  parameter: string
  parameterClose: string
  /** DSML: a `string="false"` parameter holds JSON; `string="true"` (or none) holds text. */
  typedParameters: boolean
}

type JsonObject = { [key: string]: JsonValue }

/** Reads `name="value"` attributes from `at` to the tag's `>`; returns them and the offset after `>`, or undefined when there is no `>` on the line. */
function readAttributes(view: string, at: number): { attributes: Map<string, { value: string; span: Span }>; end: number } | undefined {
  const attributes = new Map<string, { value: string; span: Span }>()
  let pos = at
  for (let count = 0; count < 16; count++) {
    pos = skipSpace(view, pos)
    if (view.charCodeAt(pos) === 0x3e) return { attributes, end: pos + 1 }
    const keyEnd = readNameEnd(view, pos)
    if (keyEnd === pos || view.charCodeAt(keyEnd) !== 0x3d) return undefined
    const key = view.slice(pos, keyEnd)
    const quote = view.charCodeAt(keyEnd + 1)
    if (quote !== 0x22 && quote !== 0x27) {
      const valueEnd = readNameEnd(view, keyEnd + 1)
      attributes.set(key, { value: view.slice(keyEnd + 1, valueEnd), span: { start: keyEnd + 1, end: valueEnd } })
      pos = valueEnd
      continue
    }
    const close = view.indexOf(String.fromCharCode(quote), keyEnd + 2)
    // A name runs to its closing quote on the same line; farther is not an attribute.
    if (close < 0 || close - keyEnd > 300) return undefined
    attributes.set(key, { value: view.slice(keyEnd + 2, close), span: { start: keyEnd + 2, end: close } })
    pos = close + 1
  }
  return undefined
}

class InvokeReader {
  private readonly view: string
  private readonly finder: ForwardFinder

  constructor(
    private readonly builder: ParseBuilder,
    private readonly syntax: InvokeSyntax,
  ) {
    this.view = builder.view
    this.finder = new ForwardFinder(builder.view)
  }

  run(): void {
    let pos = 0
    for (;;) {
      const at = this.finder.next(this.syntax.blockOpen, pos)
      if (at < 0) return
      const end = this.readBlock(at)
      this.builder.consume(at, end)
      pos = Math.max(end, at + this.syntax.blockOpen.length)
    }
  }

  private cutOff(name: string | undefined, problem: Phrase, start: number): number {
    this.builder.addError('truncated', name === undefined ? parseSaid('toolCallCut', { problem }) : parseSaid('callCut', { name, problem }), { start, end: this.view.length })
    return this.view.length
  }

  /** Skips to the end of the block after an error (or to the end of the output). */
  private skipBlock(from: number): number {
    const close = this.finder.next(this.syntax.blockClose, from)
    return close < 0 ? this.view.length : close + this.syntax.blockClose.length
  }

  private readBlock(at: number): number {
    const { view, syntax } = this
    let pos = at + syntax.blockOpen.length
    let calls = 0
    for (;;) {
      pos = skipSpace(view, pos)
      if (view.startsWith(syntax.blockClose, pos)) {
        if (calls === 0) this.builder.addError('missing_name', () => parseSaid('invokeBlockEmpty', { blockOpen: syntax.blockOpen, invoke: syntax.invoke }), { start: at, end: pos + syntax.blockClose.length })
        return pos + syntax.blockClose.length
      }
      if (pos >= view.length && calls > 0) {
        this.builder.addRepair('missing_close_tag', parseSaid('callsWithoutClose', { blockClose: syntax.blockClose }), { start: pos, end: pos })
        return pos
      }
      if (endsInsideMarkup(view, pos, [`${syntax.invoke} name=`, syntax.blockClose])) return this.cutOff(undefined, parsePhrase('cutInsideMarker', { marker: syntax.blockOpen }), at)
      if (!view.startsWith(`${syntax.invoke} `, pos)) {
        this.builder.addError('invalid_call', () => parseSaid('invokeExpectedInvoke', { invoke: syntax.invoke, blockClose: syntax.blockClose, offset: pos }), { start: pos, end: pos + 1 })
        return this.skipBlock(pos)
      }
      const end = this.readInvoke(pos)
      if (end === undefined) return this.skipBlock(pos)
      if (end >= view.length) return end
      calls++
      pos = end
    }
  }

  /** Reads one `<invoke name="…">…</invoke>`; returns its end, or undefined after an error. */
  private readInvoke(lt: number): number | undefined {
    const { view, syntax } = this
    const header = readAttributes(view, lt + syntax.invoke.length)
    const nameAttribute = header?.attributes.get('name')
    if (!header || !nameAttribute || nameAttribute.value.trim() === '') {
      if (endsInsideMarkup(view, lt, []) || view.indexOf('>', lt) < 0) return this.cutOff(undefined, parsePhrase('cutInsideMarker', { marker: syntax.invoke }), lt)
      this.builder.addError('missing_name', () => parseSaid('invokeExpectedName', { invoke: syntax.invoke, offset: lt }), { start: lt, end: lt + syntax.invoke.length })
      return undefined
    }
    const name = nameAttribute.value.trim()
    const args: JsonObject = {}
    let argsSpan: Span | undefined
    let pos = header.end
    for (;;) {
      pos = skipSpace(view, pos)
      if (view.startsWith(syntax.invokeClose, pos)) break
      if (endsInsideTag(view, pos, [`${syntax.parameter} name=`, syntax.invokeClose]) || (pos >= view.length && argsSpan === undefined)) {
        return this.cutOff(name, parsePhrase('cutAfterParameters', { marker: syntax.invokeClose }), lt)
      }
      if (pos >= view.length) {
        // Complete parameters, then the end: only the close tags are missing.
        this.builder.addRepair('missing_close_tag', parseSaid('callWithoutClose', { name, marker: syntax.invokeClose }), { start: pos, end: pos })
        break
      }
      if (!view.startsWith(`${syntax.parameter} `, pos)) {
        this.builder.addError('invalid_call', () => parseSaid('invokeExpectedParameter', { parameter: syntax.parameter, invokeClose: syntax.invokeClose, name, offset: pos }), { start: pos, end: pos + 1 })
        return undefined
      }
      const parameter = readAttributes(view, pos + syntax.parameter.length)
      const key = parameter?.attributes.get('name')?.value
      if (!parameter || key === undefined) {
        if (view.indexOf('>', pos) < 0) return this.cutOff(name, parsePhrase('cutInsideMarker', { marker: syntax.parameter }), lt)
        this.builder.addError('invalid_call', () => parseSaid('invokeExpectedKey', { parameter: syntax.parameter, offset: pos, name }), { start: pos, end: pos + 1 })
        return undefined
      }
      const valueEnd = this.finder.next(syntax.parameterClose, parameter.end)
      if (valueEnd < 0) return this.cutOff(name, parsePhrase('cutInsideValue', { key, close: syntax.parameterClose }), lt)
      const text = stripOneNewline(view.slice(parameter.end, valueEnd))
      let value: JsonValue = tagValue(text)
      if (syntax.typedParameters && parameter.attributes.get('string')?.value === 'false') {
        const read = readJson(text.trim())
        if (!read.ok || read.end !== text.trim().length) {
          this.builder.addError('invalid_arguments', () => parseSaid('parameterNotJson', { key, name, problem: read.ok ? parsePhrase('textAfterValue') : nested(read.error) }), { start: parameter.end, end: valueEnd })
          return undefined
        }
        value = read.value
      } else if (syntax.typedParameters) {
        value = text
      }
      setMember(args, key, value)
      const parameterStart = pos
      pos = valueEnd + syntax.parameterClose.length
      // The arguments span runs from the first parameter tag to the end of the last one.
      argsSpan = { start: argsSpan?.start ?? parameterStart, end: pos }
    }
    const end = Math.min(view.length, pos + syntax.invokeClose.length)
    const call: ParsedCall = { name, arguments: args, spans: { call: { start: lt, end }, name: nameAttribute.span } }
    if (argsSpan) {
      call.spans.arguments = argsSpan
      call.rawArguments = view.slice(argsSpan.start, argsSpan.end)
    }
    this.builder.addCall(call)
    return end
  }
}

/** Finds every block of `syntax` in `builder.view` and records its calls. Linear; never throws. */
export function collectInvokeCalls(builder: ParseBuilder, syntax: InvokeSyntax): void {
  new InvokeReader(builder, syntax).run()
}

/** Renders calls in `syntax`, one `<invoke>` per call inside one block. */
export function renderInvokeCalls(syntax: InvokeSyntax, calls: readonly { name: string; arguments: { [key: string]: JsonValue } }[]): string {
  const invokes = calls.map((call) => {
    const parameters = Object.entries(call.arguments).map(([key, value]) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value)
      const typed = syntax.typedParameters ? ` string="${typeof value === 'string' ? 'true' : 'false'}"` : ''
      return `${syntax.parameter} name="${key}"${typed}>${text}${syntax.parameterClose}\n`
    })
    return `${syntax.invoke} name="${call.name}">\n${parameters.join('')}${syntax.invokeClose}\n`
  })
  return `${syntax.blockOpen}\n${invokes.join('')}${syntax.blockClose}`
}
