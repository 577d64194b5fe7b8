import { describe, expect, it } from 'vitest'
import { fuzzSeeds, mutate, seededRandom } from '../../test/fuzz-inputs'
import { readJson, readJsonDeferred, readJsonLenient } from './read-json'
import { readStrictJson } from './read-strict'

const valid = [
  '{}',
  '[]',
  '{ \n }',
  '[\t] tail',
  '[{}, [], {"a": {}}]',
  '{"a": 1}',
  ' [1, -2.5e+3, 0, 0.25, true, false, null, "x"] tail',
  '{"tool": "get_weather", "arguments": {"city": "Z\\u00fcrich \\"quoted\\" \\\\ \\n", "days": [1, 2, {"deep": {"deeper": [[]]}}]}}',
  '{"__proto__": {"polluted": true}, "k\\"ey": "v", "dup": 1, "dup": 2}',
  '{\n  "pretty": [\n    1,\n    2\n  ],\n  "emoji": "😀 東京 \\ud83d\\ude00"\n}',
  `[${'{"a": [1, {"b": "c"}]},'.repeat(50)} {}]`,
]

const notStrict = ['{"a": 01}', "{'a': 1}", '{"a": 1,}', '{a: 1}', '{"a": True}', '{"a": "x\ny"}', '{"a": "\\d"}', '{"a": 1', '{"a": 1 "b": 2}', '{"a": 1.}', '{"a": -}', '[1', '{"a": "\\u12"}']

describe('readStrictJson (the fast path of readJson)', () => {
  it('reads strict JSON exactly as the lenient reader does, spans included', () => {
    for (const text of valid) {
      for (const spanDepth of [0, 1, 2, 3, 5]) {
        const start = text.indexOf(text.trimStart()[0] ?? '')
        const strict = readStrictJson(text, start, spanDepth, 512)
        expect(strict, text).toBeDefined()
        const lenient = readJsonLenient(text, 0, { spanDepth })
        expect(strict, text).toEqual(lenient)
        // Key order too (toEqual ignores it), and __proto__ kept as an own key.
        if (strict && lenient.ok) expect(JSON.stringify(strict.value)).toBe(JSON.stringify(lenient.value))
      }
    }
  })

  it('declines everything that needs a repair or fails, leaving it to the lenient reader', () => {
    for (const text of notStrict) expect(readStrictJson(text, 0, 1, 512), text).toBeUndefined()
    expect(readStrictJson('[[[[1]]]]', 0, 0, 3)).toBeUndefined()
  })

  it('declines a fault below the span depth too, where only brackets and quotes are scanned', () => {
    const deepFaults = ['{"a": {"b": [1}}', '{"a": {"b": [1, 2,]}}', '{"a": {"b": "x\\"}}', '{"a": {"b": {"c": 01}}}', '{"a": {"b": [[1]]]}', '{"a": {"b": ["x\ny"]}}', '{"a": {"b": [1]}']
    for (const text of deepFaults) for (const spanDepth of [0, 1]) expect(readStrictJson(text, 0, spanDepth, 512), `${text} (span depth ${spanDepth})`).toBeUndefined()
    // The depth limit holds below the span depth as well.
    expect(readStrictJson('{"a": [[[1]]]}', 0, 0, 4)).toBeDefined()
    expect(readStrictJson('{"a": [[[[1]]]]}', 0, 0, 4)).toBeUndefined()
  })

  it('agrees with the lenient reader on mutated fixtures', () => {
    const next = seededRandom(99)
    let strictCount = 0
    for (let index = 0; index < 3000; index++) {
      let text = fuzzSeeds[index % fuzzSeeds.length] ?? ''
      if (index >= fuzzSeeds.length) text = mutate(text, next)
      for (let at = text.indexOf('{'); at >= 0 && at < text.length; at = text.indexOf('{', at + 1)) {
        const fast = readJson(text, at, { spanDepth: 3 })
        const lenient = readJsonLenient(text, at, { spanDepth: 3 })
        if (readStrictJson(text, at, 3, 512)) strictCount++
        expect(fast, `${JSON.stringify(text)} at ${at}`).toEqual(lenient)
      }
    }
    expect(strictCount).toBeGreaterThan(500)
  })
})

describe('readJsonDeferred (readJson with failures rendered on demand)', () => {
  it('reads what readJson reads, and renders each failure exactly as readJson returns it, once', () => {
    const next = seededRandom(7)
    let failures = 0
    for (let index = 0; index < 2000; index++) {
      let text = fuzzSeeds[index % fuzzSeeds.length] ?? ''
      if (index >= fuzzSeeds.length) text = mutate(text, next)
      const starts = [...text.matchAll(/[[{]/g)].map((match) => match.index)
      for (const at of starts) {
        const eager = readJson(text, at, { spanDepth: 3 })
        const deferred = readJsonDeferred(text, at, { spanDepth: 3 })
        if (deferred.ok) {
          expect(deferred, `${JSON.stringify(text)} at ${at}`).toEqual(eager)
          continue
        }
        failures++
        const rendered = deferred.render()
        expect(rendered, `${JSON.stringify(text)} at ${at}`).toEqual(eager)
        expect({ code: deferred.code, offset: deferred.offset }).toEqual({ code: rendered.error.code, offset: rendered.error.offset })
        expect(deferred.render()).toBe(rendered)
      }
    }
    expect(failures).toBeGreaterThan(500)
  })
})
