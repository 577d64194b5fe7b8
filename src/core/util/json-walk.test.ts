/**
 * Walks over JSON never recurse on its depth: arguments nested far deeper than any stack still
 * give their stable text, depth and match, and files past the documented limit are refused.
 */
import { describe, expect, it } from 'vitest'
import type { JsonValue } from '../messages'
import { signature } from '../loop/signature'
import { jsonDepth, jsonOf, MAX_FILE_DEPTH, partialJsonMatch, rememberedJson, rememberJson, REMEMBERED_JSON_CHARS, stableJson, tooDeep } from './json-walk'
import { parseJsonText } from './text-file'

/** `{"a":{"a":…{leaf}}}` nested `depth` objects deep. */
function nested(depth: number, leaf: JsonValue = 1): JsonValue {
  let value: JsonValue = leaf
  for (let level = 0; level < depth; level++) value = level % 2 ? { a: value } : [value]
  return value
}

describe('JSON walks without recursion', () => {
  it('stableJson sorts keys like the recursive form and survives 100 000 levels', () => {
    expect(stableJson({ b: [1, { d: null, c: 'x' }], a: true })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}')
    expect(stableJson([])).toBe('[]')
    expect(stableJson({})).toBe('{}')
    expect(stableJson('s"')).toBe('"s\\""')
    const deep = stableJson(nested(100_000))
    expect(deep.length).toBe(2 * 50_000 + 6 * 50_000 + 1)
    expect(deep.startsWith('{"a":[{"a":[')).toBe(true)
    expect(signature('deep', { x: nested(100_000) })).toMatch(/^deep \{"x":\{"a":\[/)
  })

  it('stableJson writes the same text whether or not the keys come sorted', () => {
    // Sorted keys take the engine's writer; each case below leaves it for the walk, same text.
    const cases: [unknown, string][] = [
      [{ a: 1, b: [true, null, 'x'] }, '{"a":1,"b":[true,null,"x"]}'],
      [{ b: 1, a: 2 }, '{"a":2,"b":1}'],
      [{ 10: 'x', 9: 'y' }, '{"10":"x","9":"y"}'],
      [{ a: undefined, b: 1 }, '{"a":null,"b":1}'],
      [[undefined, 1], '[null,1]'],
      [{ a: NaN, b: -0 }, '{"a":null,"b":0}'],
      [{ d: new Date(0) }, '{"d":{}}'],
      [Object.assign(Object.create(null) as object, { b: 1, a: 2 }), '{"a":2,"b":1}'],
      [nested(600), stableJson(nested(600))],
    ]
    for (const [value, text] of cases) expect(stableJson(value as JsonValue)).toBe(text)
  })

  it('signs one wide arguments object once, however often the state is folded', () => {
    // 500 000 small objects in one call's arguments: the page folds a run several times, and
    // each fold used to write the whole value again (long tasks of 1–2 s on the main thread).
    let reads = 0
    const wide = new Proxy(Array.from({ length: 1000 }, (_, k) => ({ k })), {
      get(target, key, receiver) {
        reads++
        return Reflect.get(target, key, receiver) as unknown
      },
    })
    const args = { a: wide as JsonValue }
    const first = signature('take', args)
    const once = reads
    expect(once).toBeGreaterThan(1000)
    for (let fold = 0; fold < 5; fold++) expect(signature('take', args)).toBe(first)
    expect(reads).toBe(once)
    expect(signature('other', args)).toBe(first.replace(/^take/, 'other'))
    expect(reads).toBe(once)
  })

  it('jsonOf writes JSON.stringify\'s text and remembers it for long values only; stableJson of ordered keys shares it', () => {
    const small = { b: 1, a: [true, null, 'x'] }
    expect(jsonOf(small)).toBe(JSON.stringify(small))
    expect(rememberedJson(small)).toBeUndefined()
    const big = { items: Array.from({ length: 20_000 }, (_, k) => ({ k, v: 'é\u2028' })) }
    const text = jsonOf(big)
    expect(text).toBe(JSON.stringify(big))
    expect(text.length).toBeGreaterThanOrEqual(REMEMBERED_JSON_CHARS)
    expect(rememberedJson(big)).toBe(text)
    expect(stableJson(big)).toBe(text)
  })

  it('jsonDepth counts levels and stops past the limit', () => {
    expect(jsonDepth(1)).toBe(0)
    expect(jsonDepth({ a: [1, { b: {} }] })).toBe(4)
    expect(jsonDepth(nested(100_000))).toBe(100_000)
    expect(jsonDepth(nested(100_000), 512)).toBe(513)
    expect(tooDeep(nested(512))).toBeUndefined()
    expect(tooDeep(nested(513))).toBe('nested deeper than 512 levels')
  })

  it('partialJsonMatch compares deeply nested values', () => {
    expect(partialJsonMatch({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 })).toBe(true)
    expect(partialJsonMatch({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false)
    expect(partialJsonMatch({ toString: 1 }, {})).toBe(false)
    expect(partialJsonMatch(nested(50_000), nested(50_000))).toBe(true)
    expect(partialJsonMatch(nested(50_000, 1), nested(50_000, 2))).toBe(false)
  })

  it('a JSON file nested deeper than the limit is refused with a message naming it', () => {
    const text = JSON.stringify(nested(MAX_FILE_DEPTH + 1))
    expect(parseJsonText(text)).toEqual({ ok: false, error: `The JSON nests deeper than ${MAX_FILE_DEPTH} levels (objects and arrays inside one another), more than Toolstep reads.`, errorPhrase: { key: 'fileTooDeep', params: { max: MAX_FILE_DEPTH } } })
    expect(parseJsonText(JSON.stringify(nested(MAX_FILE_DEPTH))).ok).toBe(true)
  })
})

describe('remembered JSON text', () => {
  it('takes text written elsewhere for either writer, or both', () => {
    const inOrder = { a: Array.from({ length: 10_000 }, (_, k) => ({ k })) }
    const written = JSON.stringify(inOrder)
    rememberJson(inOrder, written, 'both')
    expect(jsonOf(inOrder)).toBe(written)
    expect(stableJson(inOrder)).toBe(written)
    const unordered = { z: 1, a: Array.from({ length: 10_000 }, (_, k) => ({ k })) }
    const json = JSON.stringify(unordered)
    rememberJson(unordered, json, 'json')
    expect(jsonOf(unordered)).toBe(json)
    expect(stableJson(unordered).startsWith('{"a":[')).toBe(true)
    // The stable text given is the one used: nothing is walked again.
    const other = { z: 1, a: Array.from({ length: 10_000 }, (_, k) => ({ k })) }
    const stable = `{"a":${JSON.stringify(other.a)},"z":1}`
    rememberJson(other, stable, 'stable')
    expect(stableJson(other)).toBe(stable)
    expect(rememberedJson(other)).toBeUndefined()
    // Short text is not kept: writing it again costs nothing.
    const small = { b: 1 }
    rememberJson(small, '{"b":1}', 'both')
    expect(rememberedJson(small)).toBeUndefined()
    expect(written.length).toBeGreaterThan(REMEMBERED_JSON_CHARS)
  })
})
