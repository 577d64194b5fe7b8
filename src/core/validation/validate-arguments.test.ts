import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { JsonValue } from '../messages'
import type { ToolSpec } from '../tools/types'
import airlineTools from '../__fixtures__/tau-bench-airline-tools.json'
import { prepareArguments } from './prepare-arguments'
import { validateArguments } from './validate-arguments'

function spec(inputSchema: ToolSpec['inputSchema'], name = 'get_weather'): ToolSpec {
  return { name, description: '', inputSchema }
}

const weather = spec(
  z.toJSONSchema(
    z.object({
      city: z.string(),
      days: z.number().int().min(1),
      unit: z.enum(['c', 'f']).optional(),
      note: z.string().nullable().optional(),
      stops: z.array(z.object({ code: z.string() })).optional(),
    }),
  ) as ToolSpec['inputSchema'],
)

describe('validateArguments', () => {
  it('accepts valid arguments', () => {
    expect(validateArguments(weather, { city: 'Paris', days: 2, unit: 'c', note: null })).toEqual([])
  })

  it('phrases problems for the model', () => {
    expect(validateArguments(weather, { days: 1.5, unit: 'k', foo: 1 })).toEqual([
      '"city" is required',
      'unknown argument "foo"',
      '"days" must be an integer, got number 1.5',
      '"unit" must be one of: "c", "f"',
    ])
  })

  it('names nested fields by path', () => {
    expect(validateArguments(weather, { city: 'x', days: 1, stops: [{ code: 'A' }, { code: 3, extra: true }, {}] })).toEqual([
      'unknown argument "stops[1].extra"',
      '"stops[1].code" must be a string, got number 3',
      '"stops[2].code" is required',
    ])
  })

  it('folds nullable unions into one sentence', () => {
    const nullable = spec({ type: 'object', properties: { note: { anyOf: [{ type: 'string' }, { type: 'null' }] } } })
    expect(validateArguments(nullable, { note: 3 })).toEqual(['"note" must be a string or null, got number 3'])
    const typeArray = spec({ type: 'object', properties: { note: { type: ['string', 'null'] } } })
    expect(validateArguments(typeArray, { note: 3 })).toEqual(['"note" must be a string or null, got number 3'])
  })

  it('names the type and value received, and says when a string holds the JSON of an object', () => {
    expect(validateArguments(weather, { city: 'Oslo', days: '3' })).toEqual(['"days" must be an integer, got string "3"'])
    expect(validateArguments(weather, { city: 'Oslo', days: true })).toEqual(['"days" must be an integer, got boolean true'])
    expect(validateArguments(weather, { city: null, days: 1 })).toEqual(['"city" must be a string, got null'])
    const search = spec({ type: 'object', properties: { filters: { type: 'object' }, ids: { type: 'array', items: { type: 'integer' } } } })
    expect(validateArguments(search, { filters: '{"year": 2024}' })).toEqual(['"filters" is a JSON-encoded object; send the object itself'])
    expect(validateArguments(search, { ids: ' [1, 2]' })).toEqual(['"ids" is a JSON-encoded array; send the array itself'])
    expect(validateArguments(search, { ids: '{"a": 1}' })).toEqual(['"ids" must be an array, got a JSON-encoded object in a string'])
    expect(validateArguments(search, { filters: ['a'.repeat(60)] })[0]).toMatch(/^"filters" must be an object, got array \["a{30,}…$/)
  })

  it('phrases what coercion could not fix the same way, with the value as received', () => {
    const policy = { unknownArguments: 'drop', coerce: true } as const
    expect(prepareArguments(weather, { city: 'Oslo', days: 'three' }, policy).problems).toEqual(['"days" must be an integer, got string "three"'])
    expect(prepareArguments(weather, { city: 'Oslo', days: '3' }, policy)).toMatchObject({ problems: [], arguments: { days: 3 } })
    const search = spec({ type: 'object', properties: { filters: { type: 'object' } } })
    // A JSON string coercion cannot decode stays a string; the problem names it.
    expect(prepareArguments(search, { filters: '{"year": 2024,}' }, policy).problems).toEqual(['"filters" must be an object, got string "{\\"year\\": 2024,}"'])
    expect(prepareArguments(search, { filters: '{"year": 2024}' }, { ...policy, coerce: false }).problems).toEqual(['"filters" is a JSON-encoded object; send the object itself'])
  })

  it('treats a "__proto__" argument as an unknown argument, never as the prototype of the arguments', () => {
    const input = JSON.parse('{"city": "Oslo", "__proto__": {"days": 3, "polluted": true}}') as Record<string, JsonValue>
    const dropped = prepareArguments(weather, input, { unknownArguments: 'drop', coerce: true })
    expect(Object.getPrototypeOf(dropped.arguments)).toBe(Object.prototype)
    expect(dropped.arguments).toEqual({ city: 'Oslo' })
    expect((dropped.arguments as Record<string, unknown>).polluted).toBeUndefined()
    expect(dropped.warnings.join(' ')).toContain('__proto__')
    const rejected = prepareArguments(weather, input, { unknownArguments: 'reject', coerce: true })
    expect(rejected.problems.join(' ')).toContain('__proto__')
  })

  it('reports numeric and length limits', () => {
    expect(validateArguments(weather, { city: 'x', days: 0 })).toEqual(['"days" must be >= 1'])
    const short = spec({ type: 'object', properties: { code: { type: 'string', minLength: 3, pattern: '^[A-Z]+$' } } })
    expect(validateArguments(short, { code: 'ab' })).toEqual([
      '"code" must be at least 3 characters long',
      '"code" must match the pattern "^[A-Z]+$"',
    ])
  })

  it('accepts draft-07 style OpenAI schemas, declared or not', () => {
    const declared = spec({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } },
      definitions: { unused: { type: 'string' } },
      required: ['pair'],
    })
    expect(validateArguments(declared, { pair: ['a', 1] })).toEqual([])
    expect(validateArguments(declared, { pair: ['a', 'b'] })).toEqual(['"pair[1]" must be a number, got string "b"'])
    const undeclaredTuple = spec({ type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }] } } })
    expect(validateArguments(undeclaredTuple, { pair: [1] })).toEqual(['"pair[0]" must be a string, got number 1'])
  })

  it('validates real tau-bench tool schemas', () => {
    const book = airlineTools.find((tool) => tool.function.name === 'book_reservation')
    expect(book).toBeDefined()
    const bookSpec = spec(book!.function.parameters as ToolSpec['inputSchema'], 'book_reservation')
    const problems = validateArguments(bookSpec, { user_id: 'mia_li_3668', flight_type: 'one way', flights: [{ flight_number: 'HAT136' }] })
    expect(problems).toContain('"origin" is required')
    expect(problems).toContain('"flight_type" must be one of: "one_way", "round_trip"')
    expect(problems).toContain('"flights[0].date" is required')
  })

  it('treats a numeric-looking object key as a key, not an index', () => {
    const keyed = spec({ type: 'object', properties: { map: { type: 'object', additionalProperties: { type: 'number' } } } })
    expect(validateArguments(keyed, { map: { '0': 'x' } })).toEqual(['"map["0"]" must be a number, got string "x"'])
  })

  it('reports a schema that does not compile instead of throwing', () => {
    const broken = spec({ type: 'object', properties: { a: { type: 'no-such-type' } } }, 'broken')
    const problems = validateArguments(broken, {})
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^the input schema of tool "broken" is invalid/)
  })

  it('compiles each schema object once and tolerates shared $id', () => {
    const first = spec({ $id: 'https://example.com/args', type: 'object', required: ['a'] })
    const second = spec({ $id: 'https://example.com/args', type: 'object', required: ['b'] })
    expect(validateArguments(first, {})).toEqual(['"a" is required'])
    expect(validateArguments(second, {})).toEqual(['"b" is required'])
    expect(validateArguments(first, { a: 1 })).toEqual([])
  })

  it('reports a wrong top-level shape against the arguments as a whole', () => {
    const strict = spec({ type: 'object', minProperties: 1 })
    expect(validateArguments(strict, {})).toEqual(['arguments must NOT have fewer than 1 properties'])
  })
})
