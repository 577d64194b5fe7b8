/**
 * Finding JSON values embedded in prose.
 */
import { isDigit, isIdentifierPart, isIdentifierStart, isWhitespace } from './chars'
import { readJsonDeferred, type JsonReadFailure, type JsonReadSuccess } from './read-json'
import { keylessEnd } from './read-strict'

const MAX_RETRIES_AFTER_TRUNCATION = 8
/** The reader's depth limit (`JsonReadOptions.maxDepth`'s default, which the scan reads with). */
const MAX_DEPTH = 512

/** Options of {@link findJsonValues}. */
export interface FindJsonOptions {
  /** Offset to start looking from. Default 0. */
  from?: number
  /** Also consider arrays (`[`), not only objects (`{`). Default true. */
  arrays?: boolean
  /** Passed to {@link readJson} for every value. Default 0. */
  spanDepth?: number
  /**
   * A value cut off by the end of the text is normally dropped when a later attempt reads a
   * value (the cut-off one was prose: an apostrophe taken for a quote). Return true to keep it
   * anyway, e.g. when its partial reading is already a tool call, so values read inside it
   * (its own arguments) cannot hide that it was cut off.
   */
  keepTruncated?: (failure: JsonReadFailure) => boolean
  /**
   * The caller has no use for a value without keys (`[1]`, `[{}]`, `[[], 0]`): such values are
   * passed over where they end, exactly as if they had been read, without being built. Prose can
   * hold hundreds of thousands of them, and building each cost far more than finding its end.
   * Default false (every value is handed over).
   */
  skipKeyless?: boolean
}

/** What {@link findJsonValues} found: complete values in order, and a value cut off by the end of the text. */
export interface FoundJson {
  /** Top-level values, in order; a value nested in another is part of it and not listed again. */
  values: JsonReadSuccess[]
  /**
   * A value that was still open when the text ended (always the last candidate), with its
   * `partial` reading; absent when none was.
   */
  truncated?: JsonReadFailure
  /** Candidates that started like a value but were not valid JSON (at most 8), in order. */
  invalid?: JsonReadFailure[]
}

function skipWhitespace(text: string, at: number): number {
  let pos = at
  while (pos < text.length && isWhitespace(text.charCodeAt(pos))) pos++
  return pos
}

/** End of the quoted string whose quote is at `at` (after the closing quote), or `text.length`. */
function quotedEnd(text: string, at: number): number {
  const quote = text[at] ?? '"'
  let close = text.indexOf(quote, at + 1)
  while (close >= 0) {
    let backslashes = 0
    while (text.charCodeAt(close - 1 - backslashes) === 0x5c) backslashes++
    if ((backslashes & 1) === 0) return close + 1
    close = text.indexOf(quote, close + 1)
  }
  return text.length
}

/** The bare words the lenient reader accepts as values. */
const LITERAL_WORDS = ['true', 'false', 'null', 'True', 'False', 'None']

/** True when the word at `at` is a literal, or a prefix of one cut by the end of the text. */
function startsLiteral(text: string, at: number): boolean {
  let end = at
  while (end < text.length && isIdentifierPart(text.charCodeAt(end)) && end - at <= 5) end++
  const word = text.slice(at, end)
  return LITERAL_WORDS.includes(word) || (end >= text.length && LITERAL_WORDS.some((literal) => literal.startsWith(word)))
}

/**
 * Where the lenient reader is certain to fail right after the opener at `at`, or -1 when a read
 * may succeed: an object whose first member is not a key and a colon (`{{`, `{"x"{`), an array
 * whose first item cannot start a value (`[TOOL_CALLS]`). The offset is the one the reader's
 * error would give, so skipping the read resumes exactly where a failed read would. Such
 * candidates are frequent in hostile input (1 MB of `{`, `{"` repeated) and each failed read
 * costs far more than this look, which reads only what the reader would.
 *
 * @param thorough also look through Python tuples opened in an array (`[(,` fails at the `,`)
 *   and into a number that opens an array (`[-[` fails at the second `[`, `[1e]` at the `]`);
 *   without it, a `(` or a number counts as a value that may read. For a caller that lists no
 *   more failures: a failure found this way is not read, so it has no message.
 */
export function certainFailureAt(text: string, at: number, thorough = false): number {
  let pos = at
  // `[[[{` : look through a few nested openers to the first key or item.
  for (let depth = 0; depth < 8; depth++) {
    const opener = text.charCodeAt(pos)
    pos = skipWhitespace(text, pos + 1)
    if (pos >= text.length) return -1
    const code = text.charCodeAt(pos)
    if (opener === 0x5b || opener === 0x28) {
      if (code === 0x7b || code === 0x5b || (thorough && code === 0x28)) continue
      if (isIdentifierStart(code)) return startsLiteral(text, pos) ? -1 : pos
      if (thorough && (code === 0x2d || (code >= 0x30 && code <= 0x39))) return numberFailureAt(text, pos)
      // A value, or the closer of an empty array or tuple.
      return code === (opener === 0x28 ? 0x29 : 0x5d) || code === 0x22 || code === 0x27 || code === 0x2d || (!thorough && code === 0x28) || (code >= 0x30 && code <= 0x39) ? -1 : pos
    }
    if (code === 0x7d) return -1
    let keyEnd: number
    if (code === 0x22 || code === 0x27) keyEnd = quotedEnd(text, pos)
    else if (isIdentifierStart(code)) {
      keyEnd = pos + 1
      while (keyEnd < text.length && isIdentifierPart(text.charCodeAt(keyEnd))) keyEnd++
      // `{city": …}`: the reader supplies the missing opening quote.
      const quote = text.charCodeAt(keyEnd)
      if (quote === 0x22 || quote === 0x27) keyEnd++
    } else return pos
    const colon = skipWhitespace(text, keyEnd)
    return colon >= text.length || text.charCodeAt(colon) === 0x3a ? -1 : colon
  }
  return -1
}

/**
 * Where the lenient reader's number at `at` fails (`-[`, `1.x`, `1e]`: the offset of the
 * character that is not a digit where one must be), or -1 when it reads or the text ends first
 * (a cut number is the reader's to report). The same steps as the reader's, without building.
 */
function numberFailureAt(text: string, at: number): number {
  const length = text.length
  let i = at
  if (text.charCodeAt(i) === 0x2d) i++
  let digitsStart = i
  while (i < length && isDigit(text.charCodeAt(i))) i++
  if (i === digitsStart) return i >= length ? -1 : i
  if (text.charCodeAt(i) === 0x2e) {
    i++
    digitsStart = i
    while (i < length && isDigit(text.charCodeAt(i))) i++
    if (i === digitsStart) return i >= length ? -1 : i
  }
  const exponent = text.charCodeAt(i)
  if (exponent === 0x65 || exponent === 0x45) {
    i++
    const sign = text.charCodeAt(i)
    if (sign === 0x2b || sign === 0x2d) i++
    digitsStart = i
    while (i < length && isDigit(text.charCodeAt(i))) i++
    if (i === digitsStart) return i >= length ? -1 : i
  }
  return -1
}

/** True unless {@link certainFailureAt} knows the read at `at` fails. */
export function mayStartValue(text: string, at: number): boolean {
  return certainFailureAt(text, at) < 0
}

/** How many invalid candidates {@link findJsonValues} reports. */
const MAX_INVALID_REPORTED = 8

/**
 * Finds the JSON objects (and arrays) that appear in prose: every `{` or `[` outside an already
 * found value is tried with the lenient `readJson`; what reads becomes a value and scanning
 * resumes after it, so braces and brackets inside its strings are never mistaken for structure.
 * A failed attempt resumes where the reader stopped; an attempt cut off by the end of the text
 * is retried from the next character a bounded number of times (a stray apostrophe in prose can
 * swallow a real value that follows), so the scan stays linear.
 *
 * Pure; never throws.
 */
export function findJsonValues(text: string, options: FindJsonOptions = {}): FoundJson {
  const values: JsonReadSuccess[] = []
  const rest = scanJsonValues(text, options, (value) => values.push(value))
  return { values, ...rest }
}

/**
 * {@link findJsonValues} handing each value to `onValue` as it is read, in order, instead of
 * collecting them: a caller that keeps few of them (tool calls among thousands of `{}` in prose)
 * lets the rest be collected young, which costs far less than holding them all to the end.
 *
 * @returns what {@link findJsonValues} returns besides `values`
 */
export function scanJsonValues(text: string, options: FindJsonOptions, onValue: (value: JsonReadSuccess) => void): Omit<FoundJson, 'values'> {
  const arrays = options.arrays ?? true
  const spanDepth = options.spanDepth ?? 0
  const skipKeyless = options.skipKeyless ?? false
  let truncated: JsonReadFailure | undefined
  let pos = options.from ?? 0
  let retriesAfterTruncation = 0
  let keptTruncated = false
  const invalid: JsonReadFailure[] = []
  const length = text.length
  while (pos < length) {
    const code = text.charCodeAt(pos)
    if (code !== 0x7b && !(arrays && code === 0x5b)) {
      pos++
      continue
    }
    // Once the invalid candidates to report are listed, a failed read would only say where it
    // stopped, so tuples and numbers that cannot read (`[(,[(,`, `[-[-`) are ruled out without a read too.
    const failsAt = certainFailureAt(text, pos, invalid.length >= MAX_INVALID_REPORTED)
    if (failsAt >= 0) {
      pos = Math.max(pos + 1, failsAt)
      continue
    }
    if (skipKeyless) {
      // A strict value without keys: what reading it would do, minus building it.
      const end = keylessEnd(text, pos, MAX_DEPTH)
      if (end >= 0) {
        if (truncated && !keptTruncated) truncated = undefined
        pos = end
        continue
      }
    }
    // Most failed reads are dropped, so their messages are written only for the ones kept.
    const result = readJsonDeferred(text, pos, { spanDepth })
    if (result.ok) {
      // A value read after a cut-off attempt shows the attempt was prose (an apostrophe taken
      // for a quote, a stray brace), not a cut-off value.
      if (truncated && !keptTruncated) truncated = undefined
      onValue(result)
      pos = result.end
      continue
    }
    if (result.code === 'truncated') {
      if (!truncated) {
        truncated = result.render()
        keptTruncated = options.keepTruncated?.(truncated) === true
      }
      // Every retry reads to the end of the text, so a fixed budget keeps the scan linear.
      if (++retriesAfterTruncation > MAX_RETRIES_AFTER_TRUNCATION) break
      pos++
      continue
    }
    if (invalid.length < MAX_INVALID_REPORTED) invalid.push(result.render())
    pos = Math.max(pos + 1, result.offset)
  }
  return { ...(truncated ? { truncated } : {}), ...(invalid.length ? { invalid } : {}) }
}
