/**
 * Incremental scanners for the text formats whose calls are JSON: `json` / `llama3-json` (call
 * objects in prose) and `xml-tag` (JSON or `<function=NAME>{…}` inside tags). They keep their
 * state between chunks and look at each character a constant number of times.
 */
import type { JsonValue } from '../../messages'
import { ARGUMENT_KEYS, NAME_KEYS, isJsonObject, readCallObject, type CallContext } from '../shared/call-object'
import { CONTROL_TOKENS, REASONING_TAGS } from '../shared/parse-builder'
import { isDigit, isIdentifierStart, isWhitespace } from '../../json/chars'
import { KEYLESS_CUT, keylessEnd } from '../../json/read-strict'
import { JsonStreamReader } from './json-stream-reader'
import { ProseText } from './prose-text'
import type { StreamScanner, StreamingCall } from '../types'

const WRAPPER_TAGS = ['<tool_call>', '<tool>', '<function_call>'] as const
const FUNCTION_TAG = '<function='
const UNFOLLOWED_TAGS = ['</tool_call>', '</tool>', '</function_call>', '<function name=', '<seed:tool_call>'] as const
const NO_CALL_NAMES = new Set(['none', 'null', ''])
/** A `<function=` name longer than this is not a tool name; the scanner gives up rather than buffer it. */
const MAX_NAME = 256
/** The stream reader's depth limit (its default), which a value passed over unread keeps to. */
const MAX_DEPTH = 512
/** The longest start of a value without keys carried over to the next chunk (see `write`). */
const MAX_CARRIED_VALUE = 32

// Scanner modes. Plain numbers: `write` switches on them for every run of characters.
const Mode = { Prose: 0, Reasoning: 1, Json: 2, TagBody: 3, FunctionName: 4, FunctionBody: 5, AfterBody: 6, GaveUp: 7 } as const
type Mode = (typeof Mode)[keyof typeof Mode]

type TokenMatch =
  | { kind: 'reasoning'; length: number; close: string }
  | { kind: 'reasoning_close'; length: number }
  | { kind: 'control'; length: number }
  | { kind: 'wrapper'; length: number; close: string }
  | { kind: 'function'; length: number }
  | { kind: 'unfollowed'; length: number }

/** A {@link StreamingCall} from a finished reading. */
function streamingCall(name: string, args: Record<string, JsonValue>, id: string | undefined): StreamingCall {
  return id === undefined ? { name, arguments: args, complete: true } : { name, arguments: args, id, complete: true }
}

/**
 * The call an open object is becoming: the name once its string has ended, the arguments object
 * as far as it has been read. Constant time (a fixed set of key lookups), so it can run per chunk.
 */
export function formingCall(reader: JsonStreamReader, value: JsonValue | undefined, requireName: boolean): StreamingCall | undefined {
  if (!isJsonObject(value)) return undefined
  let name: string | undefined
  let named = false
  let args: JsonValue | undefined
  for (const key of NAME_KEYS) {
    if (!Object.hasOwn(value, key)) continue
    const candidate = value[key]
    if (key === 'function' && isJsonObject(candidate)) {
      named = Object.hasOwn(candidate, 'name')
      const inner = candidate.name
      if (typeof inner === 'string' && !reader.isReading(candidate, 'name')) name = inner.trim()
      args = candidate.arguments
      break
    }
    named = true
    if (typeof candidate === 'string' && !reader.isReading(value, key)) name = candidate.trim()
    break
  }
  if (name !== undefined && NO_CALL_NAMES.has(name.toLowerCase())) return undefined
  if (args === undefined) {
    for (const key of ARGUMENT_KEYS) {
      if (Object.hasOwn(value, key)) {
        args = value[key]
        break
      }
    }
  }
  if (requireName && !named && args === undefined) return undefined
  return { name, arguments: isJsonObject(args) ? args : {}, complete: false }
}

/**
 * Scans `json` (call objects in prose) or `xml-tag` output chunk by chunk.
 *
 * A token split across chunks (`<tool_` + `call>`) is carried over: at most the length of the
 * longest token, so each character is looked at a bounded number of times. JSON is read by a
 * {@link JsonStreamReader}. Constructs it does not follow (Qwen3-Coder and GLM bodies inside
 * `<tool_call>`, invalid JSON inside a tag) make it give up, and the stream parser falls back to
 * re-parsing.
 */
export class TextScanner implements StreamScanner {
  readonly reading = 'incremental' as const
  calls: StreamingCall[] = []
  private readonly prose = new ProseText()
  private mode: Mode = Mode.Prose
  private carry = ''
  private reasoningClose = ''
  private sawReasoning = false
  private reader: JsonStreamReader | undefined
  /** The one reader every JSON value is read with, reset for each: `[{[{[{` tries one per `[{`. */
  private readonly jsonReader = new JsonStreamReader()
  private readerContext: CallContext = 'prose'
  /** The raw text of a JSON value found in prose, restored as prose if it is not a call. */
  private candidateRaw = ''
  /** Close tags still expected after a tag's body, innermost first. */
  private closeTags: string[] = []
  /** The tool name from `<function=NAME>`, or `undefined` for a wrapper with a JSON body. */
  private functionName: string | undefined
  private formingFrom: JsonStreamReader | undefined
  private formingVersion = -1
  private formingCache: StreamingCall | undefined

  /** @param tags `xml-tag`'s scanner (calls in tags only) rather than `json`'s (call objects in prose too) */
  constructor(private readonly tags: boolean) {}

  get gaveUp(): boolean {
    return this.mode === Mode.GaveUp
  }

  write(chunk: string): void {
    const work = this.carry === '' ? chunk : this.carry + chunk
    this.carry = ''
    const length = work.length
    let i = 0
    // Where the prose not yet added starts: a `<` or `{` that starts nothing stays in the run, so
    // a run of them (`<<<<`, `{{{{`) is added once, not one character at a time.
    let proseFrom = -1
    // Where the prose before the JSON reading in progress starts, while it is not yet added.
    let heldFrom = -1
    while (i < length) {
      switch (this.mode) {
        case Mode.Prose: {
          const found = this.tags ? work.indexOf('<', i) : nextOpener(work, i)
          const stop = found < 0 ? length : found
          const from = proseFrom < 0 ? i : proseFrom
          proseFrom = -1
          if (found < 0) {
            if (stop > from) this.prose.add(work.slice(from, stop))
            return
          }
          const code = work.charCodeAt(stop)
          if (code !== 0x3c) {
            if (cannotOpen(work, stop, code)) {
              proseFrom = from
              i = stop + 1
              continue
            }
            // A value without keys (`[1]`, `[{}]`) names no tool: the reader would read it and
            // leave it in the prose run, so it joins the run unread, and `[1][1][1]` costs no
            // reading per value.
            const end = keylessEnd(work, stop, MAX_DEPTH)
            if (end >= 0) {
              proseFrom = from
              i = end
              continue
            }
            // Cut by the end of a chunk longer than what is left of it: carried into the next
            // chunk and looked at again (at most once the chunk's length), rather than read.
            if (end === KEYLESS_CUT && length - stop <= MAX_CARRIED_VALUE && length - stop < chunk.length) {
              if (stop > from) this.prose.add(work.slice(from, stop))
              this.carry = work.slice(stop)
              return
            }
            // The prose before it is added once the reading ends: if it fails here, the opener
            // joins that prose run instead of costing an add (and a rope node) of its own.
            heldFrom = from
            this.startJson('prose', undefined)
            i = stop
            continue
          }
          const token = this.matchToken(work, stop)
          if (token === undefined) {
            proseFrom = from
            i = stop + 1
            continue
          }
          if (stop > from) this.prose.add(work.slice(from, stop))
          if (token === 'partial') {
            this.carry = work.slice(stop)
            return
          }
          i = stop + token.length
          this.onToken(token)
          continue
        }
        case Mode.Reasoning: {
          const close = this.reasoningClose
          const at = work.indexOf(close, i)
          if (at < 0) {
            // Keep the tail that may be the start of the closer.
            this.carry = work.slice(Math.max(i, length - close.length + 1))
            return
          }
          i = at + close.length
          this.mode = Mode.Prose
          continue
        }
        case Mode.Json: {
          const reader = this.reader
          if (!reader) {
            this.mode = Mode.GaveUp
            return
          }
          const start = i
          const end = reader.write(work, i)
          i = end
          // A `(` the reader stopped at may open a Python tuple (`(3, 4)`), which the lenient one-shot
          // reader accepts; one followed by what cannot start a tuple's item (`[(,[(,`) is a failure like any other.
          const tuple = reader.status === 'failed' && work.charCodeAt(end) === 0x28 ? tupleAt(work, end) : NO_TUPLE
          if (tuple === UNKNOWN && this.readerContext === 'prose') {
            // The chunk ends at the `(`: the candidate is read again with the next chunk, which
            // settles it (once per candidate: scanning resumes after it either way).
            if (heldFrom >= 0) {
              if (start > heldFrom) this.prose.add(work.slice(heldFrom, start))
              heldFrom = -1
            }
            this.carry = this.candidateRaw + work.slice(start)
            this.candidateRaw = ''
            this.reader = undefined
            this.mode = Mode.Prose
            return
          }
          if (reader.status === 'failed' && this.readerContext === 'prose' && this.candidateRaw === '' && tuple === NO_TUPLE) {
            // Not JSON after all, and all of it in this chunk: it stays in the prose run (as
            // failJson would add it), and scanning resumes at the offending character.
            this.reader = undefined
            this.mode = Mode.Prose
            proseFrom = heldFrom < 0 ? start : heldFrom
            heldFrom = -1
            continue
          }
          if (reader.status === 'done' && this.readerContext === 'prose' && this.candidateRaw === '' && isData(reader.root)) {
            // A value that holds no call (`{}`, `[1]`), all of it in this chunk: it stays in the
            // prose run, as finishJson would add it, so `{}{}{}` costs no add (and no reading) per value.
            this.reader = undefined
            this.mode = Mode.Prose
            proseFrom = heldFrom < 0 ? start : heldFrom
            heldFrom = -1
            continue
          }
          if (heldFrom >= 0) {
            if (start > heldFrom) this.prose.add(work.slice(heldFrom, start))
            heldFrom = -1
          }
          if (this.readerContext === 'prose') this.candidateRaw += work.slice(start, end)
          if (reader.status === 'done') this.finishJson(reader)
          else if (reader.status === 'failed') {
            // A Python tuple (`(3, 4)`), which the lenient one-shot reader accepts: hand over.
            if (tuple !== NO_TUPLE) {
              this.mode = Mode.GaveUp
              return
            }
            this.failJson()
          }
          continue
        }
        case Mode.TagBody:
        case Mode.FunctionBody: {
          i = skipSpace(work, i)
          if (i >= length) return
          const code = work.charCodeAt(i)
          if (code === 0x7b || (code === 0x5b && this.mode === Mode.TagBody)) {
            this.startJson('wrapped', this.functionName)
            continue
          }
          if (this.mode === Mode.TagBody && code === 0x3c) {
            if (work.startsWith(FUNCTION_TAG, i)) {
              i += FUNCTION_TAG.length
              this.closeTags.unshift('</function>')
              this.functionName = ''
              this.mode = Mode.FunctionName
              continue
            }
            if (length - i < FUNCTION_TAG.length && FUNCTION_TAG.startsWith(work.slice(i))) {
              this.carry = work.slice(i)
              return
            }
          }
          // A Qwen3-Coder / GLM body, or something malformed: leave it to the one-shot parser.
          this.mode = Mode.GaveUp
          return
        }
        case Mode.FunctionName: {
          const gt = work.indexOf('>', i)
          const end = gt < 0 ? length : gt
          this.functionName = (this.functionName ?? '') + work.slice(i, end)
          if (this.functionName.length > MAX_NAME || this.functionName.includes('\n')) {
            this.mode = Mode.GaveUp
            return
          }
          if (gt < 0) return
          this.functionName = this.functionName.trim()
          i = gt + 1
          this.mode = Mode.FunctionBody
          continue
        }
        case Mode.AfterBody: {
          i = skipSpace(work, i)
          if (i >= length) return
          const close = this.closeTags[0]
          if (close === undefined) {
            this.mode = Mode.Prose
            continue
          }
          if (work.startsWith(close, i)) {
            i += close.length
            this.closeTags.shift()
            continue
          }
          if (length - i < close.length && close.startsWith(work.slice(i))) {
            this.carry = work.slice(i)
            return
          }
          // A second object in the same block (two calls in one <tool_call>): left to the
          // one-shot parser, which reads it.
          const code = work.charCodeAt(i)
          if (this.functionName === undefined && (code === 0x7b || code === 0x2c)) {
            this.mode = Mode.GaveUp
            return
          }
          // The close tag is missing: what follows is prose (the one-shot parser names the repair).
          this.closeTags = []
          this.mode = Mode.Prose
          continue
        }
        default:
          return
      }
    }
    // A value that holds no call ended the chunk: the prose run it joined is added here.
    if (proseFrom >= 0 && length > proseFrom) this.prose.add(work.slice(proseFrom, length))
  }

  forming(): StreamingCall | undefined {
    switch (this.mode) {
      case Mode.Json: {
        const reader = this.reader
        if (!reader || reader.root === undefined) return undefined
        if (this.functionName !== undefined) {
          return { name: this.functionName, arguments: isJsonObject(reader.root) ? reader.root : {}, complete: false }
        }
        // Re-derived only when the top levels changed: the arguments object it holds is live.
        if (this.formingFrom !== reader || this.formingVersion !== reader.shallowVersion) {
          const root = reader.root
          const target = Array.isArray(root) ? root[root.length - 1] : root
          this.formingCache = formingCall(reader, target, this.readerContext === 'prose')
          this.formingFrom = reader
          this.formingVersion = reader.shallowVersion
        }
        return this.formingCache
      }
      case Mode.TagBody:
      case Mode.FunctionName:
        return { name: undefined, arguments: {}, complete: false }
      case Mode.FunctionBody:
        return { name: this.functionName, arguments: {}, complete: false }
      default:
        return undefined
    }
  }

  text(): string {
    return this.prose.value
  }

  private matchToken(work: string, at: number): TokenMatch | 'partial' | undefined {
    // Most `<` start no token: one look at the next character rules out every token at once.
    if (at + 1 < work.length && !TOKEN_SECOND_CHARS.has(work.charCodeAt(at + 1))) return undefined
    const tried = triedTokens(this.tags, this.sawReasoning)
    for (const entry of tried.tokens) if (work.startsWith(entry.token, at)) return entry.match
    // The chunk ends inside a token that may still complete: one look-up of what is left among the
    // starts of the tokens tried above (a test per token cut the rest out once per token, and in
    // one-character chunks a token's start is looked at again with every character).
    if (work.length - at >= tried.longest) return undefined
    return tried.starts.has(work.slice(at)) ? 'partial' : undefined
  }

  private onToken(token: TokenMatch): void {
    switch (token.kind) {
      case 'unfollowed':
        this.mode = Mode.GaveUp
        return
      case 'reasoning':
        this.sawReasoning = true
        this.reasoningClose = token.close
        this.mode = Mode.Reasoning
        return
      case 'reasoning_close':
        // A closer with no opener (the template opened the block in the prompt): all so far was reasoning.
        this.sawReasoning = true
        this.prose.clear()
        this.calls = []
        return
      case 'control':
        return
      case 'wrapper':
        this.prose.separate()
        this.closeTags = [token.close]
        this.functionName = undefined
        this.mode = Mode.TagBody
        return
      case 'function':
        this.prose.separate()
        this.closeTags = ['</function>']
        this.functionName = ''
        this.mode = Mode.FunctionName
        return
    }
  }

  /** Starts reading a JSON value; the caller leaves its position at the opener, which Json mode reads next. */
  private startJson(context: CallContext, name: string | undefined): void {
    this.jsonReader.reset()
    this.reader = this.jsonReader
    this.readerContext = context
    this.candidateRaw = ''
    this.functionName = name
    this.mode = Mode.Json
  }

  private finishJson(reader: JsonStreamReader): void {
    const root = reader.root
    this.reader = undefined
    if (this.readerContext === 'wrapped') {
      this.mode = Mode.AfterBody
      if (this.functionName !== undefined) {
        if (isJsonObject(root)) this.calls.push(streamingCall(this.functionName, root, undefined))
        return
      }
      const items = Array.isArray(root) ? root : root === undefined ? [] : [root]
      for (const item of items) this.addReading(item, 'wrapped')
      return
    }
    this.mode = Mode.Prose
    // xLAM's {"tool_calls": […]} is read by the one-shot parser.
    if (isJsonObject(root) && Array.isArray(root.tool_calls)) {
      this.mode = Mode.GaveUp
      return
    }
    const items: JsonValue[] = Array.isArray(root) ? root : root === undefined ? [] : [root]
    const callShaped = items.length > 0 && items.every(isJsonObject) && items.some(hasNameKey)
    const before = this.calls.length
    let recognised = false
    if (callShaped) {
      for (const item of items) {
        const reading = readCallObject('', item, undefined, 'prose')
        if (reading.kind !== 'data') recognised = true
        if (reading.kind === 'call') this.calls.push(streamingCall(reading.call.name, reading.call.arguments, reading.call.id))
      }
    }
    if (!recognised) {
      this.calls.length = before
      this.prose.add(this.candidateRaw)
    } else {
      this.prose.separate()
    }
    this.candidateRaw = ''
  }

  private addReading(item: JsonValue, context: CallContext): void {
    const reading = readCallObject('', item, undefined, context)
    if (reading.kind === 'call') this.calls.push(streamingCall(reading.call.name, reading.call.arguments, reading.call.id))
  }

  private failJson(): void {
    this.reader = undefined
    if (this.readerContext === 'wrapped') {
      this.mode = Mode.GaveUp
      return
    }
    // Not JSON after all: what was read is prose, and scanning resumes at the offending character.
    this.prose.add(this.candidateRaw)
    this.candidateRaw = ''
    this.mode = Mode.Prose
  }
}

/** True when `value` is an object with a key that names a tool: only such an object can read as a call in prose. */
function hasNameKey(value: JsonValue): boolean {
  if (!isJsonObject(value)) return false
  for (const key of NAME_KEYS) if (Object.hasOwn(value, key)) return true
  return false
}

/**
 * True when a finished prose value certainly holds no call: {@link TextScanner.finishJson} would
 * read it as data (no item names a tool) without handing it over (xLAM's `tool_calls`).
 */
function isData(root: JsonValue | undefined): boolean {
  if (Array.isArray(root)) return !root.some(hasNameKey)
  return isJsonObject(root) && !hasNameKey(root) && !Object.hasOwn(root, 'tool_calls')
}

/** The second character of every token {@link TextScanner} matches after `<` (all of them start with `<`). */
const TOKEN_SECOND_CHARS = new Set(
  [...REASONING_TAGS.flat(), ...CONTROL_TOKENS, ...WRAPPER_TAGS, FUNCTION_TAG, ...UNFOLLOWED_TAGS].filter((token) => token.startsWith('<')).map((token) => token.charCodeAt(1)),
)

/** The tokens {@link TextScanner} tries at a `<`, in order, with what each match is; every proper start of one; the longest's length. */
interface TriedTokens {
  tokens: { token: string; match: TokenMatch }[]
  starts: Set<string>
  longest: number
}

const TRIED_TOKENS: TriedTokens[] = []

/**
 * The tokens tried at a `<` by `xml-tag`'s scanner (`tags`) or `json`'s, reasoning closers only
 * until a reasoning block was seen; built once per kind of scanner (one list to walk, and the
 * starts of its tokens for a chunk that ends inside one).
 */
function triedTokens(tags: boolean, sawReasoning: boolean): TriedTokens {
  const index = (tags ? 2 : 0) + (sawReasoning ? 1 : 0)
  const built = TRIED_TOKENS[index]
  if (built !== undefined) return built
  const tokens: TriedTokens['tokens'] = []
  for (const [open, close] of REASONING_TAGS) {
    tokens.push({ token: open, match: { kind: 'reasoning', length: open.length, close } })
    if (!sawReasoning) tokens.push({ token: close, match: { kind: 'reasoning_close', length: close.length } })
  }
  for (const token of CONTROL_TOKENS) tokens.push({ token, match: { kind: 'control', length: token.length } })
  if (tags) {
    for (const tag of WRAPPER_TAGS) tokens.push({ token: tag, match: { kind: 'wrapper', length: tag.length, close: `</${tag.slice(1)}` } })
    tokens.push({ token: FUNCTION_TAG, match: { kind: 'function', length: FUNCTION_TAG.length } })
    // Forms this scanner does not follow (a close tag without its opener after a bare call,
    // `<function name="…">`, `<seed:tool_call>`): the one-shot parser reads them.
    for (const tag of UNFOLLOWED_TAGS) tokens.push({ token: tag, match: { kind: 'unfollowed', length: tag.length } })
  }
  const starts = new Set<string>()
  for (const { token } of tokens) for (let length = 1; length < token.length; length++) starts.add(token.slice(0, length))
  const tried = { tokens, starts, longest: Math.max(...tokens.map(({ token }) => token.length)) }
  TRIED_TOKENS[index] = tried
  return tried
}

/**
 * True when the `{` or `[` at `at` cannot open a JSON value the stream reader would accept,
 * judging by the character after it (when the chunk holds it): `{` must be followed by a key, `}`
 * or whitespace, `[` by a value, `]` or whitespace. The reader would fail on that character at
 * once; ruling it out here spares a reader per character in `{{{{` (and per `[(,` in `[(,[(,`,
 * judging by the character after the `(`).
 */
function cannotOpen(work: string, at: number, open: number): boolean {
  if (at + 1 >= work.length) return false
  const next = work.charCodeAt(at + 1)
  // The reader fails at a `(` (`{(`, `[(`), and the scanner then asks whether it opens a Python
  // tuple (handed to the one-shot parser): one that cannot (`[(,`) is ruled out here the same way.
  if (next === 0x28) return tupleAt(work, at + 1) === NO_TUPLE
  // Whitespace is the reader's to judge.
  if (isWhitespace(next)) return false
  if (open === 0x7b) return !(next === 0x22 || next === 0x27 || next === 0x7d || isIdentifierStart(next))
  return !(next === 0x7b || next === 0x5b || next === 0x22 || next === 0x27 || next === 0x5d || next === 0x2d || isDigit(next) || isIdentifierStart(next))
}

/** What a `(` where the stream reader stopped may be: see {@link tupleAt}. */
const NO_TUPLE = 0
const MAYBE_TUPLE = 1
const UNKNOWN = 2

/**
 * Whether the `(` at `at` may open a Python tuple for the lenient one-shot reader: {@link NO_TUPLE}
 * when the next character cannot start an item or close it (the reader would fail there),
 * {@link UNKNOWN} when the chunk ends at the `(`, else {@link MAYBE_TUPLE}.
 */
function tupleAt(work: string, at: number): typeof NO_TUPLE | typeof MAYBE_TUPLE | typeof UNKNOWN {
  if (at + 1 >= work.length) return UNKNOWN
  const next = work.charCodeAt(at + 1)
  const starts = isWhitespace(next) || isDigit(next) || isIdentifierStart(next) || next === 0x7b || next === 0x5b || next === 0x28 || next === 0x29 || next === 0x22 || next === 0x27 || next === 0x2d || next === 0x2b || next === 0x2e
  return starts ? MAYBE_TUPLE : NO_TUPLE
}

/** Offset of the next `{`, `[` or `<` at or after `from`, or -1 (a loop: a regex would build a match per hit). */
function nextOpener(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x7b || code === 0x5b || code === 0x3c) return i
  }
  return -1
}

function skipSpace(text: string, from: number): number {
  let i = from
  while (i < text.length) {
    const code = text.charCodeAt(i)
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break
    i++
  }
  return i
}
