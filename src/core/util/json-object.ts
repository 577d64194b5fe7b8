/** Telling JSON objects from the other JSON values. */
import type { JsonObject, JsonValue } from '../messages'

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

/**
 * Sets `target[key] = value` as an own, enumerable member, `__proto__` included (an assignment
 * would set the object's prototype instead and drop the member: arguments written by a model may
 * hold that key).
 */
export function setMember(target: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}
