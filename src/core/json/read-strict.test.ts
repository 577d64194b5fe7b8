import { describe, expect, it } from 'vitest'
import { fuzzSeeds, mutate, seededRandom } from '../../test/fuzz-inputs'
import { readJson, readJsonDeferred, readJsonLenient } from './read-json'
import { KEYLESS_CUT, NOT_KEYLESS, keylessEnd, readStrictJson } from './read-strict'

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

describe('keylessEnd (values a caller looking for calls passes over unbuilt)', () => {
  // Random texts over the characters keyless values are made of, and the ones that stop them.
  const alphabet = ['[', ']', '{', '}', ',', ' ', '\n', '1', '0', '-', '.', 'e', '2', 'true', 'nul', 'null', 'f', 'false', 'True', '"a"', '"', '\\', '\\u00e9', '\\u12', '\\n', '\\x', ':', "'", '(', '\u0001']

  it('accepts only what readJson reads, with the same end, and says when the text cut it', () => {
    const next = seededRandom(2024)
    let accepted = 0
    let cut = 0
    for (let index = 0; index < 20_000; index++) {
      let text = next() < 0.5 ? '[' : '{'
      const pieces = 1 + Math.floor(next() * 12)
      for (let piece = 0; piece < pieces; piece++) text += alphabet[Math.floor(next() * alphabet.length)] ?? ''
      const end = keylessEnd(text, 0, 512)
      const read = readJson(text, 0)
      if (end >= 0) {
        accepted++
        expect(read.ok && read.end, JSON.stringify(text)).toBe(end)
        expect(readStrictJson(text, 0, 3, 512)?.end, JSON.stringify(text)).toBe(end)
        continue
      }
      if (end === KEYLESS_CUT) {
        cut++
        // Cut: the text so far is the start of a keyless value; some ending completes it.
        const completions = [']', '}', '1]', '"]', 'e]', '0]', 'ue]', 'l]', 'se]', 'alse]', 'rue]', 'ull]', '0e9]', '0"]']
        expect(completions.some((tail) => readJson(text + tail + ']'.repeat(16), 0).ok), JSON.stringify(text)).toBe(true)
      } else {
        expect(end, JSON.stringify(text)).toBe(NOT_KEYLESS)
      }
    }
    expect(accepted).toBeGreaterThan(500)
    expect(cut).toBeGreaterThan(500)
  })

  it('takes no object with a member, nothing strict JSON refuses, and keeps to the depth limit', () => {
    for (const text of ['{"a": 1}', '[{"a": 1}]', '[01]', '[1.]', '["\\x"]', '["\\u12"]', '["a\nb"]', "['a']", '[True]', '[1,]', '[(1)]']) {
      expect(keylessEnd(text, 0, 512), text).toBe(NOT_KEYLESS)
    }
    for (const text of ['[1', '[1.', '[1e', '[tr', '["a', '["\\u00', '[[]', '[-']) expect(keylessEnd(text, 0, 512), text).toBe(KEYLESS_CUT)
    const mixed = '[["a", -0.5e+3, true, null, {}], [], "\\u00e9\\"\\\\"]x'
    expect(keylessEnd(mixed, 0, 512)).toBe(mixed.length - 1)
    expect(keylessEnd(`${'['.repeat(512)}${']'.repeat(512)}`, 0, 512)).toBe(1024)
    expect(keylessEnd(`${'['.repeat(513)}${']'.repeat(513)}`, 0, 512)).toBe(NOT_KEYLESS)
  })
})
