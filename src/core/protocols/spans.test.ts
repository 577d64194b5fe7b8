import { describe, expect, it } from 'vitest'
import { readJson } from '../json'
import { fixtureCases, protocolOf } from '../../test/fixture-cases'
import { getProtocol } from './index'
import type { ParsedCall, Span } from './types'

const slice = (raw: string, span: Span | undefined) => (span ? raw.slice(span.start, span.end) : undefined)

/** Reads the arguments slice back: an object as written, or the content of a JSON string (native formats). */
function argumentsAt(raw: string, call: ParsedCall) {
  const text = slice(raw, call.spans.arguments) ?? ''
  const direct = readJson(text)
  if (direct.ok && direct.end === text.length && typeof direct.value === 'object') return direct.value
  let decoded: unknown = JSON.parse(`"${text}"`)
  while (typeof decoded === 'string') {
    const read = readJson(decoded)
    decoded = decoded.trim() === '' ? {} : read.ok ? read.value : undefined
  }
  return decoded
}

function within(outer: Span, inner: Span | undefined) {
  if (!inner) return
  expect(inner.start).toBeGreaterThanOrEqual(outer.start)
  expect(inner.end).toBeLessThanOrEqual(outer.end)
}

const cases = fixtureCases.filter((testCase) => protocolOf(testCase) !== undefined && !testCase.expect_error)

describe('spans', () => {
  it.each(cases.map((testCase) => [testCase.id, testCase] as const))('%s: spans slice the raw text to the name and the arguments', (_id, testCase) => {
    for (const id of [protocolOf(testCase) ?? '', 'auto']) {
      const result = getProtocol(id)?.parse(testCase.raw)
      for (const call of result?.calls ?? []) {
        // Markdown-escaped names (`get\_weather`) are unescaped in the call, not in the raw text.
        expect(slice(testCase.raw, call.spans.name)?.replace(/\\_/g, '_')).toBe(call.name)
        if (Object.keys(call.arguments).length > 0) {
          const text = (slice(testCase.raw, call.spans.arguments) ?? '').replace(/\\_/g, '_')
          // JSON formats read back exactly; key=value formats (pipe, pythonic, XML parameters) name every key.
          if (/^\s*[{"]/.test(text)) expect(argumentsAt(testCase.raw, call)).toEqual(call.arguments)
          else for (const key of Object.keys(call.arguments)) expect(text).toContain(key)
        }
        within(call.spans.call, call.spans.name)
        within(call.spans.call, call.spans.arguments)
      }
    }
  })

  const wide = '用户说：「天気は？」🌦️👨‍👩‍👧 '
  it.each([
    ['json', `${wide}{"tool": "天气_查询", "arguments": {"城市": "東京 🗼", "n": 1}} 🎉`],
    ['json', `${wide}\`\`\`json\n{"name": "weather", "parameters": {"city": "😀"}}\n\`\`\``],
    ['xml-tag', `${wide}<tool_call>\n{"name": "weather", "arguments": {"city": "北京🏮"}}\n</tool_call>${wide}`],
    ['xml-tag', `${wide}<function=weather>{"city": "🇯🇵"}</function>`],
    ['xml-tag', `${wide}<tool_call>\n<function=weather>\n<parameter=city>\n서울 🌸\n</parameter>\n</function>\n</tool_call>`],
    ['openai', JSON.stringify({ role: 'assistant', content: wide, tool_calls: [{ id: 'c', type: 'function', function: { name: 'weather', arguments: JSON.stringify({ city: '東京🗼' }) } }] })],
  ])('%s: spans stay exact with CJK and emoji around and inside (%#)', (id, raw) => {
    const result = getProtocol(id)?.parse(raw)
    expect(result?.calls).toHaveLength(1)
    for (const call of result?.calls ?? []) {
      expect(slice(raw, call.spans.name)).toBe(call.name)
      const text = slice(raw, call.spans.arguments) ?? ''
      expect(text.length).toBeGreaterThan(0)
      if (id === 'openai') expect(JSON.parse(JSON.parse(`"${text}"`) as string)).toEqual(call.arguments)
      else if (text.startsWith('{')) expect(JSON.parse(text)).toEqual(call.arguments)
      else expect(text).toContain('서울 🌸')
    }
  })

  it('marks the whole call, fence excluded, as the call span', () => {
    const raw = 'Hi 👋\n{"tool": "f", "arguments": {}}\nbye'
    const call = getProtocol('json')?.parse(raw).calls[0]
    expect(slice(raw, call?.spans.call)).toBe('{"tool": "f", "arguments": {}}')
  })
})
