import { describe, expect, it } from 'vitest'
import type { JsonValue } from '../messages'
import { isWideJson, OP, readJsonParts, toJsonParts } from './json-parts'

const roundTrip = (value: JsonValue, opsPerPart: number): JsonValue => {
  const reader = readJsonParts()
  // Each part crosses as a structured clone would carry it.
  for (const part of toJsonParts(value, opsPerPart)) reader.feed(structuredClone(part))
  return reader.value()
}

describe('json parts', () => {
  it('rebuilds any JSON value from parts of any size, key order and "__proto__" members included', () => {
    const proto = JSON.parse('{"__proto__": {"polluted": true}, "b": [1, "two", null, false, {"c": []}], "a": {}}') as JsonValue
    const values: JsonValue[] = [7, 'text', null, true, [], {}, [[[]]], { z: 1, a: [{ k: 0 }, { k: 1 }] }, proto, Array.from({ length: 1000 }, (_, k) => ({ k, s: `v${k}` }))]
    for (const value of values) {
      for (const size of [1, 2, 3, 7, 64, 65_536]) {
        const back = roundTrip(value, size)
        expect(back).toEqual(value)
        expect(JSON.stringify(back)).toBe(JSON.stringify(value))
      }
    }
    const back = roundTrip(proto, 5) as Record<string, unknown>
    expect(Object.keys(back)).toEqual(['__proto__', 'b', 'a'])
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('cuts a wide value into parts of the given number of operations', () => {
    const wide = { a: Array.from({ length: 10_000 }, (_, k) => ({ k })) }
    const parts = toJsonParts(wide, 4096)
    // {, key a, [, then 4 operations per object, ], }.
    expect(parts.reduce((sum, part) => sum + part.ops.length, 0)).toBe(5 + 4 * 10_000)
    expect(parts.slice(0, -1).every((part) => part.ops.length === 4096)).toBe(true)
    expect(parts[0]!.ops[0]).toBe(OP.openObject)
  })

  it('cuts strings of megabytes (values and keys) into chunks, so no part carries more than its share', () => {
    const long = 'é'.repeat(2_500_001)
    const value: JsonValue = { [long]: [long, 'short', { k: long }], n: 1 }
    const parts = toJsonParts(value, 65_536, 1_000_000)
    expect(Math.max(...parts.map((part) => part.values.reduce((sum: number, item) => sum + (typeof item === 'string' ? item.length : 0), 0)))).toBeLessThanOrEqual(2_000_000)
    expect(parts.length).toBeGreaterThanOrEqual(7)
    const reader = readJsonParts()
    for (const part of parts) reader.feed(structuredClone(part))
    expect(reader.value()).toEqual(value)
    // A string cut in chunks is not complete until its end came.
    const cut = readJsonParts()
    cut.feed(toJsonParts(long, 65_536, 1_000_000)[0]!)
    expect(() => cut.value()).toThrow(/not complete/)
  })

  it('walks values nested far deeper than the stack allows, both ways', () => {
    let deep: JsonValue = 1
    for (let level = 0; level < 100_000; level++) deep = [deep]
    let back = roundTrip(deep, 10_000)
    for (let level = 0; level < 100_000; level++) back = (back as JsonValue[])[0]!
    expect(back).toBe(1)
  })

  it('refuses parts that are missing or not those of one value', () => {
    const parts = toJsonParts({ a: [1, 2, 3] }, 3)
    const missing = readJsonParts()
    missing.feed(parts[0]!)
    expect(() => missing.value()).toThrow(/not complete/)
    const twice = readJsonParts()
    for (const part of [...parts, ...parts]) {
      try {
        twice.feed(part)
      } catch (error) {
        expect(String(error)).toMatch(/more than one value/)
        return
      }
    }
    throw new Error('a second value was taken')
  })

  it('tells wide values from small ones, by nodes or chars of strings, counting no further than the bound', () => {
    expect(isWideJson({ a: Array.from({ length: 50 }, (_, k) => k) }, 100)).toBe(false)
    expect(isWideJson({ a: Array.from({ length: 200 }, (_, k) => ({ k })) }, 100)).toBe(true)
    expect(isWideJson({ text: 'x'.repeat(990) }, 100, 1000)).toBe(false)
    expect(isWideJson({ text: 'x'.repeat(1000) }, 100, 1000)).toBe(true)
    expect(isWideJson({ ['k'.repeat(600)]: 'v'.repeat(400) }, 100, 1000)).toBe(true)
  })
})
