/**
 * Joining the `function.arguments` fragments of a streamed Chat Completions tool call (API
 * reference, "The chat completion chunk object": `delta.tool_calls[].function.arguments` arrives
 * in pieces that concatenate to the JSON string). Some OpenAI-compatible servers (vLLM tool
 * parsers, several gateways) end the stream with one more delta that repeats the whole
 * arguments object; concatenating it would write the object twice (`{"a":1}{"a":1}`), which no
 * parser reads. Such a delta is recognised by meaning, not spelling: `\u00e9` and a literal `é`,
 * or other spacing, are the same text.
 *
 * Pure; never throws.
 */

import type { JsonValue } from '../messages'
import { stableJson } from '../util/json-walk'

/** JSON text of a value with object keys sorted, so equal values compare equal. Iterative: arguments of any depth. */
function canonical(value: object): string {
  return stableJson(value as JsonValue)
}

/** The decoded object of a complete JSON object text, or undefined. */
function completeObject(text: string): object | undefined {
  const trimmed = text.trim()
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined
  try {
    const value: unknown = JSON.parse(trimmed)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * True when `fragment` is a whole JSON object equal to the complete object already in `soFar`
 * (the repeated final delta). Cheap for ordinary fragments: both are parsed only when each
 * looks like a whole object (starts with `{` and ends with `}`). O(length of both).
 */
export function repeatsArguments(soFar: string, fragment: string): boolean {
  const repeated = completeObject(fragment)
  if (repeated === undefined) return false
  const existing = completeObject(soFar)
  return existing !== undefined && canonical(existing) === canonical(repeated)
}

/**
 * The arguments text after one more streamed fragment: `soFar + fragment`, or `soFar` unchanged
 * when the fragment repeats the complete arguments object (see {@link repeatsArguments}).
 */
export function appendArgumentsFragment(soFar: string, fragment: string): string {
  if (soFar === '' || fragment === '') return soFar + fragment
  return repeatsArguments(soFar, fragment) ? soFar : soFar + fragment
}
