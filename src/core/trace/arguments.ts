/**
 * Reading a native tool call's `arguments` string. OpenAI sends arguments as a JSON-encoded
 * string that the model wrote token by token, so it can be empty, invalid, not an object,
 * or a JSON string that itself holds JSON (double-encoded). Import never fails on any of
 * these; the anomaly checks report them.
 */
import type { JsonValue } from '../messages'
import { engineJsonError } from '../util/json-engine-error'
import { isJsonObject } from '../util/json-object'
import { MAX_JSON_DEPTH, tooDeep } from '../util/json-walk'
import type { Phrase, PhraseRef } from '../util/phrase'
import { tracePhrase, traceRef } from './trace-text'

// Re-exported so the importers keep one import for the JSON readers they use together.
export { isJsonObject }

/** Outcome of reading one `arguments` string. */
export interface ArgumentsReading {
  /** The arguments object; `{}` when the text held no usable object. */
  arguments: Record<string, JsonValue>
  /** Why the text could not be used, phrased as a sentence fragment (`not valid JSON (…)`). Absent when usable. */
  problem?: string
  /** `problem` as a phrase of `TRACE_TEXT`, for translation. */
  problemRef?: PhraseRef
  /** True when the text was a JSON string holding a JSON object (the object is returned). */
  doubleEncoded?: boolean
}

/**
 * Parse a tool call's `arguments` text. Pure; never throws.
 * An empty or all-whitespace string counts as `{}` without a problem: providers send `""`
 * for calls to tools that take no arguments.
 */
export function readArguments(text: string): ArgumentsReading {
  if (text.trim() === '') return { arguments: {} }
  let parsed: JsonValue
  try {
    parsed = JSON.parse(text) as JsonValue
  } catch (error) {
    return unusable(traceRef('argsNotJson', { error: engineJsonError(error) }))
  }
  if (tooDeep(parsed, MAX_JSON_DEPTH)) return unusable(traceRef('argsTooDeep', { limit: MAX_JSON_DEPTH }))
  if (isJsonObject(parsed)) return { arguments: parsed }
  if (typeof parsed === 'string') {
    try {
      const inner = JSON.parse(parsed) as JsonValue
      if (tooDeep(inner, MAX_JSON_DEPTH)) return { ...unusable(traceRef('argsTooDeep', { limit: MAX_JSON_DEPTH })), doubleEncoded: true }
      if (isJsonObject(inner)) return { arguments: inner, doubleEncoded: true }
    } catch {
      // Not double-encoded after all: fall through to "not an object".
    }
  }
  return unusable(traceRef('argsNotObject', { kind: describeJson(parsed) }))
}

function unusable(problem: PhraseRef): ArgumentsReading {
  return { arguments: {}, problem: problem.english, problemRef: problem }
}

/**
 * A JSON value's kind for error messages, as a phrase of `TRACE_TEXT` (`kindArray`, …): in
 * English `array`, `null`, `string`, `number`, `boolean` or `object`, which the UI translates.
 */
export function describeJson(value: unknown): Phrase {
  if (value === null) return tracePhrase('kindNull')
  if (Array.isArray(value)) return tracePhrase('kindArray')
  switch (typeof value) {
    case 'string':
      return tracePhrase('kindString')
    case 'number':
    case 'bigint':
      return tracePhrase('kindNumber')
    case 'boolean':
      return tracePhrase('kindBoolean')
    case 'object':
      return tracePhrase('kindObject')
    default:
      // Not JSON (undefined, a function): named as JavaScript names it.
      return tracePhrase('kindOther', { kind: typeof value })
  }
}
