/** Telling JSON objects from the other JSON values. */
import type { JsonObject } from '../messages'

/**
 * True for a JSON object: not an array, not `null`, not a primitive. Pure.
 *
 * Accepts any value (parsed JSON, untrusted input) and narrows it to {@link JsonObject}. It does
 * not look at the prototype, so class instances count too; callers that take user-written
 * values must check that themselves.
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
