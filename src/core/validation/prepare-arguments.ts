/**
 * The argument policy applied before a call runs: argument aliases, unknown arguments
 * (dropped with a warning or rejected), safe coercions, then JSON Schema validation.
 * Everything it changes is recorded, so the timeline can show it and the model can be told.
 */
import type { JsonValue } from '../messages'
import { isJsonObject, setMember } from '../util/json-object'
import type { JsonSchema, ToolSpec } from '../tools/types'
import type { Phrase } from '../util/phrase'
import { argumentProblems } from './validate-arguments'
import { validationMessage, validationPhrase as say } from './validation-text'

export interface ArgumentPolicy {
  unknownArguments: 'drop' | 'reject'
  coerce: boolean
}

export interface PreparedArguments {
  /** The arguments the tool will receive. */
  arguments: Record<string, JsonValue>
  /** What was changed, e.g. `"days": "3" → 3`, `renamed "city_name" → "city"`. */
  coercions: string[]
  /** Non-fatal notes, e.g. `dropped unknown argument "foo"`. */
  warnings: string[]
  /** Why the call cannot run, phrased for the model. Empty when it can. */
  problems: string[]
  /** `coercions`, `warnings` and `problems` as phrases of `VALIDATION_TEXT`, index for index. */
  phrases: { coercions: Phrase[]; warnings: Phrase[]; problems: Phrase[] }
}

function properties(schema: JsonSchema): Record<string, JsonSchema> | undefined {
  const props = schema.properties
  return isJsonObject(props) ? (props as Record<string, JsonSchema>) : undefined
}

/** The types a schema allows, its `anyOf`/`oneOf` variants' included (in order). Iterative: variants may nest to any depth. */
function types(schema: JsonSchema | undefined): string[] {
  const out: string[] = []
  const pending: JsonSchema[] = schema ? [schema] : []
  while (pending.length > 0) {
    const current = pending.pop()!
    if (Array.isArray(current.type)) out.push(...current.type.filter((t): t is string => typeof t === 'string'))
    else if (typeof current.type === 'string') out.push(current.type)
    const variants = [...(Array.isArray(current.anyOf) ? current.anyOf : []), ...(Array.isArray(current.oneOf) ? current.oneOf : [])]
    // Last first, so the first variant is read next (the order the recursive form had).
    for (let index = variants.length - 1; index >= 0; index--) {
      const variant: unknown = variants[index]
      if (typeof variant === 'object' && variant !== null) pending.push(variant as JsonSchema)
    }
  }
  return out
}

/** A safe coercion of `value` to what `schema` wants, or `undefined` when none applies. */
function coerce(value: JsonValue, schema: JsonSchema | undefined): { value: JsonValue } | undefined {
  const wanted = types(schema)
  if (typeof value !== 'string' || wanted.length === 0 || wanted.includes('string')) return undefined
  const text = value.trim()
  if ((wanted.includes('integer') || wanted.includes('number')) && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)) {
    const number = Number(text)
    if (Number.isFinite(number) && (wanted.includes('number') || Number.isInteger(number))) return { value: number }
  }
  if (wanted.includes('boolean') && (text === 'true' || text === 'false')) return { value: text === 'true' }
  if (wanted.includes('null') && text === 'null') return { value: null }
  if ((wanted.includes('object') && text.startsWith('{')) || (wanted.includes('array') && text.startsWith('['))) {
    try {
      const parsed = JSON.parse(text) as JsonValue
      if (typeof parsed === 'object' && parsed !== null) return { value: parsed }
    } catch {
      return undefined
    }
  }
  return undefined
}

/** Applies the policy to one call's arguments. Pure; never throws. */
export function prepareArguments(spec: ToolSpec, input: Record<string, JsonValue>, policy: ArgumentPolicy): PreparedArguments {
  const coercions: Phrase[] = []
  const warnings: Phrase[] = []
  const problems: Phrase[] = []
  const args: Record<string, JsonValue> = {}
  const declared = properties(spec.inputSchema)
  for (const [key, value] of Object.entries(input)) {
    const target = spec.argumentAliases && Object.hasOwn(spec.argumentAliases, key) ? spec.argumentAliases[key]! : key
    if (target !== key) {
      if (Object.hasOwn(input, target)) {
        warnings.push(say('droppedBoth', { key, target }))
        continue
      }
      coercions.push(say('renamed', { key, target }))
    }
    setMember(args, target, value)
  }
  if (declared) {
    for (const key of Object.keys(args)) {
      if (Object.hasOwn(declared, key)) continue
      const expected = Object.keys(declared).join(', ')
      if (policy.unknownArguments === 'reject') problems.push(expected ? say('unknownArgumentExpected', { key, expected }) : say('unknownArgumentNoneExpected', { key }))
      else warnings.push(say('droppedUnknown', { key }))
      delete args[key]
    }
    if (policy.coerce) {
      for (const [key, value] of Object.entries(args)) {
        const coerced = coerce(value, declared[key])
        if (coerced) {
          coercions.push(say('coerced', { key, from: JSON.stringify(value), to: JSON.stringify(coerced.value) }))
          setMember(args, key, coerced.value)
        }
      }
    }
  }
  if (problems.length === 0) problems.push(...argumentProblems(spec, args))
  return {
    arguments: args,
    coercions: coercions.map(validationMessage),
    warnings: warnings.map(validationMessage),
    problems: problems.map(validationMessage),
    phrases: { coercions, warnings, problems },
  }
}
