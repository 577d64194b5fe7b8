/**
 * A lenient JSON reader for model output.
 *
 * Models write JSON that `JSON.parse` rejects in a handful of recurring ways (Python reprs,
 * trailing commas, raw newlines in strings, output cut off before the closers). This reader
 * accepts those, names every leniency it applied as a {@link JsonRepair}, and reports where
 * each value sits in the input so callers can highlight it. It is pure, never throws, and runs
 * in one forward pass over the input (an explicit stack instead of recursion, so deep nesting
 * cannot overflow the call stack).
 */
import type { JsonValue } from '../messages'
import type { Span } from '../span'
import { readStrictJson } from './read-strict'
import * as chars from './chars'
import { errorMessage } from '../util'
import type { Phrase, PhraseParams } from '../util/phrase'
import { parseMessage, parsePhrase, parseSaid, type ParseTextKey } from '../util/parse-text'

/** Names of the leniencies the reader applies. */
export type JsonRepairCode =
  | 'single_quotes'
  | 'python_literal'
  | 'trailing_comma'
  | 'unquoted_key'
  | 'unescaped_newline'
  | 'control_character'
  | 'invalid_escape'
  | 'missing_comma'
  | 'missing_closer'
  | 'python_tuple'
  | 'key_missing_quote'

/** A leniency that was applied, with the range of input it applied to (UTF-16 offsets). */
export interface JsonRepair {
  code: JsonRepairCode
  /** Human-readable explanation. */
  message: string
  /** `message` as a phrase of `PARSE_TEXT`, for the UI to translate. */
  phrase?: Phrase
  span: Span
}

/**
 * Why reading failed.
 * - `truncated`: the input ended before the value was complete (inside a string, after a key,
 *   after a comma, in a number). Never repaired: a shortened value would change meaning.
 * - `invalid_json`: a character that cannot continue the value.
 * - `too_deep`: nesting beyond {@link JsonReadOptions.maxDepth}.
 */
export interface JsonReadError {
  code: 'truncated' | 'invalid_json' | 'too_deep'
  /** Says which character was wrong and what was expected; fit to send back to a model. */
  message: string
  /** `message` as a phrase of `PARSE_TEXT`, for the UI to translate. */
  phrase?: Phrase
  /** Offset (UTF-16) where the problem was detected; `text.length` when the input ended. */
  offset: number
}

/** Where one value sits in the input, and (down to the requested depth) where its children sit. */
export interface JsonSpanNode {
  /** The whole value: quotes, brackets and braces included. */
  span: Span
  /** For objects within the span depth: members in input order (a repeated key appears twice). */
  members?: JsonMemberSpan[]
  /** For arrays within the span depth: one node per item. */
  items?: JsonSpanNode[]
  /**
   * True when the input ended before this container's closer and the reader supplied it
   * (`missing_closer`): what it holds may have been cut short.
   */
  unclosed?: true
}

/** Spans of one object member. */
export interface JsonMemberSpan {
  /** The decoded key. */
  key: string
  /** The key as written, quotes included. */
  keySpan: Span
  value: JsonSpanNode
}

/** Options of {@link readJson}. */
export interface JsonReadOptions {
  /**
   * How many container levels record the spans of their children: 0 records only the root's
   * span, 1 also its members or items, and so on. Default 0.
   */
  spanDepth?: number
  /** Deepest nesting accepted before failing with `too_deep`. Default 512. */
  maxDepth?: number
}

/** A value was read. */
export interface JsonReadSuccess {
  ok: true
  value: JsonValue
  /** Offset of the value's first character (leading whitespace skipped). */
  start: number
  /** Offset just past the value (past any closers that had to be supplied: `text.length`). */
  end: number
  repairs: JsonRepair[]
  spans: JsonSpanNode
}

/** No value could be read. */
export interface JsonReadFailure {
  ok: false
  error: JsonReadError
  /** Offset of the value's first character. */
  start: number
  /** Where reading stopped (equals `error.offset`). */
  end: number
  repairs: JsonRepair[]
  /**
   * For `truncated`: the value read so far, with open containers closed and a cut string kept
   * as far as it went. Lets callers say which call was cut off; never to be used as a result.
   */
  partial?: JsonValue
}

/** Result of {@link readJson}. */
export type JsonReadResult = JsonReadSuccess | JsonReadFailure

/**
 * A failed read of {@link readJsonDeferred}: why and where it stopped, with the full
 * {@link JsonReadFailure} (message, partial value) built only by `render`.
 */
export interface DeferredJsonFailure {
  ok: false
  code: JsonReadError['code']
  /** Where reading stopped (the `error.offset` and `end` of the rendered failure). */
  offset: number
  /** The failure exactly as {@link readJson} returns it; built on the first call, then cached. */
  render(): JsonReadFailure
}

type JsonObject = { [key: string]: JsonValue }

interface ObjectFrame {
  kind: 'object'
  value: JsonObject
  start: number
  node: JsonSpanNode | undefined
  /** Key whose value is being read. */
  key: string
  keySpan: Span
}

interface ArrayFrame {
  kind: 'array'
  value: JsonValue[]
  start: number
  node: JsonSpanNode | undefined
  /** A Python tuple `(…)`, closed by `)`. */
  tuple?: boolean
}

type Frame = ObjectFrame | ArrayFrame

// Local copies of the character classes: hot loops stay free of calls across modules, which
// some loaders (the TypeScript runners of the CLI and the benchmarks) compile to getters.
const isWhitespace = chars.isWhitespace.bind(undefined)
const isDigit = chars.isDigit.bind(undefined)
const isIdentifierStart = chars.isIdentifierStart.bind(undefined)
const isIdentifierPart = chars.isIdentifierPart.bind(undefined)

const QUOTE = 0x22
const APOSTROPHE = 0x27
const OPEN_PAREN = 0x28
const CLOSE_PAREN = 0x29
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c
const COLON = 0x3a
const MINUS = 0x2d

/** Quotes a character for an error message, naming invisible ones, as a phrase of `PARSE_TEXT`. */
export function charPhrase(text: string, offset: number): Phrase {
  if (offset >= text.length) return parsePhrase('charEnd')
  const code = text.codePointAt(offset) ?? 0
  if (code === 0x0a) return parsePhrase('charLineBreak')
  if (code === 0x09) return parsePhrase('charTab')
  if (code < 0x20) return parsePhrase('charControl', { hex: code.toString(16).padStart(4, '0').toUpperCase() })
  return parsePhrase('charQuoted', { char: String.fromCodePoint(code) })
}

/** {@link charPhrase} in English. */
export function describeChar(text: string, offset: number): string {
  return parseMessage(charPhrase(text, offset))
}

/** A short, single-line excerpt of `text` from `start`, for messages. */
export function excerpt(text: string, start: number, length = 24): string {
  const slice = text.slice(start, start + length).replace(/\s+/g, ' ')
  return start + length < text.length ? `${slice}…` : slice
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  "'": "'",
}
/** True when the four characters at `at` are hex digits (a `\\u` escape's). */
function isHex4(text: string, at: number): boolean {
  if (at + 4 > text.length) return false
  for (let k = at; k < at + 4; k++) {
    const code = text.charCodeAt(k)
    const letter = code | 0x20
    if (!((code >= 0x30 && code <= 0x39) || (letter >= 0x61 && letter <= 0x66 && code >= 0x41))) return false
  }
  return true
}

/** {@link SIMPLE_ESCAPES} by the escaped character's code (a string of escapes reads one per step). */
const SIMPLE_ESCAPE_BY_CODE: readonly (string | undefined)[] = Array.from({ length: 128 }, (_, code) => SIMPLE_ESCAPES[String.fromCharCode(code)])

const LITERALS: Record<string, { value: JsonValue; python: boolean }> = {
  true: { value: true, python: false },
  false: { value: false, python: false },
  null: { value: null, python: false },
  True: { value: true, python: true },
  False: { value: false, python: true },
  None: { value: null, python: true },
}

/**
 * Why a read stopped, before its message is written. Failures are recorded rather than thrown,
 * and their message is rendered only when a caller keeps the failure: prose scanned for JSON
 * fails a read at nearly every brace, and throwing or formatting each time cost more than the
 * reading itself (hostile input is mostly such failures).
 */
interface Failure {
  code: JsonReadError['code']
  key: ParseTextKey
  params: PhraseParams | undefined
  offset: number
  /** A cut string's content so far, for the partial value. */
  cutString: string | undefined
}

/** A repair as the reader applied it, before its message is written. */
interface PendingRepair {
  code: JsonRepairCode
  key: ParseTextKey
  params: PhraseParams | undefined
  span: Span
  /** Places it applied to. */
  count: number
}

/** A failed lenient read whose {@link JsonReadFailure} is built on demand, once. */
class PendingFailure implements DeferredJsonFailure {
  readonly ok = false
  readonly code: JsonReadError['code']
  readonly offset: number
  private rendered: JsonReadFailure | undefined
  constructor(
    private readonly reader: LenientReader,
    private readonly failure: Failure,
  ) {
    this.code = failure.code
    this.offset = failure.offset
  }
  render(): JsonReadFailure {
    this.rendered ??= this.reader.renderFailure(this.failure)
    return this.rendered
  }
}

/**
 * Reads one JSON value starting at `start` (leading whitespace is skipped) and stops right after
 * it, so trailing prose is left to the caller.
 *
 * Accepted beyond JSON, each recorded as a repair: single-quoted strings, Python `True`/`False`/
 * `None`, trailing commas, unquoted keys (`[A-Za-z_$][\w$-]*`), raw newlines and control
 * characters in strings, unknown escapes (kept verbatim), a missing comma before a quoted key or
 * an array item, and closers missing at the end of the input after a complete value, Python
 * tuples `(1, 2)` (read as arrays) and a key missing only its opening quote (`{city": 1}`).
 *
 * Not accepted: input ending inside a string, after a key, colon or comma, or inside a number
 * that is not the root value (`truncated`); anything else that cannot continue the value
 * (`invalid_json`). Pure; never throws; linear in the length read.
 *
 * @param text the whole input; offsets in the result are into this string (UTF-16 code units)
 * @param start offset to read from
 */
export function readJson(text: string, start = 0, options: JsonReadOptions = {}): JsonReadResult {
  return readStrictFirst(text, start, options) ?? readJsonLenient(text, start, options)
}

/**
 * The fast path of both readers: strict JSON (most output) is measured by a non-allocating scan
 * and built by JSON.parse, the same result as the lenient reader's, several times faster.
 * `undefined` when the value at `start` is not a strict object or array.
 */
function readStrictFirst(text: string, start: number, options: JsonReadOptions): JsonReadSuccess | undefined {
  let valueStart = start
  while (valueStart < text.length && isWhitespace(text.charCodeAt(valueStart))) valueStart++
  const first = text.charCodeAt(valueStart)
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return undefined
  return readStrictJson(text, valueStart, options.spanDepth ?? 0, options.maxDepth ?? 512)
}

/**
 * {@link readJson} for callers that try many starts and keep few failures (finding JSON in
 * prose): the same reading, but a failure's message and partial value are built only when
 * `render` is called, since writing them costs more than a failed read itself.
 */
export function readJsonDeferred(text: string, start = 0, options: JsonReadOptions = {}): JsonReadSuccess | DeferredJsonFailure {
  return readStrictFirst(text, start, options) ?? new LenientReader(text, start, options).readDeferred()
}

/**
 * {@link readJson} without its fast path for strict JSON: the lenient reader alone. Same
 * results; exported so tests can check that the two paths agree.
 */
export function readJsonLenient(text: string, start = 0, options: JsonReadOptions = {}): JsonReadResult {
  return new LenientReader(text, start, options).read()
}

/**
 * The state of one lenient read. A class rather than closures over local variables: the closures
 * would be created anew for every read, which costs more than reading a short value (and far more
 * under tools that wrap every named function to keep its name).
 */
class LenientReader {
  private readonly length: number
  private readonly spanDepth: number
  private readonly maxDepth: number
  /** Repairs as they were applied; their messages are written by {@link builtRepairs}. */
  private readonly pending: PendingRepair[] = []
  private repairs: JsonRepair[] | undefined
  private readonly stack: Frame[] = []
  private pos: number
  private readonly valueStart: number
  /** Set by {@link fail} when the read stops. */
  private failure: Failure | undefined

  constructor(
    private readonly text: string,
    start: number,
    options: JsonReadOptions,
  ) {
    this.spanDepth = options.spanDepth ?? 0
    this.maxDepth = options.maxDepth ?? 512
    this.length = text.length
    let pos = start
    while (pos < this.length && isWhitespace(text.charCodeAt(pos))) pos++
    this.pos = pos
    this.valueStart = pos
  }

  read(): JsonReadResult {
    const result = this.readDeferred()
    return result.ok ? result : result.render()
  }

  /** Like {@link read}, but a failure's message is rendered only when asked for. */
  readDeferred(): JsonReadSuccess | DeferredJsonFailure {
    let result: JsonReadSuccess | undefined
    try {
      result = this.run()
    } catch (caught) {
      // Only a bug can get here; report it as a value so callers still never see an exception.
      const message = errorMessage(caught)
      this.failure = { code: 'invalid_json', key: 'jsonInternal', params: { error: message }, offset: this.pos, cutString: undefined }
    }
    if (result) return result
    return new PendingFailure(this, this.failure as Failure)
  }

  /** The failure {@link readJson} returns; called once per read by {@link PendingFailure}. */
  renderFailure(failure: Failure): JsonReadFailure {
    const said = parseSaid(failure.key, failure.params)
    const rendered: JsonReadFailure = {
      ok: false,
      error: { code: failure.code, message: said.message, phrase: said.phrase, offset: failure.offset },
      start: this.valueStart,
      end: failure.offset,
      repairs: this.builtRepairs(),
    }
    if (failure.code === 'truncated') {
      const partial = this.partialValue(failure)
      if (partial !== undefined) rendered.partial = partial
    }
    return rendered
  }

  /** Records why the read stopped; returns `undefined`, which every step returns on failure. */
  private fail(code: JsonReadError['code'], key: ParseTextKey, params: PhraseParams | undefined, offset: number, cutString?: string): undefined {
    this.failure = { code, key, params, offset, cutString }
    return undefined
  }

  private repair(code: JsonRepairCode, key: ParseTextKey, params: PhraseParams | undefined, from: number, to: number): void {
    // One repair per code keeps a Python dict from producing a line per quote; the span is the
    // first place, and the message, written once at the end, says how many places.
    for (const seen of this.pending) {
      if (seen.code === code) {
        seen.count++
        return
      }
    }
    this.pending.push({ code, key, params, span: { start: from, end: to }, count: 1 })
  }

  /** The repairs with their messages, built once, when the read's result is. */
  private builtRepairs(): JsonRepair[] {
    if (this.repairs) return this.repairs
    this.repairs = this.pending.map(({ code, key, params, span, count }) => {
      let said = parseSaid(key, params)
      if (count > 1) said = parseSaid('repeatedRepair', { repair: said.phrase, n: count })
      return { code, message: said.message, phrase: said.phrase, span }
    })
    return this.repairs
  }

  private skipWhitespace(): void {
    while (this.pos < this.length && isWhitespace(this.text.charCodeAt(this.pos))) this.pos++
  }

  /** Reads a string whose opening quote is at `pos`; leaves `pos` after the closing quote. */
  private readString(): string | undefined {
    const quoteAt = this.pos
    const quote = this.text.charCodeAt(this.pos)
    if (quote === APOSTROPHE) this.repair('single_quotes', 'jsonSingleQuotes', undefined, this.pos, this.pos)
    // Escapes are gathered as parts joined once: `+=` per escape builds a rope of a node per
    // escape, and a string of 500 000 escapes spent most of its parse collecting that rope.
    const parts: string[] = []
    let chunk = this.pos + 1
    let i = this.pos + 1
    if (quote === QUOTE) {
      // The valid prefix of a double-quoted string is JSON's own: the engine decodes it many
      // times faster than the loop below, which reads on from where that prefix ends (the closing
      // quote, something to repair, or the end of the text), so failures and repairs stay its own.
      const text = this.text
      let end = i
      let escaped = false
      for (; end < this.length; end++) {
        const code = text.charCodeAt(end)
        if (code === QUOTE || code < 0x20) break
        if (code === BACKSLASH) {
          const next = text.charCodeAt(end + 1)
          if (next === 0x75 /* u */) {
            if (!isHex4(text, end + 2)) break
            end += 5
          } else if (next === APOSTROPHE || SIMPLE_ESCAPE_BY_CODE[next] === undefined) break
          else end++
          escaped = true
        }
      }
      if (!escaped && text.charCodeAt(end) === QUOTE) {
        this.pos = end + 1
        return text.slice(i, end)
      }
      if (escaped) {
        parts.push(JSON.parse(`${text.slice(quoteAt, end)}"`) as string)
        i = chunk = end
      }
    }
    let sawNewline = false
    let sawControl = false
    for (;;) {
      if (i >= this.length) {
        parts.push(this.text.slice(chunk, i))
        return this.fail('truncated', 'jsonStringCut', { offset: quoteAt, excerpt: excerpt(this.text, quoteAt), quote: quote === QUOTE ? '"' : "'" }, this.length, parts.join(''))
      }
      const code = this.text.charCodeAt(i)
      if (code === quote) {
        const tail = this.text.slice(chunk, i)
        const out = parts.length === 0 ? tail : (parts.push(tail), parts.join(''))
        this.pos = i + 1
        if (quote === APOSTROPHE) {
          const first = this.pending.find((seen) => seen.code === 'single_quotes')
          if (first && first.span.start === quoteAt) first.span.end = this.pos
        }
        return out
      }
      if (code === BACKSLASH) {
        if (i > chunk) parts.push(this.text.slice(chunk, i))
        if (i + 1 >= this.length) {
          return this.fail('truncated', 'jsonEscapeCut', { at: i, offset: quoteAt }, this.length, parts.join(''))
        }
        const escapedCode = this.text.charCodeAt(i + 1)
        const simple = SIMPLE_ESCAPE_BY_CODE[escapedCode]
        if (simple !== undefined && (escapedCode !== APOSTROPHE || quote === APOSTROPHE)) {
          parts.push(simple)
          i += 2
        } else if (escapedCode === 0x75 /* u */) {
          if (i + 6 > this.length) {
            return this.fail('truncated', 'jsonUnicodeEscapeCut', { at: i }, this.length, parts.join(''))
          }
          const hex = this.text.slice(i + 2, i + 6)
          if (/^[0-9a-fA-F]{4}$/.test(hex)) {
            parts.push(String.fromCharCode(parseInt(hex, 16)))
            i += 6
          } else {
            this.repair('invalid_escape', 'jsonInvalidUnicodeEscape', { hex }, i, i + 2)
            parts.push('\\u')
            i += 2
          }
        } else {
          // `\'` in a double-quoted string, `\d` in a regex argument: the writer meant the
          // character, so keep both rather than guess.
          const escaped = this.text.charAt(i + 1)
          this.repair('invalid_escape', 'jsonUnknownEscape', { char: escaped }, i, i + 2)
          parts.push(escaped === "'" ? "'" : `\\${escaped}`)
          i += 2
        }
        chunk = i
        continue
      }
      if (code < 0x20) {
        if (code === 0x0a || code === 0x0d) {
          if (!sawNewline) this.repair('unescaped_newline', 'jsonRawNewline', undefined, i, i + 1)
          sawNewline = true
        } else if (!sawControl) {
          this.repair('control_character', 'jsonControlCharacter', undefined, i, i + 1)
          sawControl = true
        }
      }
      i++
    }
  }

  /** Reads a number at `pos`. */
  private readNumber(): number | undefined {
    const numberStart = this.pos
    let i = this.pos
    if (this.text.charCodeAt(i) === MINUS) i++
    const digitsStart = i
    while (i < this.length && isDigit(this.text.charCodeAt(i))) i++
    if (i === digitsStart) {
      if (i >= this.length) return this.fail('truncated', 'jsonMinusCut', { offset: numberStart }, this.length)
      return this.fail('invalid_json', 'jsonMinusDigit', { offset: numberStart, found: charPhrase(this.text, i) }, i)
    }
    if (this.text.charCodeAt(i) === 0x2e) {
      i++
      const fractionStart = i
      while (i < this.length && isDigit(this.text.charCodeAt(i))) i++
      if (i === fractionStart) {
        if (i >= this.length) return this.fail('truncated', 'jsonFractionCut', { offset: numberStart }, this.length)
        return this.fail('invalid_json', 'jsonFractionDigit', { offset: numberStart, found: charPhrase(this.text, i) }, i)
      }
    }
    const exponent = this.text.charCodeAt(i)
    if (exponent === 0x65 || exponent === 0x45) {
      i++
      const sign = this.text.charCodeAt(i)
      if (sign === 0x2b || sign === MINUS) i++
      const exponentStart = i
      while (i < this.length && isDigit(this.text.charCodeAt(i))) i++
      if (i === exponentStart) {
        if (i >= this.length) return this.fail('truncated', 'jsonExponentCut', { offset: numberStart }, this.length)
        return this.fail('invalid_json', 'jsonExponentDigit', { offset: numberStart, found: charPhrase(this.text, i) }, i)
      }
    }
    this.pos = i
    return Number(this.text.slice(numberStart, i))
  }

  /** Reads `true`/`false`/`null` or their Python spellings at `pos`. */
  private readLiteral(): JsonValue | undefined {
    const wordStart = this.pos
    let i = this.pos
    while (i < this.length && isIdentifierPart(this.text.charCodeAt(i))) i++
    const word = this.text.slice(wordStart, i)
    const literal = Object.hasOwn(LITERALS, word) ? LITERALS[word] : undefined
    if (literal) {
      if (literal.python) this.repair('python_literal', 'jsonPythonLiteral', { word, value: String(literal.value) }, wordStart, i)
      this.pos = i
      return literal.value
    }
    if (i >= this.length && Object.keys(LITERALS).some((name) => name.startsWith(word))) {
      return this.fail('truncated', 'jsonLiteralCut', { word, offset: wordStart }, this.length)
    }
    return this.fail('invalid_json', 'jsonUnquotedValue', { offset: wordStart, word: excerpt(word, 0, 20) }, wordStart)
  }

  /** Closes every open container at the end of input (the caller checked the last value was complete). */
  private closeAllAtEnd(): JsonValue {
    const closers = this.stack
      .map((frame) => (frame.kind === 'object' ? '}' : frame.tuple ? ')' : ']'))
      .reverse()
      .join('')
    this.repair('missing_closer', 'jsonMissingCloser', { closers }, this.length, this.length)
    let value: JsonValue = null
    let node: JsonSpanNode | undefined
    while (this.stack.length > 0) {
      const frame = this.stack.pop() as Frame
      value = frame.value
      if (frame.node) {
        frame.node.span.end = this.length
        frame.node.unclosed = true
      }
      node = frame.node
      const parent = this.stack[this.stack.length - 1]
      if (parent) this.attach(parent, value, node, frame.start, this.length)
    }
    return value
  }

  private attach(frame: Frame, value: JsonValue, node: JsonSpanNode | undefined, from: number, to: number): void {
    if (frame.kind === 'object') {
      // A plain assignment to `__proto__` would replace the prototype instead of adding a key.
      if (frame.key === '__proto__') {
        Object.defineProperty(frame.value, frame.key, { value, enumerable: true, writable: true, configurable: true })
      } else {
        frame.value[frame.key] = value
      }
      frame.node?.members?.push({ key: frame.key, keySpan: frame.keySpan, value: node ?? { span: { start: from, end: to } } })
    } else {
      frame.value.push(value)
      frame.node?.items?.push(node ?? { span: { start: from, end: to } })
    }
  }

  /** The value read so far, for a truncated read. */
  private partialValue(failure: Failure): JsonValue | undefined {
    if (this.stack.length === 0) return failure.cutString
    let value: JsonValue | undefined = failure.cutString
    for (let index = this.stack.length - 1; index >= 0; index--) {
      const frame = this.stack[index] as Frame
      if (value !== undefined) {
        if (frame.kind === 'object' && frame.key !== '') frame.value[frame.key] = value
        else if (frame.kind === 'array') frame.value.push(value)
      }
      value = frame.value
    }
    return value
  }

  /** Reads an object key at `pos` (after whitespace) and the colon after it. */
  private readKey(frame: ObjectFrame): true | undefined {
    // Cleared first so a key cut off mid-string is not mistaken for the previous member's value.
    frame.key = ''
    const keyStart = this.pos
    const code = this.text.charCodeAt(this.pos)
    let key: string
    if (code === QUOTE || code === APOSTROPHE) {
      const read = this.readString()
      if (read === undefined) return undefined
      key = read
    } else if (isIdentifierStart(code)) {
      while (this.pos < this.length && isIdentifierPart(this.text.charCodeAt(this.pos))) this.pos++
      key = this.text.slice(keyStart, this.pos)
      const closing = this.text.charCodeAt(this.pos)
      if (closing === QUOTE || closing === APOSTROPHE) {
        // `{city": "Paris"}`: only the opening quote is missing.
        this.pos++
        this.repair('key_missing_quote', 'jsonKeyMissingQuote', { key }, keyStart, this.pos)
      } else {
        this.repair('unquoted_key', 'jsonUnquotedKey', { key }, keyStart, this.pos)
      }
    } else {
      return this.fail('invalid_json', 'jsonExpectedKey', { offset: this.pos, found: charPhrase(this.text, this.pos) }, this.pos)
    }
    const keyEnd = this.pos
    this.skipWhitespace()
    if (this.pos >= this.length) return this.fail('truncated', 'jsonKeyCut', { key }, this.length)
    if (this.text.charCodeAt(this.pos) !== COLON) {
      return this.fail('invalid_json', 'jsonExpectedColon', { key, offset: this.pos, found: charPhrase(this.text, this.pos) }, this.pos)
    }
    this.pos++
    frame.key = key
    frame.keySpan = { start: keyStart, end: keyEnd }
    return true
  }

  /** Reads the value; `undefined` when the read failed (see {@link failure}). */
  private run(): JsonReadSuccess | undefined {
    if (this.pos >= this.length) return this.fail('truncated', 'jsonEmpty', undefined, this.length)
    // Each turn of the outer loop reads one value at `pos`; containers push a frame and continue.
    for (;;) {
      this.skipWhitespace()
      if (this.pos >= this.length) {
        const frame = this.stack[this.stack.length - 1]
        return frame?.kind === 'object' ? this.fail('truncated', 'jsonValueCut', { key: frame.key }, this.length) : this.fail('truncated', 'jsonItemCut', undefined, this.length)
      }
      const code = this.text.charCodeAt(this.pos)
      const depth = this.stack.length
      const from = this.pos
      let value: JsonValue | undefined
      let node: JsonSpanNode | undefined
      let isNumber = false
      if (code === OPEN_BRACE || code === OPEN_BRACKET || code === OPEN_PAREN) {
        if (depth >= this.maxDepth) return this.fail('too_deep', 'jsonTooDeep', { max: this.maxDepth, offset: this.pos }, this.pos)
        const containerNode: JsonSpanNode | undefined = depth <= this.spanDepth ? { span: { start: this.pos, end: this.pos } } : undefined
        if (containerNode && depth < this.spanDepth) {
          if (code === OPEN_BRACE) containerNode.members = []
          else containerNode.items = []
        }
        this.pos++
        this.skipWhitespace()
        if (code === OPEN_BRACE) {
          const frame: ObjectFrame = { kind: 'object', value: {}, start: from, node: containerNode, key: '', keySpan: { start: this.pos, end: this.pos } }
          this.stack.push(frame)
          if (this.pos >= this.length) return this.fail('truncated', 'jsonOpenCut', { open: '{', offset: from }, this.length)
          if (this.text.charCodeAt(this.pos) !== CLOSE_BRACE) {
            if (!this.readKey(frame)) return undefined
            continue
          }
        } else {
          const tuple = code === OPEN_PAREN
          // Python tuples (`(3, 4)`, in dict reprs and pythonic calls) become arrays.
          if (tuple) this.repair('python_tuple', 'jsonPythonTuple', { offset: from }, from, from + 1)
          this.stack.push(tuple ? { kind: 'array', value: [], start: from, node: containerNode, tuple } : { kind: 'array', value: [], start: from, node: containerNode })
          if (this.pos >= this.length) return this.fail('truncated', 'jsonOpenCut', { open: tuple ? '(' : '[', offset: from }, this.length)
          if (this.text.charCodeAt(this.pos) !== (tuple ? CLOSE_PAREN : CLOSE_BRACKET)) continue
        }
        // An empty container: fall through to the closing logic below with nothing to attach.
        this.pos++
        const frame = this.stack.pop() as Frame
        value = frame.value
        node = frame.node
        if (node) node.span.end = this.pos
      } else if (code === QUOTE || code === APOSTROPHE) {
        value = this.readString()
      } else if (code === MINUS || isDigit(code)) {
        value = this.readNumber()
        isNumber = true
      } else if (isIdentifierStart(code)) {
        value = this.readLiteral()
      } else {
        return this.fail('invalid_json', 'jsonExpectedValue', { offset: this.pos, found: charPhrase(this.text, this.pos) }, this.pos)
      }
      if (value === undefined) return undefined

      // Attach the value, then close every container that ends here.
      let valueFrom = from
      for (;;) {
        const frame = this.stack[this.stack.length - 1]
        if (!frame) {
          return { ok: true, value, start: this.valueStart, end: this.pos, repairs: this.builtRepairs(), spans: node ?? { span: { start: valueFrom, end: this.pos } } }
        }
        this.attach(frame, value, node, valueFrom, this.pos)
        const valueEnd = this.pos
        this.skipWhitespace()
        if (this.pos >= this.length) {
          if (isNumber && valueEnd === this.length) {
            return this.fail('truncated', 'jsonNumberCut', { offset: valueFrom }, this.length)
          }
          const root = this.stack[0]?.node ?? { span: { start: this.valueStart, end: this.length } }
          const closed = this.closeAllAtEnd()
          return { ok: true, value: closed, start: this.valueStart, end: this.length, repairs: this.builtRepairs(), spans: root }
        }
        let next = this.text.charCodeAt(this.pos)
        const closer = frame.kind === 'object' ? CLOSE_BRACE : frame.tuple ? CLOSE_PAREN : CLOSE_BRACKET
        if (next === COMMA) {
          const commaAt = this.pos
          this.pos++
          this.skipWhitespace()
          if (this.pos >= this.length) return this.fail('truncated', frame.kind === 'object' ? 'jsonCommaCutMember' : 'jsonCommaCutItem', { offset: commaAt }, this.length)
          next = this.text.charCodeAt(this.pos)
          if (next !== closer) {
            if (frame.kind === 'object' && !this.readKey(frame)) return undefined
            break
          }
          this.repair('trailing_comma', 'jsonTrailingComma', { offset: commaAt }, commaAt, commaAt + 1)
        } else if (next !== closer) {
          const startsItem = frame.kind === 'object' ? next === QUOTE : next === QUOTE || next === OPEN_BRACE || next === OPEN_BRACKET || next === OPEN_PAREN || isDigit(next) || next === MINUS
          if (startsItem) {
            this.repair('missing_comma', 'jsonMissingComma', { offset: this.pos }, this.pos, this.pos)
            if (frame.kind === 'object' && !this.readKey(frame)) return undefined
            break
          }
          const expected = frame.kind === 'object' ? "',' or '}'" : frame.tuple ? "',' or ')'" : "',' or ']'"
          const found = charPhrase(this.text, this.pos)
          return frame.kind === 'object'
            ? this.fail('invalid_json', 'jsonExpectedAfterMember', { expected, key: frame.key, offset: this.pos, found }, this.pos)
            : this.fail('invalid_json', 'jsonExpectedAfterItem', { expected, offset: this.pos, found }, this.pos)
        }
        this.pos++
        this.stack.pop()
        value = frame.value
        node = frame.node
        if (node) node.span.end = this.pos
        valueFrom = frame.start
        isNumber = false
      }
    }
  }
}
