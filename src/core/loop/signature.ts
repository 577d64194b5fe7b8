/** The signature of a call for repeated-call detection. */
import type { JsonValue } from '../messages'

/** `name` and the arguments as stable JSON (sorted keys): equal for calls a user would call identical. Pure. */
export function signature(name: string, args: Record<string, JsonValue>): string {
  const stable = (value: JsonValue): string =>
    Array.isArray(value)
      ? `[${value.map(stable).join(',')}]`
      : value !== null && typeof value === 'object'
        ? `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable(value[k]!)}`).join(',')}}`
        : JSON.stringify(value)
  return `${name} ${stable(args)}`
}
