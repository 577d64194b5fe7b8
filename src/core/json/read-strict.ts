/**
 * The fast path of `readJson` for strictly valid JSON, which is most model output.
 *
 * Building values in JavaScript costs several times what the engine's `JSON.parse` does, so a
 * strict object or array is first checked and measured by a scan that allocates nothing but the
 * requested spans, and its value then comes from `JSON.parse`. The scan stops at the first
 * character strict JSON does not allow (where the lenient reader would start repairing or fail),
 * so falling back to the lenient reader costs at most a second pass over what it reads anyway.
 */
import type { JsonValue } from '../messages'
import type { JsonMemberSpan, JsonReadSuccess, JsonSpanNode } from './read-json'

const QUOTE = 0x22
const BACKSLASH = 0x5c

/** A local copy of `chars.isDigit`: the hot loops stay free of calls across modules (which some loaders compile to getters). */
function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39
}

interface StrictFrame {
  isArray: boolean
  start: number
  node: JsonSpanNode | undefined
  /** Decoded key of the member being read, and where it was written. */
  key: string
  keyStart: number
  keyEnd: number
}

/**
 * Offset of the first character at or after `at` that is not JSON whitespace. Most characters
 * are above U+0020, so one comparison settles them. Past the end `charCodeAt` gives NaN, which
 * fails every comparison, so the end needs no separate check.
 */
function skipSpace(text: string, at: number): number {
  let pos = at
  for (;;) {
    const code = text.charCodeAt(pos)
    if (code > 0x20 || (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09)) return pos
    pos++
  }
}

/**
 * End of the string whose opening quote is at `at` (the offset after its closing quote), or -1
 * when it is not closed. Escapes and control characters are not checked here: `JSON.parse`
 * rejects them afterwards, and the lenient reader would read this far in any case. Jumping from
 * quote to quote with `indexOf` is several times faster than looking at each character.
 */
function strictStringEnd(text: string, at: number): number {
  let quote = text.indexOf('"', at + 1)
  while (quote >= 0) {
    // The quote is escaped when an odd number of backslashes precede it.
    let backslashes = 0
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++
    if ((backslashes & 1) === 0) return quote + 1
    quote = text.indexOf('"', quote + 1)
  }
  return -1
}

/** End of the strict number at `at`, or -1. */
function strictNumberEnd(text: string, at: number): number {
  let i = at
  if (text.charCodeAt(i) === 0x2d) i++
  const first = text.charCodeAt(i)
  if (first === 0x30) i++
  else if (first > 0x30 && first <= 0x39) while (isDigit(text.charCodeAt(i))) i++
  else return -1
  if (text.charCodeAt(i) === 0x2e) {
    i++
    if (!isDigit(text.charCodeAt(i))) return -1
    while (isDigit(text.charCodeAt(i))) i++
  }
  const exponent = text.charCodeAt(i)
  if (exponent === 0x65 || exponent === 0x45) {
    i++
    const sign = text.charCodeAt(i)
    if (sign === 0x2b || sign === 0x2d) i++
    if (!isDigit(text.charCodeAt(i))) return -1
    while (isDigit(text.charCodeAt(i))) i++
  }
  // A digit right after (`01`) or a number cut by the end of the text is for the lenient reader.
  return i < text.length && !isDigit(text.charCodeAt(i)) ? i : -1
}

/**
 * Reads `"key":` at `at` into `frame`; returns the offset after the colon, or -1 when it is not
 * strict. A top-level function, not a closure: capturing the scan position would move it out of
 * a register in the hot loop.
 */
function readKey(text: string, at: number, frame: StrictFrame): number {
  if (text.charCodeAt(at) !== QUOTE) return -1
  const keyEnd = strictStringEnd(text, at)
  if (keyEnd < 0) return -1
  // Keys are decoded only where spans are recorded; deeper down, JSON.parse decodes them.
  if (frame.node?.members) {
    const raw = text.slice(at + 1, keyEnd - 1)
    if (raw.includes('\\')) {
      try {
        frame.key = JSON.parse(text.slice(at, keyEnd)) as string
      } catch {
        return -1
      }
    } else {
      frame.key = raw
    }
  }
  frame.keyStart = at
  frame.keyEnd = keyEnd
  let pos = keyEnd
  pos = skipSpace(text, pos)
  if (text.charCodeAt(pos) !== 0x3a) return -1
  return pos + 1
}

/** What {@link containerEnd} expects next. */
const AFTER_OPEN_OBJECT = 0
const AFTER_OPEN_ARRAY = 1
const KEY = 2
const COLON = 3
const VALUE = 4
const AFTER_VALUE = 5

/**
 * Which open containers are arrays (1) or objects (0), by level; shared by every scan (they never
 * overlap) and grown when a deeper limit is asked for.
 */
let openArrays = new Uint8Array(1024)

/**
 * End of the object or array whose opener is at `at` (after its closer), or -1 when it is not
 * closed, nests more than `room` levels (itself included), or stops being JSON. The scan follows
 * JSON's structure (keys, colons, commas, matching closers) and stops at the first character
 * that cannot continue it, so on output that only looks like JSON (a `[TOOL: f] [ARGS: {`
 * repeated, which opens more than it closes) it reads no further than the lenient reader will,
 * instead of running on to the depth limit. Inside strings only the closing quote is looked for,
 * and numbers and literals are only roughly checked: `JSON.parse` of the whole value afterwards
 * rejects whatever else strict JSON does not allow, so a value this scan accepts is returned only
 * when it is strict JSON, with exactly the end a full check finds.
 */
function containerEnd(text: string, at: number, room: number): number {
  if (openArrays.length < room) openArrays = new Uint8Array(room)
  const arrays = openArrays
  let level = 0
  let pos = at
  let expect = VALUE
  for (;;) {
    const code = text.charCodeAt(pos)
    // Past the end `code` is NaN, which matches no case below.
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      pos++
      continue
    }
    switch (expect) {
      case AFTER_VALUE:
        if (code === 0x2c) {
          expect = arrays[level - 1] === 1 ? VALUE : KEY
          pos++
          continue
        }
        if (code === (arrays[level - 1] === 1 ? 0x5d : 0x7d)) {
          pos++
          if (--level === 0) return pos
          continue
        }
        return -1
      case COLON:
        if (code !== 0x3a) return -1
        expect = VALUE
        pos++
        continue
      case AFTER_OPEN_OBJECT:
      case KEY:
        if (code === QUOTE) {
          pos = strictStringEnd(text, pos)
          if (pos < 0) return -1
          expect = COLON
          continue
        }
        if (expect === AFTER_OPEN_OBJECT && code === 0x7d) {
          pos++
          if (--level === 0) return pos
          expect = AFTER_VALUE
          continue
        }
        return -1
      default:
        // VALUE, or AFTER_OPEN_ARRAY: a value or the closer of an empty array.
        if (code === 0x7b || code === 0x5b) {
          if (level >= room) return -1
          const isArray = code === 0x5b
          arrays[level++] = isArray ? 1 : 0
          expect = isArray ? AFTER_OPEN_ARRAY : AFTER_OPEN_OBJECT
          pos++
          continue
        }
        if (code === QUOTE) {
          pos = strictStringEnd(text, pos)
          if (pos < 0) return -1
        } else if (code === 0x2d || isDigit(code)) {
          pos = looseNumberEnd(text, pos)
        } else if (code === 0x74 || code === 0x66 || code === 0x6e) {
          pos = literalEnd(text, pos)
          if (pos < 0) return -1
        } else if (expect === AFTER_OPEN_ARRAY && code === 0x5d) {
          pos++
          if (--level === 0) return pos
        } else {
          return -1
        }
        expect = AFTER_VALUE
    }
  }
}

/** End of the run of number characters at `at` (which `JSON.parse` checks afterwards). */
function looseNumberEnd(text: string, at: number): number {
  let i = at + 1
  for (;;) {
    const code = text.charCodeAt(i)
    if (isDigit(code) || code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === 0x2d) i++
    else return i
  }
}

function literalEnd(text: string, at: number): number {
  const first = text.charCodeAt(at)
  if (first === 0x74) return text.startsWith('true', at) ? at + 4 : -1
  if (first === 0x66) return text.startsWith('false', at) ? at + 5 : -1
  if (first === 0x6e) return text.startsWith('null', at) ? at + 4 : -1
  return -1
}

/**
 * Reads the strict JSON object or array at `start` (no leading whitespace) with spans down to
 * `spanDepth`, exactly as `readJson` would report it; `undefined` when the value is not strict
 * JSON, is nested deeper than `maxDepth`, or is not closed before the end of the text.
 */
export function readStrictJson(text: string, start: number, spanDepth: number, maxDepth: number): JsonReadSuccess | undefined {
  const length = text.length
  // An empty object or array (`{}` repeated in prose is thousands of them) needs no stack and no JSON.parse.
  const opener = text.charCodeAt(start)
  const afterOpener = skipSpace(text, start + 1)
  if (text.charCodeAt(afterOpener) === (opener === 0x5b ? 0x5d : 0x7d) && maxDepth > 0) {
    const end = afterOpener + 1
    const span = { start, end }
    const isArray = opener === 0x5b
    const spans: JsonSpanNode = spanDepth > 0 ? (isArray ? { span, items: [] } : { span, members: [] }) : { span }
    return { ok: true, value: isArray ? [] : {}, start, end, repairs: [], spans }
  }
  const stack: StrictFrame[] = []
  let pos = start
  // Each turn reads one value at `pos` (containers push a frame), then closes what ends after it.
  for (;;) {
    pos = skipSpace(text, pos)
    if (pos >= length) return undefined
    const code = text.charCodeAt(pos)
    const from = pos
    let node: JsonSpanNode | undefined
    if (code === 0x7b || code === 0x5b) {
      const depth = stack.length
      if (depth >= maxDepth) return undefined
      const isArray = code === 0x5b
      if (depth >= spanDepth) {
        // Nothing inside records a span: find the end, and let JSON.parse check the rest.
        pos = containerEnd(text, pos, maxDepth - depth)
        if (pos < 0) return undefined
        if (depth === spanDepth) node = { span: { start: from, end: pos } }
      } else {
        node = { span: { start: pos, end: pos } }
        if (isArray) node.items = []
        else node.members = []
        pos++
        pos = skipSpace(text, pos)
        const frame: StrictFrame = { isArray, start: from, node, key: '', keyStart: 0, keyEnd: 0 }
        stack.push(frame)
        const next = text.charCodeAt(pos)
        if (next !== (isArray ? 0x5d : 0x7d)) {
          if (!isArray) {
            pos = readKey(text, pos, frame)
            if (pos < 0) return undefined
          }
          continue
        }
        // Empty container: close it below like any finished value.
        stack.pop()
        pos++
        node.span.end = pos
      }
    } else if (code === QUOTE) {
      pos = strictStringEnd(text, pos)
    } else if (code === 0x2d || isDigit(code)) {
      pos = strictNumberEnd(text, pos)
    } else {
      pos = literalEnd(text, pos)
    }
    if (pos < 0) return undefined

    let valueFrom = from
    for (;;) {
      const frame = stack[stack.length - 1]
      if (!frame) {
        let value: JsonValue
        try {
          value = JSON.parse(text.slice(start, pos)) as JsonValue
        } catch {
          return undefined
        }
        return { ok: true, value, start, end: pos, repairs: [], spans: node ?? { span: { start, end: pos } } }
      }
      // Spans are built only where they are kept; deeper values allocate nothing.
      const members = frame.node?.members
      const items = frame.node?.items
      if (members) members.push({ key: frame.key, keySpan: { start: frame.keyStart, end: frame.keyEnd }, value: node ?? { span: { start: valueFrom, end: pos } } } satisfies JsonMemberSpan)
      else if (items) items.push(node ?? { span: { start: valueFrom, end: pos } })
      pos = skipSpace(text, pos)
      const next = text.charCodeAt(pos)
      if (next === 0x2c) {
        pos++
        pos = skipSpace(text, pos)
        if (!frame.isArray) {
          pos = readKey(text, pos, frame)
          if (pos < 0) return undefined
        }
        break
      }
      if (next !== (frame.isArray ? 0x5d : 0x7d)) return undefined
      pos++
      stack.pop()
      node = frame.node
      if (node) node.span.end = pos
      valueFrom = frame.start
    }
  }
}

/**
 * End of the strict JSON string whose quote is at `at` (after the closing quote), checked as
 * `JSON.parse` checks it (no raw control character, only JSON's escapes); {@link KEYLESS_CUT} when
 * the text ends inside it, {@link NOT_KEYLESS} when it is not strict.
 */
function checkedStringEnd(text: string, at: number): number {
  const length = text.length
  let pos = at + 1
  for (;;) {
    if (pos >= length) return KEYLESS_CUT
    const code = text.charCodeAt(pos)
    if (code === QUOTE) return pos + 1
    if (code < 0x20) return NOT_KEYLESS
    if (code !== BACKSLASH) {
      pos++
      continue
    }
    if (pos + 1 >= length) return KEYLESS_CUT
    const escaped = text.charCodeAt(pos + 1)
    if (escaped === 0x75) {
      for (let digit = pos + 2; digit < pos + 6; digit++) {
        if (digit >= length) return KEYLESS_CUT
        const hex = text.charCodeAt(digit)
        if (!(isDigit(hex) || (hex >= 0x61 && hex <= 0x66) || (hex >= 0x41 && hex <= 0x46))) return NOT_KEYLESS
      }
      pos += 6
      continue
    }
    // " \ / b f n r t
    if (escaped !== QUOTE && escaped !== BACKSLASH && escaped !== 0x2f && escaped !== 0x62 && escaped !== 0x66 && escaped !== 0x6e && escaped !== 0x72 && escaped !== 0x74) return NOT_KEYLESS
    pos += 2
  }
}

/** True when the text from `at` to its end is the start of a strict number (`-`, `1.`, `2e+`). */
function isNumberStart(text: string, at: number): boolean {
  const length = text.length
  let i = at
  if (text.charCodeAt(i) === 0x2d) i++
  if (i >= length) return true
  if (text.charCodeAt(i) === 0x30) i++
  else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++
  else return false
  if (i >= length) return true
  if (text.charCodeAt(i) === 0x2e) {
    i++
    if (i >= length) return true
    if (!isDigit(text.charCodeAt(i))) return false
    while (isDigit(text.charCodeAt(i))) i++
    if (i >= length) return true
  }
  const exponent = text.charCodeAt(i)
  if (exponent !== 0x65 && exponent !== 0x45) return false
  i++
  const sign = text.charCodeAt(i)
  if (sign === 0x2b || sign === 0x2d) i++
  while (isDigit(text.charCodeAt(i))) i++
  return i >= length
}

/** {@link keylessEnd}: the text ended before the value did. */
export const KEYLESS_CUT = -2
/** {@link keylessEnd}: not a strict value without strings (a string, a repair, too deep). */
export const NOT_KEYLESS = -1

/**
 * End of the strict JSON array or object at `at` (after its closer) when no object in it has a
 * member (`[1]`, `[{}]`, `[["a", 2], {}]`): such a value has no key, so it names no tool, and a
 * caller that looks only for calls can pass over it without building it. {@link KEYLESS_CUT} when
 * the text ends inside it, {@link NOT_KEYLESS} when an object in it has a member, it is not strict
 * JSON or it nests deeper than `room` levels. Everything it accepts is strict JSON (numbers and
 * strings checked as strictly as `JSON.parse` does), so `readJson` reads it, with this end.
 * Allocates nothing.
 */
export function keylessEnd(text: string, at: number, room: number): number {
  if (openArrays.length < room) openArrays = new Uint8Array(room)
  const arrays = openArrays
  const length = text.length
  let level = 0
  let pos = at
  let expect = VALUE
  for (;;) {
    if (pos >= length) return KEYLESS_CUT
    const code = text.charCodeAt(pos)
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      pos++
      continue
    }
    if (expect === AFTER_VALUE) {
      if (code === 0x2c) {
        // Only arrays get here with items: an object without strings is `{}`.
        expect = VALUE
        pos++
        continue
      }
      if (code === (arrays[level - 1] === 1 ? 0x5d : 0x7d)) {
        pos++
        if (--level === 0) return pos
        continue
      }
      return NOT_KEYLESS
    }
    if (expect === AFTER_OPEN_OBJECT) {
      if (code !== 0x7d) return NOT_KEYLESS
      pos++
      if (--level === 0) return pos
      expect = AFTER_VALUE
      continue
    }
    // VALUE, or AFTER_OPEN_ARRAY: a value or the closer of an empty array.
    if (code === 0x7b || code === 0x5b) {
      if (level >= room) return NOT_KEYLESS
      const isArray = code === 0x5b
      arrays[level++] = isArray ? 1 : 0
      expect = isArray ? AFTER_OPEN_ARRAY : AFTER_OPEN_OBJECT
      pos++
      continue
    }
    if (expect === AFTER_OPEN_ARRAY && code === 0x5d) {
      pos++
      if (--level === 0) return pos
      expect = AFTER_VALUE
      continue
    }
    if (code === QUOTE) {
      // An item, not a key: objects here are `{}`.
      const end = checkedStringEnd(text, pos)
      if (end < 0) return end
      pos = end
    } else if (code === 0x2d || isDigit(code)) {
      // A number that reaches the end of the text may go on: the value is cut there.
      const end = strictNumberEnd(text, pos)
      if (end < 0) return isNumberStart(text, pos) ? KEYLESS_CUT : NOT_KEYLESS
      pos = end
    } else if (code === 0x74 || code === 0x66 || code === 0x6e) {
      const end = literalEnd(text, pos)
      if (end >= 0) pos = end
      // A literal that the end of the text cuts (`[tr`); the slice is a few characters at most.
      else return length - pos < 5 && (code === 0x74 ? 'true' : code === 0x66 ? 'false' : 'null').startsWith(text.slice(pos)) ? KEYLESS_CUT : NOT_KEYLESS
    } else {
      return NOT_KEYLESS
    }
    expect = AFTER_VALUE
  }
}
