/**
 * Reading a tool call out of a JSON object, in the key spellings models use:
 * `{"tool"|"tool_name"|"name"|"function": NAME, "arguments"|"parameters"|"args"|"input"|"params": {…}}`,
 * plus the OpenAI nesting `{"function": {"name", "arguments"}}` and arguments double-encoded as a
 * JSON string.
 */
import { readJson, type JsonSpanNode } from '../../json'
import type { JsonObject, JsonValue } from '../../messages'
import { isJsonObject } from '../../util/json-object'
import type { ParseError, ParsedCall, Repair, Span } from '../types'
import { nested, parseSaid } from '../../util/parse-text'

// Re-exported so the protocol modules keep one import for the call-object readers.
export { isJsonObject }

/** Keys that name the tool, in order of precedence. */
export const NAME_KEYS = ['tool', 'tool_name', 'name', 'function'] as const
/** Keys that hold the arguments, in order of precedence. */
export const ARGUMENT_KEYS = ['arguments', 'parameters', 'args', 'input', 'params'] as const
/** Keys that may ride along in a call object without being arguments. */
const CALL_METADATA_KEYS = new Set(['reasoning', 'thought', 'thoughts', 'id', 'type', 'tool_call_id', 'call_id', 'index', 'dependsOn', 'depends_on'])
/** Tool names that mean "no call". */
const NO_CALL_NAMES = new Set(['none', 'null', ''])

/**
 * How sure the surrounding syntax is that the object is a call: `wrapped` (inside `<tool_call>`,
 * after `[TOOL_CALLS]`, …) reads any object as a call and reports what is missing; `prose` only
 * reads objects that look like calls, and leaves other JSON as data.
 */
export type CallContext = 'prose' | 'wrapped'

/** What an object turned out to be. */
export type CallReading =
  | { kind: 'call'; call: ParsedCall; repairs: Repair[] }
  | { kind: 'no_call' }
  | { kind: 'data' }
  | { kind: 'error'; error: ParseError; name?: string; defect?: ArgumentsDefect }

function memberNode(node: JsonSpanNode | undefined, key: string): JsonSpanNode | undefined {
  const members = node?.members
  if (!members) return undefined
  for (let index = members.length - 1; index >= 0; index--) {
    const member = members[index]
    if (member && member.key === key) return member.value
  }
  return undefined
}

/** The span of a string value without its quotes. */
export function stringContentSpan(raw: string, span: Span): Span {
  const first = raw.charCodeAt(span.start)
  const quoted = (first === 0x22 || first === 0x27) && span.end - span.start >= 2
  return quoted ? { start: span.start + 1, end: span.end - 1 } : span
}

/** `Text` → `text`, for embedding a sentence in another. */
import { lowerFirst } from '../../util/phrase'
export { lowerFirst }

/** The error for arguments the output ended inside of. */
export function cutArguments(name: string, span: Span | undefined): ParseError {
  return { code: 'truncated', ...parseSaid('argsCutAtClose', { name }), ...(span ? { span } : {}) }
}

/** Outcome of {@link decodeArguments}. */
export type DecodedArguments =
  | { ok: true; arguments: JsonObject; repairs: Repair[]; raw?: string }
  | { ok: false; error: ParseError; defect?: ArgumentsDefect }

/**
 * What is wrong with an arguments string, in one clause for a tool result: where it ends or
 * breaks, counted in chars (UTF-16 units) from the start of the decoded arguments text.
 */
export interface ArgumentsDefect {
  kind: 'cut_off' | 'invalid_json' | 'extra_text'
  /** Offset into the arguments text, chars. */
  at: number
  /** e.g. `arguments cut off at char 212`, `arguments have extra text after char 40: "junk"`. */
  message: string
}

function defectOf(kind: ArgumentsDefect['kind'], at: number, problem: string): ArgumentsDefect {
  const message =
    kind === 'cut_off'
      ? `arguments cut off at char ${at}`
      : kind === 'extra_text'
        ? `arguments have extra text after char ${at}: ${problem}`
        : `arguments are not valid JSON at char ${at}: ${problem}`
  return { kind, at, message }
}

/**
 * Turns an `arguments` value into an object: objects as they are, `null`/missing/`""` as `{}`,
 * and a string holding JSON (once or twice encoded) decoded leniently.
 *
 * @param value the arguments as found
 * @param span where they sit in the raw output (repairs inside an encoded string point at it)
 * @param name the tool name, for messages
 * @param unclosed the reader supplied the arguments' closers at the end of the output (after a
 *   complete value: repaired as `missing_closer`, which the caller reports); an arguments
 *   object that never got a value, `{` alone, is cut off
 */
export function decodeArguments(value: JsonValue | undefined, span: Span | undefined, name: string, unclosed = false): DecodedArguments {
  const repairs: Repair[] = []
  if (unclosed && isJsonObject(value) && Object.keys(value).length === 0) return { ok: false, error: cutArguments(name, span) }
  let current: JsonValue | undefined = value
  let raw: string | undefined
  for (let layer = 0; layer < 4; layer++) {
    if (current === undefined || current === null) return { ok: true, arguments: {}, repairs }
    if (isJsonObject(current)) return raw === undefined ? { ok: true, arguments: current, repairs } : { ok: true, arguments: current, repairs, raw }
    if (typeof current !== 'string') {
      const said = Array.isArray(current) ? parseSaid('argsArray', { name }) : parseSaid('argsNotObject', { name, type: typeof current })
      return { ok: false, error: { code: 'invalid_arguments', ...said, ...(span ? { span } : {}) } }
    }
    raw ??= current
    if (current.trim() === '') return { ok: true, arguments: {}, repairs, raw }
    const read = readJson(current, 0)
    if (!read.ok) {
      const problem = lowerFirst(read.error.message)
      const truncated = read.error.code === 'truncated'
      const key = truncated ? (layer === 0 ? 'argsCut' : 'argsCutDecoded') : layer === 0 ? 'argsInvalid' : 'argsInvalidDecoded'
      return {
        ok: false,
        ...(layer === 0 ? { defect: defectOf(truncated ? 'cut_off' : 'invalid_json', read.error.offset, problem) } : {}),
        error: { code: truncated ? 'truncated' : 'invalid_arguments', ...parseSaid(key, { name, problem: nested(read.error) }), ...(span ? { span } : {}) },
      }
    }
    let rest = current.slice(read.end).trim()
    if (rest !== '' && /^[\]}]+$/.test(rest)) {
      // `{"city": "Paris"}]`: a stray closer after complete arguments.
      repairs.push({ code: 'extra_closer', ...parseSaid('extraCloser', { rest, name }), ...(span ? { span } : {}) })
      rest = ''
    }
    if (rest !== '') {
      return {
        ok: false,
        ...(layer === 0 ? { defect: defectOf('extra_text', read.end, JSON.stringify(rest.slice(0, 24))) } : {}),
        error: { code: 'invalid_arguments', ...parseSaid('argsExtraText', { name, offset: read.end, rest: rest.slice(0, 24) }), ...(span ? { span } : {}) },
      }
    }
    for (const repair of read.repairs) repairs.push({ code: repair.code, message: repair.message, ...(repair.phrase ? { phrase: repair.phrase } : {}), ...(span ? { span } : {}) })
    // One layer of string encoding is either normal (OpenAI) or reported by the caller; more is a repair here.
    if (layer > 0) {
      repairs.push({ code: 'double_encoded', ...parseSaid('doubleEncodedTwice', { name }), ...(span ? { span } : {}) })
    }
    current = read.value
  }
  return { ok: false, error: { code: 'invalid_arguments', ...parseSaid('argsEncodedTooOften', { name }), ...(span ? { span } : {}) } }
}

/**
 * Reads a call from a JSON object.
 *
 * @param raw the raw output the spans point into
 * @param value the object (any JSON value is accepted; non-objects are data, or an error when wrapped)
 * @param node its spans, read with a span depth of at least 1 from the object
 * @param context see {@link CallContext}
 * @param encodedArgumentsAreNormal true for formats whose arguments are always a JSON string
 *   (OpenAI); otherwise a string is a double-encoding repair
 */
export function readCallObject(raw: string, value: JsonValue, node: JsonSpanNode | undefined, context: CallContext, encodedArgumentsAreNormal = false): CallReading {
  // `{"function": {…}}` wrappers (a tool_calls entry; some writers nest them) are unwrapped in a
  // loop, not by recursion, so no depth of input can overflow the stack.
  const wrappers: { span: Span | undefined; id: JsonValue | undefined }[] = []
  let inner: { value: JsonValue; node: JsonSpanNode | undefined } = { value, node }
  for (;;) {
    const current = inner.value
    if (!isJsonObject(current) || NAME_KEYS.find((key) => Object.hasOwn(current, key)) !== 'function' || !isJsonObject(current.function)) break
    wrappers.push({ span: inner.node?.span, id: current.id })
    inner = { value: current.function, node: memberNode(inner.node, 'function') }
  }
  if (wrappers.length === 0) return readUnwrappedCall(raw, value, node, context, encodedArgumentsAreNormal)
  const reading = readUnwrappedCall(raw, inner.value, inner.node, 'wrapped', true)
  if (reading.kind === 'call') {
    // From the innermost wrapper out: the outermost span and id win, as they did when each level read the one inside.
    for (let index = wrappers.length - 1; index >= 0; index--) {
      const wrapper = wrappers[index]!
      if (wrapper.span) reading.call.spans.call = wrapper.span
      if (typeof wrapper.id === 'string' && wrapper.id !== '') reading.call.id = wrapper.id
    }
  }
  return reading
}

/** {@link readCallObject} of an object that is not a `{"function": {…}}` wrapper. */
function readUnwrappedCall(raw: string, value: JsonValue, node: JsonSpanNode | undefined, context: CallContext, encodedArgumentsAreNormal: boolean): CallReading {
  if (!isJsonObject(value)) {
    if (context === 'prose') return { kind: 'data' }
    return { kind: 'error', error: { code: 'invalid_call', ...parseSaid('callNotObject'), ...(node ? { span: node.span } : {}) } }
  }
  const keys = Object.keys(value)
  const nameKey = NAME_KEYS.find((key) => Object.hasOwn(value, key))
  const argumentsKey = ARGUMENT_KEYS.find((key) => Object.hasOwn(value, key))
  const callSpan = node?.span
  const repairs: Repair[] = []

  if (nameKey === undefined) {
    if (context === 'prose') return { kind: 'data' }
    return { kind: 'error', error: { code: 'missing_name', ...parseSaid('callNoName'), ...(callSpan ? { span: callSpan } : {}) } }
  }
  const nameValue = value[nameKey]
  if (context === 'prose') {
    if (typeof nameValue !== 'string' && nameValue !== null) return { kind: 'data' }
    // `name` is an ordinary data key ({"name": "Ada", "age": 36}); only call-shaped objects count.
    const looksLikeCall = nameKey !== 'name' || argumentsKey !== undefined || keys.every((key) => key === nameKey || CALL_METADATA_KEYS.has(key))
    if (!looksLikeCall) return { kind: 'data' }
  }
  if (nameValue === null || (typeof nameValue === 'string' && NO_CALL_NAMES.has(nameValue.trim().toLowerCase()))) return { kind: 'no_call' }
  if (typeof nameValue !== 'string') {
    return { kind: 'error', error: { code: 'missing_name', ...parseSaid('callNameNotString', { key: nameKey }), ...(callSpan ? { span: callSpan } : {}) } }
  }
  const name = nameValue.trim()
  const nameNode = memberNode(node, nameKey)
  const nameSpan = nameNode ? stringContentSpan(raw, nameNode.span) : undefined

  // `{"name": "f"` cut off before any arguments: the call may have been longer.
  if (node?.unclosed && argumentsKey === undefined) {
    return { kind: 'error', error: { code: 'truncated', ...parseSaid('callCutBeforeArgs', { name }), ...(callSpan ? { span: callSpan } : {}) }, name }
  }
  let argumentsValue: JsonValue | undefined
  let argumentsSpan: Span | undefined
  let argumentsUnclosed = false
  if (argumentsKey !== undefined) {
    argumentsValue = value[argumentsKey]
    const argumentsNode = memberNode(node, argumentsKey)
    argumentsUnclosed = argumentsNode?.unclosed === true
    if (argumentsNode) argumentsSpan = typeof argumentsValue === 'string' ? stringContentSpan(raw, argumentsNode.span) : argumentsNode.span
    if (keys.indexOf(argumentsKey) < keys.indexOf(nameKey)) {
      repairs.push({ code: 'key_order', ...parseSaid('keyOrder', { argumentsKey, nameKey }), ...(callSpan ? { span: callSpan } : {}) })
    }
  } else {
    const extra = keys.filter((key) => key !== nameKey && !CALL_METADATA_KEYS.has(key))
    if (extra.length > 0) {
      const flattened: JsonObject = {}
      for (const key of extra) flattened[key] = value[key] ?? null
      argumentsValue = flattened
      repairs.push({ code: 'flattened_arguments', ...parseSaid('flattenedArguments', { keys: extra.map((key) => `"${key}"`).join(', '), nameKey }), ...(callSpan ? { span: callSpan } : {}) })
    }
  }

  const decoded = decodeArguments(argumentsValue, argumentsSpan, name, argumentsUnclosed)
  if (!decoded.ok) return { kind: 'error', error: decoded.error, name, ...(decoded.defect ? { defect: decoded.defect } : {}) }
  if (typeof argumentsValue === 'string' && argumentsValue.trim() !== '' && !encodedArgumentsAreNormal) {
    repairs.unshift({ code: 'double_encoded', ...parseSaid('doubleEncoded', { name }), ...(argumentsSpan ? { span: argumentsSpan } : {}) })
  }
  repairs.push(...decoded.repairs)

  const call: ParsedCall = {
    name,
    arguments: decoded.arguments,
    spans: { call: callSpan ?? { start: 0, end: 0 } },
  }
  if (nameSpan) call.spans.name = nameSpan
  if (argumentsSpan) call.spans.arguments = argumentsSpan
  if (decoded.raw !== undefined) call.rawArguments = decoded.raw
  else if (argumentsSpan && argumentsKey !== undefined) call.rawArguments = raw.slice(argumentsSpan.start, argumentsSpan.end)
  const id = value.id ?? value.tool_call_id
  if (typeof id === 'string' && id !== '') call.id = id
  // Calls in one output may order themselves: {"id": "b", "dependsOn": ["a"], …}.
  const dependsOn = value.dependsOn ?? value.depends_on
  if (Array.isArray(dependsOn)) {
    const ids = dependsOn.filter((item): item is string => typeof item === 'string' && item !== '')
    if (ids.length > 0) call.dependsOn = ids
  }
  return { kind: 'call', call, repairs }
}
