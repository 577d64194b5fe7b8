/** The signature of a call for repeated-call detection. */
import type { JsonValue } from '../messages'
import { stableJson } from '../util/json-walk'

/**
 * The stable JSON of each arguments object signed so far. A turn's arguments are signed when it
 * is validated and again each time the state is folded (the page folds a run several times), and
 * the objects of a logged event are never changed: one wide value (500 000 objects) is walked once.
 */
const signed = new WeakMap<object, string>()

/** `name` and the arguments as stable JSON (sorted keys): equal for calls a user would call identical. Pure; iterative, any depth. */
export function signature(name: string, args: Record<string, JsonValue>): string {
  if (typeof args !== 'object' || args === null) return `${name} ${stableJson(args)}`
  let text = signed.get(args)
  if (text === undefined) signed.set(args, (text = stableJson(args)))
  return `${name} ${text}`
}
