/** The signature of a call for repeated-call detection. */
import type { JsonValue } from '../messages'
import { stableJson } from '../util/json-walk'

/** `name` and the arguments as stable JSON (sorted keys): equal for calls a user would call identical. Pure; iterative, any depth. */
export function signature(name: string, args: Record<string, JsonValue>): string {
  return `${name} ${stableJson(args)}`
}
