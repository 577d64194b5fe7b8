/**
 * Walks over JSON never recurse on its depth: arguments nested far deeper than any stack still
 * give their stable text, depth and match, and files past the documented limit are refused.
 */
import { describe, expect, it } from 'vitest'
import type { JsonValue } from '../messages'
import { signature } from '../loop/signature'
import { jsonDepth, MAX_FILE_DEPTH, partialJsonMatch, stableJson, tooDeep } from './json-walk'
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
