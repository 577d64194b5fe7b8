/**
 * `pythonic`: Python call syntax, as Llama 3.2/4 and several small models emit it:
 * `[get_weather(city="Paris"), add(a=1, b=2)]`, also without the brackets and as `f(...); g(...)`.
 * Arguments are keyword arguments with Python literals (single/double/triple-quoted strings,
 * `True`/`False`/`None`, numbers, lists, dicts, nesting); Markdown-escaped names (`get\_weather`)
 * are unescaped.
 */
import { certainFailureAt, readJsonDeferred } from '../json'
import type { JsonValue } from '../messages'
import { lowerFirst } from './shared/call-object'
import { defineTextProtocol } from './shared/define'
import { type ParseBuilder, skipSpace } from './shared/parse-builder'
import { fenceAround } from './shared/scan'
import type { FormatDetection, ParsedCall, Repair } from './types'
import { defineMarkers, detectMarkers, scanOutput, searchWindow, detectionReason } from './shared/detect'
import { nested, parseSaid } from '../util/parse-text'
import { setMember } from '../util/json-object'

/** Wrappers around a Python call list: LFM2, Llama 4, and Llama 3.1's built-in tools. */
const WRAPPERS = defineMarkers('<|tool_call_start|>', '<|python_start|>')
const PYTHON_TAG = defineMarkers('<|python_tag|>')
/** A (possibly `\_`-escaped, dotted) name, then `(` and a keyword argument or `)`. */
const CALL = String.raw`(?:[A-Za-z_]|\\_)(?:[\w.]|\\_)*\(\s*(?:\)|(?:[A-Za-z_]|\\_)(?:\w|\\_)*\s*=)`
/** `[` then a call, at the start of a line (after an optional fence line); `[` may end its line. */
const LINE_LIST = new RegExp(String.raw`(?:^|\n)[ \t]*(?:\`\`\`[\w-]*[ \t]*\r?\n[ \t]*)?(\[)\s*` + CALL)
/** A call list anywhere in prose. */
const ANY_LIST = new RegExp(String.raw`\[\s*` + CALL)
/** A fenced call without brackets. */
const FENCED = new RegExp(String.raw`\`\`\`(?:python|py|json|tool_code|tool_call)?[ \t]*\r?\n\s*` + CALL)
/** A call at the very start of the output. */
const LEADING = new RegExp('^' + CALL)

function earliest(found: FormatDetection | undefined, at: number, confidence: number, said: Pick<FormatDetection, 'reason' | 'phrase'>): FormatDetection {
  return found && (found.at < at || (found.at === at && found.confidence >= confidence)) ? found : { at, confidence, ...said }
}

/** Where the earliest Python call list starts. Cheap: a few regex searches over the reasoning-free view. */
function detect(raw: string, before?: number): FormatDetection | undefined {
  const limit = before ?? Number.POSITIVE_INFINITY
  let found = detectMarkers(raw, WRAPPERS, before, (_scan, at, marker) => ({ confidence: 0.9, ...detectionReason('detectFoundMarker', { marker, at }) }))
  const tagged = detectMarkers(raw, PYTHON_TAG, found ? found.at + 1 : before, (scan, at, marker) =>
    LEADING.test(scan.view.slice(skipSpace(scan.view, at + marker.length), at + marker.length + 300)) ? { confidence: 0.9, ...detectionReason('detectPythonTag', { marker, at }) } : undefined,
  )
  if (tagged) found = earliest(found, tagged.at, tagged.confidence, tagged)
  const scan = scanOutput(raw)
  const view = searchWindow(scan.view, before)
  // Every call has a '(': one native search rules most outputs out before any regex runs.
  if (view.indexOf('(') < 0) return found
  if (scan.start < limit && LEADING.test(view.slice(scan.start, scan.start + 300))) found = earliest(found, scan.start, 0.6, detectionReason('detectPythonLeading'))
  const line = LINE_LIST.exec(view)
  if (line) {
    const at = line.index + line[0].indexOf('[')
    if (at < limit) found = earliest(found, at, 0.8, detectionReason('detectPythonList', { at }))
  }
  const fenced = FENCED.exec(view)
  if (fenced && fenced.index < limit) found = earliest(found, fenced.index, 0.75, detectionReason('detectPythonFenced', { at: fenced.index }))
  if (!line) {
    const list = ANY_LIST.exec(view)
    if (list && list.index < limit) found = earliest(found, list.index, 0.55, detectionReason('detectPythonList', { at: list.index }))
  }
  return found
}

type Attempt =
  | { ok: true; call: ParsedCall; end: number; repairs: Repair[] }
  | { ok: false; offset: number; truncated?: { name: string; message: string } }

const LITERAL_WORDS = new Set(['True', 'False', 'None', 'true', 'false', 'null'])

function isNameStart(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f
}

function isNamePart(code: number): boolean {
  return isNameStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2e
}

/** Reads a (possibly `\_`-escaped, dotted) name at `pos`; returns its end, or `pos` when there is none. */
function readName(text: string, pos: number): number {
  if (!isNameStart(text.charCodeAt(pos)) && !(text.charCodeAt(pos) === 0x5c && text.charCodeAt(pos + 1) === 0x5f)) return pos
  let i = pos
  for (;;) {
    const code = text.charCodeAt(i)
    if (isNamePart(code)) i++
    else if (code === 0x5c && text.charCodeAt(i + 1) === 0x5f) i += 2
    else return i
  }
}

/**
 * The end of a JSON integer at `pos` (`0`, `-7`, `123`; no leading zeros, at most 15 digits, so
 * `Number` gives it exactly) followed by `,`, `)` or whitespace, or -1: the integers whose lenient
 * JSON reading is just their value, with no repair.
 */
function plainIntegerEnd(text: string, pos: number): number {
  let i = text.charCodeAt(pos) === 0x2d ? pos + 1 : pos
  const first = i
  while (i - first < 16 && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++
  const digits = i - first
  if (digits === 0 || digits > 15 || (digits > 1 && text.charCodeAt(first) === 0x30)) return -1
  const next = text.charCodeAt(i)
  return next === 0x2c || next === 0x29 || next === 0x20 || next === 0x0a || next === 0x0d || next === 0x09 ? i : -1
}

const TRIPLE_QUOTES: readonly string[] = ['"""', "'''"]
const NO_QUOTES: readonly string[] = []

/**
 * Characters that end a number for the lenient reader and cannot follow an argument's value
 * (only `,`, `)` and whitespace can): after a run of digits, one of these fails the call.
 */
const IMPOSSIBLE_AFTER_DIGITS = new Set([...'[]{}"\'<>=;:|\\'].map((char) => char.charCodeAt(0)))

/** The end of the run of ASCII digits at `pos` (`pos` when there is none). */
function digitsEnd(text: string, pos: number): number {
  let i = pos
  while (text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++
  return i
}

/** Reads one Python literal at `pos`: triple-quoted strings here, everything else through the lenient JSON reader. */
function readLiteral(text: string, pos: number): { ok: true; value: JsonValue; end: number; repairs: Repair[] } | { ok: false; offset: number; truncated: boolean; message: string } {
  const first = text.charCodeAt(pos)
  for (const quote of first === 0x22 || first === 0x27 ? TRIPLE_QUOTES : NO_QUOTES) {
    if (text.startsWith(quote, pos)) {
      const close = text.indexOf(quote, pos + 3)
      if (close < 0) return { ok: false, offset: text.length, truncated: true, message: `The text ends inside the triple-quoted string that starts at offset ${pos}: expected ${quote}.` }
      return { ok: true, value: text.slice(pos + 3, close), end: close + 3, repairs: [] }
    }
  }
  // A plain integer (`1`, `-42`) followed by what ends an argument: its value without a JSON read,
  // which costs more than the rest of a short call (prose such as `f(a=1, f(a=1, …` reads one per call).
  const integerEnd = plainIntegerEnd(text, pos)
  if (integerEnd > 0) return { ok: true, value: Number(text.slice(pos, integerEnd)), end: integerEnd, repairs: [] }
  // Digits run straight into a bracket, brace, quote or operator (`f(a=1[f(a=1[…`): whatever the
  // lenient reader makes of them, the call cannot go on there, so the read is not started.
  const digits = digitsEnd(text, pos)
  if (digits > pos && IMPOSSIBLE_AFTER_DIGITS.has(text.charCodeAt(digits))) return { ok: false, offset: digits, truncated: false, message: '' }
  // A bare word is a literal only if it is one of these; anything else (a variable, a nested
  // call) fails here without a read.
  if (isNameStart(text.charCodeAt(pos))) {
    let end = pos
    while (isNamePart(text.charCodeAt(end))) end++
    if (!LITERAL_WORDS.has(text.slice(pos, end))) return { ok: false, offset: pos, truncated: end >= text.length, message: `Expected a Python literal at offset ${pos}, found "${text.slice(pos, Math.min(end, pos + 24))}".` }
  }
  // A list or dict the lenient reader is certain to reject (`[f(a=1, …`, a call list where a value
  // belongs) fails here without a read; such a failure is never a cut-off one.
  if (first === 0x5b || first === 0x7b) {
    const failsAt = certainFailureAt(text, pos)
    if (failsAt >= 0) return { ok: false, offset: failsAt, truncated: false, message: '' }
  }
  // Only a cut-off literal's message is shown (every other failure ends the attempt quietly), so
  // the rest are never written.
  const read = readJsonDeferred(text, pos)
  if (!read.ok) return { ok: false, offset: read.offset, truncated: read.code === 'truncated', message: read.code === 'truncated' ? read.render().error.message : '' }
  // Python spells these with capitals; JSON-style repairs of them are expected here, not leniency.
  const repairs = read.repairs.filter((repair) => repair.code !== 'python_literal' && repair.code !== 'single_quotes' && repair.code !== 'python_tuple')
  return { ok: true, value: read.value, end: read.end, repairs }
}

/**
 * A call cut off by the end of the text. A function of its own, not a closure in `readCall`:
 * prose full of `f(` starts a read at every one, and a closure per read cost more than the read.
 */
function cutAttempt(text: string, name: string, message: string): Attempt {
  return { ok: false, offset: text.length, truncated: { name, message } }
}

/** `\_` as `_` (Markdown-escaped underscores); most names hold no backslash and skip the regex. */
function unescapeName(written: string): string {
  return written.includes('\\') ? written.replace(/\\_/g, '_') : written
}

/** The tool name of the call whose name is `text[pos, nameEnd)`: unescaped, without a built-in's `.call`. */
function callName(text: string, pos: number, nameEnd: number): string {
  // `brave_search.call(query=…)` is how Llama 3.1 calls its built-in tools: the tool is `brave_search`.
  const written = unescapeName(text.slice(pos, nameEnd))
  return written.endsWith('.call') && written.length > 5 ? written.slice(0, -5) : written
}

/**
 * Reads `name(key=value, …)` at `pos`. The name, a key and the repairs are built only once they
 * are needed: prose such as `f(a=1, f(a=1, …` fails a read per call, at the second key.
 */
function readCall(text: string, pos: number): Attempt {
  const nameEnd = readName(text, pos)
  if (nameEnd === pos || text.charCodeAt(nameEnd) !== 0x28) return { ok: false, offset: Math.max(nameEnd, pos + 1) }
  const args: { [key: string]: JsonValue } = {}
  let repairs: Repair[] | undefined
  const argsStart = nameEnd + 1
  let i = skipSpace(text, argsStart)
  for (;;) {
    if (i >= text.length) return cutAttempt(text, callName(text, pos, nameEnd), `the text ends inside the arguments: expected ')'.`)
    if (text.charCodeAt(i) === 0x29) break
    const keyEnd = readName(text, i)
    if (keyEnd === i) return { ok: false, offset: i }
    let j = skipSpace(text, keyEnd)
    // Markdown-escaped underscores (`city\_name`) are unescaped in names, never inside values.
    if (j >= text.length) return cutAttempt(text, callName(text, pos, nameEnd), `the text ends after the argument name "${unescapeName(text.slice(i, keyEnd))}": expected '='.`)
    if (text.charCodeAt(j) !== 0x3d) return { ok: false, offset: j }
    const key = unescapeName(text.slice(i, keyEnd))
    j = skipSpace(text, j + 1)
    const literal = readLiteral(text, j)
    if (!literal.ok) return literal.truncated ? cutAttempt(text, callName(text, pos, nameEnd), lowerFirst(literal.message)) : { ok: false, offset: Math.max(literal.offset, j + 1) }
    setMember(args, key, literal.value)
    if (literal.repairs.length > 0) (repairs ??= []).push(...literal.repairs)
    i = skipSpace(text, literal.end)
    if (i >= text.length) return cutAttempt(text, callName(text, pos, nameEnd), `the text ends after the argument "${key}": expected ',' or ')'.`)
    const code = text.charCodeAt(i)
    if (code === 0x2c) i = skipSpace(text, i + 1)
    else if (code !== 0x29) return { ok: false, offset: i }
  }
  const end = i + 1
  const written = unescapeName(text.slice(pos, nameEnd))
  const name = callName(text, pos, nameEnd)
  // The name span covers the tool name as written (`get\_weather`), without a built-in's `.call`.
  const nameSpanEnd = name !== written ? nameEnd - '.call'.length : nameEnd
  const call: ParsedCall = { name, arguments: args, rawArguments: text.slice(argsStart, i), spans: { call: { start: pos, end }, name: { start: pos, end: nameSpanEnd }, arguments: { start: argsStart, end: i } } }
  return { ok: true, call, end, repairs: repairs ?? [] }
}

/** Skips whitespace and `\` line continuations between calls. */
function skipContinuations(text: string, pos: number): number {
  let i = skipSpace(text, pos)
  while (text.charCodeAt(i) === 0x5c && (text.charCodeAt(i + 1) === 0x0a || (text.charCodeAt(i + 1) === 0x0d && text.charCodeAt(i + 2) === 0x0a))) i = skipSpace(text, i + 1)
  return i
}

/** What {@link readSequence} read: calls and the end of the sequence (after a list's `]`). */
interface Sequence {
  calls: (Attempt & { ok: true })[]
  end: number
}

/**
 * Reads `call, call, …` (in a list or separated by `;`) starting at `pos`; returns the calls and
 * the end, without recording them. A list that is not closed fails; when its first calls were
 * read, `bare` is what reading them without the list gives (the calls up to the first one not
 * joined by `,` or `;`), so the caller need not read them a second time.
 */
function readSequence(view: string, pos: number, inList: boolean): Sequence | { failed: Attempt & { ok: false }; atFirstCall: boolean; bare?: Sequence } {
  const calls: (Attempt & { ok: true })[] = []
  let i = pos
  let end = pos
  /** The calls joined by separators only, as a bare sequence reads them. */
  let bare: Sequence | undefined
  for (;;) {
    const attempt = readCall(view, i)
    if (!attempt.ok) {
      if (calls.length === 0 || attempt.truncated) return { failed: attempt, atFirstCall: calls.length === 0 }
      break
    }
    calls.push(attempt)
    end = attempt.end
    const next = skipContinuations(view, attempt.end)
    const code = view.charCodeAt(next)
    if (code === 0x2c || code === 0x3b) {
      end = next + 1
      i = skipContinuations(view, next + 1)
      continue
    }
    // In a list, calls on separate lines without commas are still items.
    if (inList && next > attempt.end && (isNameStart(code) || code === 0x5c) && mayStartCall(view, next)) {
      bare ??= { calls: calls.slice(), end }
      attempt.repairs.push({ code: 'missing_comma', ...parseSaid('pythonicMissingComma', { offset: next }), span: { start: attempt.end, end: next } })
      i = next
      continue
    }
    break
  }
  if (inList) {
    const close = skipContinuations(view, end)
    if (view.charCodeAt(close) !== 0x5d) {
      // Read bare, the list's calls end at the first one without a separator, with the same repairs inside each call.
      const asBare = bare ?? { calls, end }
      return { failed: { ok: false, offset: close }, atFirstCall: false, bare: { calls: asBare.calls.map((call) => ({ ...call, repairs: call.repairs.filter((repair) => repair.code !== 'missing_comma') })), end: asBare.end } }
    }
    end = close + 1
  }
  return { calls, end }
}

/** Records the calls of a sequence read by {@link readSequence}. */
function record(builder: ParseBuilder, sequence: Sequence): void {
  for (const attempt of sequence.calls) {
    builder.addCall(attempt.call)
    builder.repairs.push(...attempt.repairs)
  }
}

/**
 * False when no call can start at `pos`: a name not followed by `(` and then `)` or `key=`.
 * Allocation-free, so prose (and hostile input such as `f(f(f(…`) costs a few comparisons per
 * word instead of a failed read.
 */
function mayStartCall(text: string, pos: number): boolean {
  const nameEnd = readName(text, pos)
  if (nameEnd === pos || text.charCodeAt(nameEnd) !== 0x28) return false
  const next = skipSpace(text, nameEnd + 1)
  if (next >= text.length || text.charCodeAt(next) === 0x29) return true
  const keyEnd = readName(text, next)
  if (keyEnd === next) return false
  const equals = skipSpace(text, keyEnd)
  if (equals >= text.length) return true
  if (text.charCodeAt(equals) !== 0x3d) return false
  const value = skipSpace(text, equals + 1)
  if (value >= text.length || !isNameStart(text.charCodeAt(value))) return true
  let wordEnd = value
  while (isNamePart(text.charCodeAt(wordEnd))) wordEnd++
  return wordEnd >= text.length || LITERAL_WORDS.has(text.slice(value, wordEnd))
}

function collect(builder: ParseBuilder): void {
  const view = builder.view
  let pos = 0
  let lastEnd = 0
  while (pos < view.length) {
    const code = view.charCodeAt(pos)
    const previous = pos > 0 ? view.charCodeAt(pos - 1) : 0x20
    const inList = code === 0x5b
    const startsName = (isNameStart(code) || code === 0x5c) && !isNamePart(previous)
    if (!inList && !startsName) {
      pos++
      continue
    }
    if (!mayStartCall(view, inList ? skipSpace(view, pos + 1) : pos)) {
      pos = inList ? pos + 1 : Math.max(pos + 1, readName(view, pos))
      continue
    }
    const start = inList ? skipSpace(view, pos + 1) : pos
    let result = readSequence(view, start, inList)
    if ('failed' in result) {
      const failed = result.failed
      if (failed.truncated) {
        builder.addError('truncated', parseSaid('callCutKeepCase', { name: failed.truncated.name, problem: nested(failed.truncated) }), { start: pos, end: view.length })
        builder.consume(pos, view.length)
        return
      }
      if (!result.bare) {
        // Skip the rest of the word so each position is tried once. A list whose first call
        // failed skips that call's name too: read bare, it fails the same way (`[f(a=1, f(a=`
        // repeated read every call twice).
        pos = inList && !result.atFirstCall ? pos + 1 : Math.max(start + 1, readName(view, start))
        continue
      }
      // A list left open: its calls are read as the bare sequence they are (`[f(a=1), [f(a=1), …`
      // read every call twice, in the list and then bare).
      pos = start
      result = result.bare
    }
    record(builder, result)
    const fence = fenceAround(view, pos, result.end, lastEnd)
    if (fence) {
      builder.addRepair('fence_stripped', parseSaid('fenceAroundCalls'), fence)
      builder.consume(fence.start, fence.end)
    }
    builder.consume(pos, result.end)
    pos = result.end
    lastEnd = fence ? fence.end : result.end
  }
}

function scalarLiteral(value: string | number | boolean | null): string {
  if (value === null) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  return JSON.stringify(value)
}

/**
 * `value` as a Python literal (`True`, `None`, lists, dicts with double-quoted keys). Iterative,
 * so arguments of any depth render without overflowing the stack.
 */
function pythonLiteral(value: JsonValue): string {
  const out: string[] = []
  // Pending work, last first: a value to write, or a piece of text (a separator or a closer).
  const pending: ({ value: JsonValue } | string)[] = [{ value }]
  while (pending.length > 0) {
    const next = pending.pop()!
    if (typeof next === 'string') {
      out.push(next)
      continue
    }
    const item = next.value
    if (item === null || typeof item !== 'object') {
      out.push(scalarLiteral(item))
      continue
    }
    const entries: [string | undefined, JsonValue][] = Array.isArray(item) ? item.map((member) => [undefined, member]) : Object.entries(item)
    out.push(Array.isArray(item) ? '[' : '{')
    pending.push(Array.isArray(item) ? ']' : '}')
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, member] = entries[index]!
      pending.push({ value: member })
      if (key !== undefined) pending.push(`${JSON.stringify(key)}: `)
      if (index > 0) pending.push(', ')
    }
  }
  return out.join('')
}

/** `pythonic` protocol: `[name(key=value, …), …]`. */
export const pythonic = defineTextProtocol({
  id: 'pythonic',
  label: 'Pythonic calls',
  description: 'Python call syntax: [get_weather(city="Paris"), add(a=1, b=2)] with Python literals.',
  collect,
  detect,
  rules: [
    'To call tools, answer with a Python list of calls: [tool_name(key=value, …), …].',
    'Use keyword arguments only, with Python literals (strings, numbers, True/False/None, lists, dicts).',
    'Write nothing else when you call tools.',
  ],
  renderCall: (name, args) => `[${name}(${Object.entries(args).map(([key, value]) => `${key}=${pythonLiteral(value)}`).join(', ')})]`,
  example: '[get_weather(city="Paris"), get_time(timezone="Europe/Paris")]',
})
