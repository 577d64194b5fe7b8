import { describe, expect, it } from 'vitest'
import { readJson, type JsonReadResult } from './read-json'

function value(result: JsonReadResult) {
  if (!result.ok) throw new Error(`expected a value, got ${result.error.code}: ${result.error.message}`)
  return result.value
}

function codes(result: JsonReadResult) {
  return result.repairs.map((repair) => repair.code)
}

describe('readJson', () => {
  it('reads strict JSON like JSON.parse, with no repairs', () => {
    const text = '{"a": [1, -2.5e3, true, false, null], "b": {"c": "d\\n\\u00e9\\"\\\\"}, "e": []}'
    const result = readJson(text)
    expect(value(result)).toEqual(JSON.parse(text))
    expect(result.repairs).toEqual([])
    expect(result.end).toBe(text.length)
  })

  it('stops right after the value and skips leading whitespace', () => {
    const result = readJson('  {"a": 1} and prose {"b": 2}', 0)
    expect(result).toMatchObject({ ok: true, start: 2, end: 10, value: { a: 1 } })
    expect(readJson('xx{"b": 2}', 2)).toMatchObject({ ok: true, start: 2, end: 10 })
  })

  it.each([
    ["{'name': 'x', 'ok': True, 'v': None, 'f': False}", { name: 'x', ok: true, v: null, f: false }, ['single_quotes', 'python_literal']],
    ['{"a": 1, "b": [1, 2,],}', { a: 1, b: [1, 2] }, ['trailing_comma']],
    ['{city: "Paris", max_days: 3}', { city: 'Paris', max_days: 3 }, ['unquoted_key']],
    ['{"body": "line one\nline two"}', { body: 'line one\nline two' }, ['unescaped_newline']],
    ['{"re": "\\d+\\s"}', { re: '\\d+\\s' }, ['invalid_escape']],
    ['{"a": 1 "b": 2}', { a: 1, b: 2 }, ['missing_comma']],
    ['{"a": "x", "b": {"c": [1, "y"]', { a: 'x', b: { c: [1, 'y'] } }, ['missing_closer']],
    ["{'msg': 'it\\'s \"quoted\"'}", { msg: 'it\'s "quoted"' }, ['single_quotes']],
  ])('repairs %s', (text, expected, expectedCodes) => {
    const result = readJson(text)
    expect(value(result)).toEqual(expected)
    expect(codes(result)).toEqual(expectedCodes)
  })

  it('names the repair once per code, with the first place as its span', () => {
    const result = readJson("{'a': 'b', 'c': 'd'}")
    expect(result.repairs).toHaveLength(1)
    expect(result.repairs[0]).toMatchObject({ code: 'single_quotes', span: { start: 1, end: 4 } })
    expect(result.repairs[0]?.message).toContain('4 places')
  })

  it('treats output cut inside a string as truncated, never as a shorter value', () => {
    const result = readJson('{"file": "a.md", "content": "## Summary\\nThe numbers for Q3 were')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('truncated')
    expect(result.error.message).toContain('string that starts at offset 28')
    expect(result.error.message).toContain('expected a closing "')
    expect(result.partial).toEqual({ file: 'a.md', content: '## Summary\nThe numbers for Q3 were' })
  })

  it.each([
    ['{"a": ', 'value of "a"'],
    ['{"a": 1,', "after ','"],
    ['{"a"', "expected ':'"],
    ['{"a": 12', 'number'],
    ['{"a": tr', "'tr'"],
    ['{', "'{'"],
    ['[', "'['"],
    ['', 'JSON value'],
    ['{"a": "b\\', 'escape'],
    ['{"a": "\\u00', '\\u'],
  ])('reports %j as truncated (%s)', (text, fragment) => {
    const result = readJson(text)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('truncated')
    expect(result.error.message).toContain(fragment)
    expect(result.error.offset).toBe(text.length)
  })

  it.each([
    ['{"a": 1]', "',' or '}'", 7],
    ['{"a" 1}', "':'", 5],
    ['{"a": hello}', "'hello'", 6],
    ['[1, 2}', "',' or ']'", 5],
    ['{"a": -x}', 'digit', 7],
    ['{@}', 'property name', 1],
  ])('reports %j as invalid, naming the character and what was expected', (text, fragment, offset) => {
    const result = readJson(text)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('invalid_json')
    expect(result.error.message).toContain(fragment)
    expect(result.error.offset).toBe(offset)
  })

  it.each([
    // A valid escaped prefix, then what the careful reader takes over for.
    ['{"a": "x\\u00e9\\n\\"y\\\\"}', { a: 'x\u00e9\n"y\\' }, []],
    ['{"a": "\\ud83d\\ude00 \\uD800"}', { a: '\ud83d\ude00 \ud800' }, []],
    ['{"a": "tab\\t then \\d"}', { a: 'tab\t then \\d' }, ['invalid_escape']],
    ['{"a": "\\n then \\u00zz"}', { a: '\n then \\u00zz' }, ['invalid_escape']],
    ['{"a": "\\n then \\\' q"}', { a: "\n then ' q" }, ['invalid_escape']],
    ['{"a": "\\n then\nnewline"}', { a: '\n then\nnewline' }, ['unescaped_newline']],
    ['{"a": "\\n then \u0001"}', { a: '\n then \u0001' }, ['control_character']],
    ['{"a": "\\u001\u0010"}', { a: '\\u001\u0010' }, ['invalid_escape', 'control_character']],
  ])('decodes escapes in %j like JSON and hands what follows to the repairs', (text, expected, expectedCodes) => {
    const result = readJson(text)
    expect(value(result)).toEqual(expected)
    expect(codes(result)).toEqual(expectedCodes)
  })

  it('keeps what a cut string decoded, escapes included', () => {
    const backslashes = '\\\\'.repeat(500)
    for (const [tail, fragment] of [['', 'closing'], ['\\', 'escape'], ['\\u00', '\\u']] as const) {
      const result = readJson(`{"a": "\\n${backslashes}${tail}`)
      expect(result.ok).toBe(false)
      if (result.ok) continue
      expect(result.error.message).toContain(fragment)
      expect(result.partial).toEqual({ a: `\n${'\\'.repeat(500)}` })
    }
  })

  it('keeps __proto__ as an own key without touching the prototype', () => {
    const result = value(readJson('{"__proto__": {"polluted": true}}')) as Record<string, unknown>
    expect(Object.keys(result)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('records spans down to the requested depth', () => {
    const text = '{"name": "f", "arguments": {"x": [1, 2]}}'
    const result = readJson(text, 0, { spanDepth: 2 })
    if (!result.ok) throw new Error('expected a value')
    const [name, args] = result.spans.members ?? []
    expect(text.slice(name?.keySpan.start, name?.keySpan.end)).toBe('"name"')
    expect(text.slice(name?.value.span.start, name?.value.span.end)).toBe('"f"')
    expect(text.slice(args?.value.span.start, args?.value.span.end)).toBe('{"x": [1, 2]}')
    const x = args?.value.members?.[0]
    expect(text.slice(x?.value.span.start, x?.value.span.end)).toBe('[1, 2]')
    expect(x?.value.items).toBeUndefined()
  })

  it('gives spans that close at the end when closers were supplied', () => {
    const text = '{"name": "f", "arguments": {"x": "y"'
    const result = readJson(text, 0, { spanDepth: 1 })
    if (!result.ok) throw new Error('expected a value')
    expect(result.spans.span).toEqual({ start: 0, end: text.length })
    expect(result.spans.members?.[1]?.value.span).toEqual({ start: 27, end: text.length })
  })

  it('survives deep nesting without recursion and limits it', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const result = readJson(deep)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('too_deep')
    expect(readJson(deep, 0, { maxDepth: 200_000 }).ok).toBe(true)
  })

  it('reads a long string and many members (its speed is in npm run bench parse)', () => {
    const big = JSON.stringify({ text: 'x'.repeat(2_000_000), list: Array.from({ length: 500 }, (_, index) => ({ index })) })
    const result = readJson(big)
    expect(result.ok).toBe(true)
  })
})
