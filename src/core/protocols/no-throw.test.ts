import { describe, expect, it } from 'vitest'
import { fixtureCases } from './fixture-cases'
import { protocols } from './index'
import type { ParseResult } from './types'
import { seededRandom as random } from './fuzz-inputs'


const PIECES = ['{', '}', '[', ']', '"', "'", '\\', ':', ',', '<', '>', '/', '\n', ' ', 'a', '0', '-', 'True', '<tool_call>', '</tool_call>', '<think>', '</think>', '<function=', '```', '東', '😀', '\ud83d', '\u0000']

function mutate(text: string, next: () => number): string {
  const at = Math.floor(next() * (text.length + 1))
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
  switch (Math.floor(next() * 6)) {
    case 0:
      return text.slice(0, at) + pick(PIECES) + text.slice(at)
    case 1:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 4))
    case 2: {
      const end = Math.min(text.length, at + Math.floor(next() * 20))
      return text.slice(0, end) + text.slice(at, end) + text.slice(end)
    }
    case 3:
      return text.slice(0, at)
    case 4:
      return `<tool_call>${text}</tool_call>`
    default:
      return `${text}\n${text}`
  }
}

function checkShape(result: ParseResult, raw: string) {
  expect(Array.isArray(result.calls)).toBe(true)
  expect(typeof result.text).toBe('string')
  for (const call of result.calls) {
    expect(typeof call.name).toBe('string')
    expect(typeof call.arguments).toBe('object')
    for (const span of [call.spans.call, call.spans.name, call.spans.arguments]) {
      if (!span) continue
      expect(span.start).toBeGreaterThanOrEqual(0)
      expect(span.end).toBeLessThanOrEqual(raw.length)
      expect(span.start).toBeLessThanOrEqual(span.end)
    }
  }
  for (const error of result.errors) expect(error.message).not.toBe('')
}

describe('parsers never throw', () => {
  it('on mutated fixtures, for every protocol', () => {
    const next = random(20_311)
    const seeds = fixtureCases.map((testCase) => testCase.raw)
    for (let index = 0; index < 1500; index++) {
      let raw = seeds[index % seeds.length] ?? ''
      const rounds = 1 + Math.floor(next() * 4)
      for (let round = 0; round < rounds; round++) raw = mutate(raw, next)
      for (const protocol of protocols) {
        let result: ParseResult | undefined
        expect(() => {
          result = protocol.parse(raw)
        }, `${protocol.id} threw on ${JSON.stringify(raw)}`).not.toThrow()
        if (result) checkShape(result, raw)
      }
    }
  })

  it('on hostile shapes, quickly', () => {
    const hostile = [
      '{'.repeat(50_000),
      '['.repeat(50_000),
      '<tool_call>'.repeat(10_000),
      '<function=a>'.repeat(10_000),
      '<tool_call>\n<function=a>\n' + '<parameter=x'.repeat(10_000),
      '"'.repeat(50_000),
      "{'a': '" + "\\'".repeat(20_000),
      '<think>'.repeat(10_000),
      '{"tool": "x", "arguments": '.repeat(5_000),
      '{"a": 1} '.repeat(20_000),
    ]
    for (const raw of hostile) {
      for (const protocol of protocols) {
        const started = performance.now()
        expect(() => protocol.parse(raw)).not.toThrow()
        expect(performance.now() - started, `${protocol.id} on ${raw.slice(0, 30)}`).toBeLessThan(1500)
      }
    }
  })
})
