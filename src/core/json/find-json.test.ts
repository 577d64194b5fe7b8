import { describe, expect, it } from 'vitest'
import { findJsonValues, scanJsonValues } from './find-json'
import { fuzzSeeds, mutate, seededRandom } from '../../test/fuzz-inputs'

describe('findJsonValues', () => {
  it('finds top-level objects in prose and skips braces inside their strings', () => {
    const text = 'Before {"t": "a } b { c", "n": {"x": 1}} middle {"y": 2} after'
    const found = findJsonValues(text)
    expect(found.values.map((value) => value.value)).toEqual([{ t: 'a } b { c', n: { x: 1 } }, { y: 2 }])
    expect(text.slice(found.values[1]?.start, found.values[1]?.end)).toBe('{"y": 2}')
    expect(found.truncated).toBeUndefined()
  })

  it('ignores prose braces that are not JSON', () => {
    const found = findJsonValues('Use {name} or {{x}} here, then {"a": 1}.')
    expect(found.values.map((value) => value.value)).toEqual([{ a: 1 }])
  })

  it('reads arrays unless told not to', () => {
    expect(findJsonValues('see [1, 2]').values).toHaveLength(1)
    expect(findJsonValues('see [1, 2]', { arrays: false }).values).toHaveLength(0)
  })

  it('reports a value cut off by the end of the text', () => {
    const found = findJsonValues('Calling {"tool": "save", "arguments": {"body": "half')
    expect(found.values).toEqual([])
    expect(found.truncated?.start).toBe(8)
    expect(found.truncated?.partial).toEqual({ tool: 'save', arguments: { body: 'half' } })
  })

  it('does not let an apostrophe in prose swallow a real value', () => {
    const found = findJsonValues("It's {'a': 'b} and {\"tool\": \"x\"}")
    expect(found.values.map((value) => value.value)).toEqual([{ tool: 'x' }])
    expect(found.truncated).toBeUndefined()
  })

  it('finds nothing in many unclosed braces (its speed is in npm run bench parse)', () => {
    const text = '{"a": '.repeat(20_000)
    const found = findJsonValues(text)
    expect(found.values).toEqual([])
  })
})

describe('findJsonValues on hostile input', () => {
  it('knows without reading when an opener cannot start a value', async () => {
    const { mayStartValue } = await import('./find-json')
    for (const text of ['{{', '{"a"{', "{'a' x", '{a b', '[TOOL_CALLS]', '[a(', '[[{{']) expect(mayStartValue(text, 0), text).toBe(false)
    for (const text of ['{"a":', '{ a : 1', '{}', '{', '[1', '[true', '[tr', '[{"a": 1}]', '["x"', '[]', "{'k': 1"]) expect(mayStartValue(text, 0), text).toBe(true)
  })

  it('finds exactly what a read at every opener finds, on mutated and repeated inputs', async () => {
    const { readJson } = await import('./read-json')
    const { createFuzzer } = await import('../../test/fuzz-inputs')
    // The definition: try every opener, resume after a value or where a failed read stopped.
    const reference = (text: string) => {
      const values: { start: number; end: number }[] = []
      let pos = 0
      let retries = 0
      while (pos < text.length) {
        const code = text.charCodeAt(pos)
        if (code !== 0x7b && code !== 0x5b) {
          pos++
          continue
        }
        const read = readJson(text, pos)
        if (read.ok) {
          values.push({ start: read.start, end: read.end })
          pos = read.end
        } else if (read.error.code === 'truncated') {
          if (++retries > 8) break
          pos++
        } else pos = Math.max(pos + 1, read.error.offset)
      }
      return values
    }
    const next = createFuzzer(7)
    const inputs = ['{{"tool": "a", "arguments": {}}', '{"{"{"{"x": 1}', "[{'a': [1, {b: None}]}, [TOOL_CALLS]]", '[[[[1]]]] {"a" {"b": 2}']
    for (let index = 0; index < 3000; index++) inputs.push(next())
    // Skipping a certain failure resumes where the failed read would have: the same values.
    for (const text of inputs) expect(findJsonValues(text).values.map((value) => ({ start: value.start, end: value.end })), text).toEqual(reference(text))
  })

  it('hands values to scanJsonValues\' callback in order, with the rest of what findJsonValues returns', () => {
    const next = seededRandom(11)
    for (let index = 0; index < 1500; index++) {
      let text = fuzzSeeds[index % fuzzSeeds.length] ?? ''
      if (index >= fuzzSeeds.length) text = mutate(text, next)
      const values: unknown[] = []
      const rest = scanJsonValues(text, { spanDepth: 3 }, (value) => values.push(value))
      expect({ values, ...rest }, JSON.stringify(text)).toEqual(findJsonValues(text, { spanDepth: 3 }))
    }
  })
})

describe('certainFailureAt, thorough (once the failures to list are listed)', () => {
  it('rules out only reads that fail, resuming where the failed read stops (numbers and tuples too)', async () => {
    const { certainFailureAt } = await import('./find-json')
    const { readJson } = await import('./read-json')
    const pieces = ['[', '(', '{', '-', '1', '0', '.', 'e', 'E', '+', ',', ' ', ']', ')', 'x', '"a"', ':', 'tr', 'true', '[-', '1e', '1.']
    const next = seededRandom(31)
    let ruledOut = 0
    for (let index = 0; index < 20_000; index++) {
      let text = '['
      const count = 1 + Math.floor(next() * 8)
      for (let piece = 0; piece < count; piece++) text += pieces[Math.floor(next() * pieces.length)] ?? ''
      const failsAt = certainFailureAt(text, 0, true)
      if (failsAt < 0) continue
      ruledOut++
      const read = readJson(text, 0)
      expect(read.ok, JSON.stringify(text)).toBe(false)
      if (read.ok) continue
      expect(read.error.code, JSON.stringify(text)).toBe('invalid_json')
      expect(Math.max(1, failsAt), JSON.stringify(text)).toBe(Math.max(1, read.error.offset))
    }
    expect(ruledOut).toBeGreaterThan(2000)
  })
})
