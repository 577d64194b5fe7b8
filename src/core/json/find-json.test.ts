import { describe, expect, it } from 'vitest'
import { findJsonValues } from './find-json'

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

  it('stays linear on many unclosed braces', () => {
    const text = '{"a": '.repeat(20_000)
    const started = performance.now()
    const found = findJsonValues(text)
    expect(found.values).toEqual([])
    expect(performance.now() - started).toBeLessThan(2000)
  })
})
