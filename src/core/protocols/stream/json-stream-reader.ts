/**
 * An incremental, lenient JSON reader: it consumes text in pieces of any size and keeps the
 * value read so far as a live tree that grows in place. The streaming parsers use it to show a
 * call's arguments while they are still arriving.
 *
 * It accepts what the one-shot `readJson` accepts (single quotes, Python literals, trailing
 * commas, unquoted keys, raw line breaks, unknown escapes kept verbatim, a missing comma before a
 * key or an item) but names no repairs and records no spans: its readings are provisional, and
 * the final result of a stream always comes from the one-shot parser.
 */
import type { JsonValue } from '../../messages'
import { isDigit, isIdentifierPart, isIdentifierStart, isWhitespace } from '../../json/chars'
import { setMember } from '../../util/json-object'

type JsonObject = { [key: string]: JsonValue }
type Container = JsonObject | JsonValue[]

/** What a reusable frame holds when no container is open in it. */
const NO_CONTAINER: Container = []

interface Frame {
  container: Container
  isArray: boolean
  /** Key whose value is being read (objects only). */
  key: string
}

/** Receives the pieces of one string value as they are decoded. */
export interface StringSink {
  piece(text: string): void
  end(): void
}

// States of the reader. Numbers rather than strings: the main loop switches on them per character.
const VALUE = 0
const KEY = 1
const COLON = 2
const AFTER_VALUE = 3
const STRING = 4
const ESCAPE = 5
const UNICODE = 6
const NUMBER = 7
const WORD = 8
const DONE = 9
const FAILED = 10

// Why a reading failed; the message is written from these only when `error` is read.
const NOT_A_NUMBER = 0
const NOT_A_LITERAL = 1
const TOO_DEEP = 2
const NO_OPENER = 3
const NO_VALUE = 4
const NO_KEY = 5
const NO_COLON = 6
const NO_ITEM_SEPARATOR = 7
const NO_MEMBER_SEPARATOR = 8
const BAD_STATE = 9
type Failure = typeof NOT_A_NUMBER | typeof NOT_A_LITERAL | typeof TOO_DEEP | typeof NO_OPENER | typeof NO_VALUE | typeof NO_KEY | typeof NO_COLON | typeof NO_ITEM_SEPARATOR | typeof NO_MEMBER_SEPARATOR | typeof BAD_STATE

/** Open containers counted as "top levels" for {@link JsonStreamReader.shallowVersion}. */
const SHALLOW_LEVELS = 3

const QUOTE = 0x22
const APOSTROPHE = 0x27
const BACKSLASH = 0x5c

const DOUBLE_QUOTED_SPECIAL = /["\\]/g
const SINGLE_QUOTED_SPECIAL = /['\\]/g
const NUMBER_SHAPE = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', "'": "'" }

const LITERALS: Readonly<Record<string, JsonValue>> = { true: true, false: false, null: null, True: true, False: false, None: null }

function isNumberPart(code: number): boolean {
  return isDigit(code) || code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === 0x2d
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 0x61 && code <= 0x66) || (code >= 0x41 && code <= 0x46)
}

/** Sets a member; `__proto__` becomes an own key instead of replacing the prototype. */
/**
 * Reads one JSON object or array from consecutive pieces of text.
 *
 * Call {@link write} with each piece; the value read so far is {@link root}, a live tree: strings
 * grow as they arrive, containers are attached when they open, numbers and literals appear once
 * they end. Work per character is constant (amortised over a string's pieces), so reading a value
 * costs time linear in its length however it is split. Never throws.
 */
export class JsonStreamReader {
  /** The root object or array, once its opener has been read; grows in place. */
  root: Container | undefined
  /**
   * Changes whenever something within the top three levels changes shape (a member or item is
   * attached, a key is read, a string there ends, a container there closes). Deeper content and
   * the growth of an open string do not change it, so callers can cache what they derive from
   * the top levels, such as a call's name.
   */
  shallowVersion = 0
  /** `open` while more input can continue the value; `done` after the root's closer; `failed` on a character that cannot continue it. */
  status: 'open' | 'done' | 'failed' = 'open'
  /** When `failed`: what was wrong (written only when asked for: scanners that try a reader at each `[{` in prose never read it). */
  get error(): string {
    if (this.status !== 'failed') return ''
    const found = this.found
    switch (this.failure) {
      case NOT_A_NUMBER:
        return `'${found}' is not a number.`
      case NOT_A_LITERAL:
        return `Expected a value, found '${found.slice(0, 20)}'.`
      case TOO_DEEP:
        return `Nesting deeper than ${this.maxDepth} levels.`
      case NO_OPENER:
        return 'Expected { or [.'
      case NO_VALUE:
        return `Expected a JSON value, found '${found}'.`
      case NO_KEY:
        return `Expected a property name, found '${found}'.`
      case NO_COLON:
        return `Expected ':', found '${found}'.`
      case NO_ITEM_SEPARATOR:
        return `Expected ',' or ']', found '${found}'.`
      case NO_MEMBER_SEPARATOR:
        return `Expected ',' or '}', found '${found}'.`
      default:
        return 'Unexpected state.'
    }
  }
  /**
   * Called when a string value (not a key) starts; the sink it returns receives that string's
   * decoded pieces. Lets a caller parse a JSON-encoded string (OpenAI `arguments`) as it arrives.
   */
  onStringStart: ((reader: JsonStreamReader) => StringSink | undefined) | undefined

  private state = VALUE
  /**
   * The open containers' frames are `stack[0 .. open)`. Frames past `open` are kept for reuse: a
   * scanner trying a reading at every `[{` of an output opens and drops two per try, and
   * allocating them was most of the garbage of a megabyte of `[{`.
   */
  private readonly stack: Frame[] = []
  private open = 0
  /** Frames up to here may still point at containers of an earlier value (cleared on reset). */
  private used = 0
  /** A closer may follow (right after an opener, or after a trailing comma). */
  private closeAllowed = false
  private text = ''
  private quote = QUOTE
  private stringIsKey = false
  private slotContainer: Container | undefined
  private slotKey: string | number = 0
  private sink: StringSink | undefined
  private word = ''
  private wordIsKey = false
  private hex = ''
  private failure: Failure = BAD_STATE
  /** The offending character (or word) of the failure, kept for {@link error}. */
  private found = ''

  constructor(private readonly maxDepth = 512) {}

  /**
   * Forgets the value read so far so the reader can read a new one, as a new reader would; the
   * old tree is left as it was (calls made from it keep their arguments). Lets a scanner that
   * tries a reading at each `{` or `[` of the prose keep one reader instead of building one per
   * try. {@link shallowVersion} keeps counting up, so a cache keyed on it sees the change.
   */
  reset(): void {
    this.root = undefined
    this.shallowVersion++
    this.status = 'open'
    this.state = VALUE
    // Dropped frames let go of the old tree's containers (only those used since the last reset).
    for (let level = 0; level < this.used; level++) this.stack[level]!.container = NO_CONTAINER
    this.open = 0
    this.used = 0
    this.closeAllowed = false
    this.text = ''
    this.quote = QUOTE
    this.stringIsKey = false
    this.slotContainer = undefined
    this.slotKey = 0
    this.sink = undefined
    this.word = ''
    this.wordIsKey = false
    this.hex = ''
    this.failure = BAD_STATE
    this.found = ''
  }

  /** How many containers are open. */
  get depth(): number {
    return this.open
  }

  /** The open container at `level` (0 = root). */
  containerAt(level: number): Container | undefined {
    return level < this.open ? this.stack[level]?.container : undefined
  }

  /** The key being read in the open container at `level` (0 = root), or `undefined` for arrays. */
  keyAt(level: number): string | undefined {
    const frame = level < this.open ? this.stack[level] : undefined
    return frame && !frame.isArray ? frame.key : undefined
  }

  /** True while the string at `container[key]` is still being read (its closing quote not yet seen). */
  isReading(container: Container, key: string | number): boolean {
    return (this.state === STRING || this.state === ESCAPE || this.state === UNICODE) && !this.stringIsKey && this.slotContainer === container && this.slotKey === key
  }

  /**
   * Reads `chunk` from `from`. Returns where reading stopped: `chunk.length` while the value is
   * still open, the index just past the root's closer when it completes, or the index of the
   * offending character when it fails (that character is not consumed).
   */
  write(chunk: string, from = 0): number {
    const length = chunk.length
    let i = from
    while (i < length && this.status === 'open') {
      const state = this.state
      if (state === STRING) {
        const special = this.quote === QUOTE ? DOUBLE_QUOTED_SPECIAL : SINGLE_QUOTED_SPECIAL
        special.lastIndex = i
        const match = special.exec(chunk)
        const stop = match ? match.index : length
        if (stop > i) this.appendString(chunk.slice(i, stop))
        if (!match) return length
        i = stop + 1
        if (chunk.charCodeAt(stop) === BACKSLASH) this.state = ESCAPE
        else this.endString()
        continue
      }
      const code = chunk.charCodeAt(i)
      switch (state) {
        case ESCAPE: {
          const char = chunk[i] ?? ''
          i++
          const simple = SIMPLE_ESCAPES[char]
          if (char === 'u') {
            this.hex = ''
            this.state = UNICODE
            continue
          }
          this.appendString(simple ?? `\\${char}`)
          this.state = STRING
          continue
        }
        case UNICODE: {
          if (!isHex(code)) {
            // Kept verbatim, as the one-shot reader does; the character is read again as content.
            this.appendString(`\\u${this.hex}`)
            this.state = STRING
            continue
          }
          this.hex += chunk[i]
          i++
          if (this.hex.length === 4) {
            this.appendString(String.fromCharCode(parseInt(this.hex, 16)))
            this.state = STRING
          }
          continue
        }
        case NUMBER: {
          if (isNumberPart(code)) {
            this.word += chunk[i]
            i++
            continue
          }
          if (!NUMBER_SHAPE.test(this.word)) return this.fail(NOT_A_NUMBER, this.word, i)
          this.attach(Number(this.word))
          continue
        }
        case WORD: {
          if (isIdentifierPart(code)) {
            this.word += chunk[i]
            i++
            continue
          }
          if (this.wordIsKey) {
            this.setKey(this.word)
            continue
          }
          if (!Object.hasOwn(LITERALS, this.word)) return this.fail(NOT_A_LITERAL, this.word, i)
          this.attach(LITERALS[this.word] ?? null)
          continue
        }
        default:
          break
      }
      if (isWhitespace(code)) {
        i++
        continue
      }
      if (state === VALUE) {
        if (code === 0x7b || code === 0x5b) {
          if (this.open >= this.maxDepth) return this.fail(TOO_DEEP, '', i)
          const isArray = code === 0x5b
          const container: Container = isArray ? [] : {}
          if (this.root === undefined) this.root = container
          else this.attachContainer(container)
          const reused = this.stack[this.open]
          if (reused) {
            reused.container = container
            reused.isArray = isArray
            reused.key = ''
          } else {
            this.stack.push({ container, isArray, key: '' })
          }
          this.open++
          if (this.open > this.used) this.used = this.open
          this.state = isArray ? VALUE : KEY
          this.closeAllowed = true
          i++
          continue
        }
        if (this.root === undefined) return this.fail(NO_OPENER, '', i)
        if (code === QUOTE || code === APOSTROPHE) {
          this.startString(code, false)
          i++
          continue
        }
        if (code === 0x2d || isDigit(code)) {
          this.word = chunk[i] ?? ''
          this.state = NUMBER
          i++
          continue
        }
        if (isIdentifierStart(code)) {
          this.word = chunk[i] ?? ''
          this.wordIsKey = false
          this.state = WORD
          i++
          continue
        }
        if (code === 0x5d && this.closeAllowed && this.top()?.isArray) {
          i = this.close(i)
          continue
        }
        return this.fail(NO_VALUE, chunk[i] ?? '', i)
      }
      if (state === KEY) {
        if (code === QUOTE || code === APOSTROPHE) {
          this.startString(code, true)
          i++
          continue
        }
        if (isIdentifierStart(code)) {
          this.word = chunk[i] ?? ''
          this.wordIsKey = true
          this.state = WORD
          i++
          continue
        }
        if (code === 0x7d && this.closeAllowed) {
          i = this.close(i)
          continue
        }
        return this.fail(NO_KEY, chunk[i] ?? '', i)
      }
      if (state === COLON) {
        if (code !== 0x3a) return this.fail(NO_COLON, chunk[i] ?? '', i)
        this.state = VALUE
        this.closeAllowed = false
        i++
        continue
      }
      // AFTER_VALUE
      const frame = this.top()
      if (!frame) return this.fail(BAD_STATE, '', i)
      if (code === 0x2c) {
        this.state = frame.isArray ? VALUE : KEY
        this.closeAllowed = true
        i++
        continue
      }
      if (code === (frame.isArray ? 0x5d : 0x7d)) {
        i = this.close(i)
        continue
      }
      // A missing comma before a quoted key or an item, as the one-shot reader supplies it.
      const startsItem = frame.isArray ? code === QUOTE || code === 0x7b || code === 0x5b || code === 0x2d || isDigit(code) : code === QUOTE
      if (!startsItem) return this.fail(frame.isArray ? NO_ITEM_SEPARATOR : NO_MEMBER_SEPARATOR, chunk[i] ?? '', i)
      this.state = frame.isArray ? VALUE : KEY
      this.closeAllowed = false
    }
    return i
  }

  private top(): Frame | undefined {
    return this.open > 0 ? this.stack[this.open - 1] : undefined
  }

  private fail(kind: Failure, found: string, at: number): number {
    this.status = 'failed'
    this.state = FAILED
    this.failure = kind
    this.found = found
    if (this.sink) {
      this.sink.end()
      this.sink = undefined
    }
    return at
  }

  /** Closes the innermost container at the closer at `at`; returns the index after it. */
  private close(at: number): number {
    if (this.open <= SHALLOW_LEVELS) this.shallowVersion++
    this.open--
    if (this.open === 0) {
      this.status = 'done'
      this.state = DONE
    } else {
      this.state = AFTER_VALUE
    }
    return at + 1
  }

  private attachContainer(container: Container): void {
    if (this.open <= SHALLOW_LEVELS) this.shallowVersion++
    const frame = this.top()
    if (!frame) return
    if (frame.isArray) (frame.container as JsonValue[]).push(container)
    else setMember(frame.container as JsonObject, frame.key, container)
  }

  /** Attaches a finished scalar to the innermost container. */
  private attach(value: JsonValue): void {
    if (this.open <= SHALLOW_LEVELS) this.shallowVersion++
    const frame = this.top()
    if (frame) {
      if (frame.isArray) (frame.container as JsonValue[]).push(value)
      else setMember(frame.container as JsonObject, frame.key, value)
    }
    this.state = AFTER_VALUE
  }

  private setKey(key: string): void {
    if (this.open <= SHALLOW_LEVELS) this.shallowVersion++
    const frame = this.top()
    if (frame) frame.key = key
    this.state = COLON
  }

  private startString(quote: number, isKey: boolean): void {
    this.quote = quote
    this.stringIsKey = isKey
    this.text = ''
    this.state = STRING
    if (isKey) return
    if (this.open <= SHALLOW_LEVELS) this.shallowVersion++
    // The string is attached at once so the live tree shows it while it grows.
    const frame = this.top()
    if (!frame) return
    this.slotContainer = frame.container
    if (frame.isArray) {
      const items = frame.container as JsonValue[]
      this.slotKey = items.length
      items.push('')
    } else {
      this.slotKey = frame.key
      setMember(frame.container as JsonObject, frame.key, '')
    }
    this.sink = this.onStringStart?.(this)
  }

  private appendString(piece: string): void {
    // `+=` builds a rope in V8, so a long string arriving in small pieces is not copied each time.
    this.text += piece
    if (this.stringIsKey) return
    const container = this.slotContainer
    if (Array.isArray(container)) container[this.slotKey as number] = this.text
    else if (container) setMember(container, this.slotKey as string, this.text)
    this.sink?.piece(piece)
  }

  private endString(): void {
    if (this.stringIsKey) {
      this.setKey(this.text)
      return
    }
    if (this.open <= SHALLOW_LEVELS) this.shallowVersion++
    this.sink?.end()
    this.sink = undefined
    this.slotContainer = undefined
    this.state = AFTER_VALUE
  }
}
