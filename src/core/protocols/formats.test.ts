import { describe, expect, it } from 'vitest'
import { getProtocol } from './index'

function parse(id: string, raw: string) {
  const protocol = getProtocol(id)
  if (!protocol) throw new Error(`no protocol ${id}`)
  return protocol.parse(raw)
}

const calls = (id: string, raw: string) => parse(id, raw).calls.map((call) => [call.name, call.arguments])

describe('pipe and bracket', () => {
  it('keeps operators, parentheses and brackets in pipe values', () => {
    expect(calls('pipe', '[TOOL:calculate|expression=3*(2+1)]')).toEqual([['calculate', { expression: '3*(2+1)' }]])
    expect(calls('pipe', '[TOOL: lookup | path = a[1].b | q = x=y ]')).toEqual([['lookup', { path: 'a[1].b', q: 'x=y' }]])
  })

  it('reports a pipe call cut off before its ]', () => {
    expect(parse('pipe', '[TOOL:calculate|expression=3*(2').errors.map((error) => error.code)).toEqual(['truncated'])
  })

  it('reports bracket arguments that are not JSON', () => {
    const result = parse('bracket', '[TOOL: f] [ARGS: {"a": 1 oops}]')
    expect(result.calls).toEqual([])
    expect(result.errors[0]?.code).toBe('invalid_arguments')
  })
})

describe('pythonic', () => {
  it('reads bare calls separated by ; and triple-quoted strings', () => {
    expect(calls('pythonic', 'get_time(tz="UTC"); note(text="""two\nlines""");')).toEqual([
      ['get_time', { tz: 'UTC' }],
      ['note', { text: 'two\nlines' }],
    ])
  })

  it('unescapes Markdown-escaped names and reads nested literals', () => {
    expect(calls('pythonic', '[get\\_weather(city="Paris", opts={"units": ["C", None]})]')).toEqual([['get_weather', { city: 'Paris', opts: { units: ['C', null] } }]])
  })

  it('leaves prose with parentheses alone and reports a cut-off call', () => {
    expect(parse('pythonic', 'The answer (as noted) is 4.')).toMatchObject({ calls: [], text: 'The answer (as noted) is 4.', errors: [] })
    const cut = parse('pythonic', '[save(body="half a sen')
    expect(cut.calls).toEqual([])
    expect(cut.errors[0]).toMatchObject({ code: 'truncated', message: expect.stringContaining('"save"') })
  })
})

describe('token formats', () => {
  it('mistral reads [CALL_ID] and reports a cut-off array', () => {
    expect(parse('mistral', '[TOOL_CALLS]f[CALL_ID]abc123XYZ[ARGS]{"a": 1}').calls).toMatchObject([{ name: 'f', id: 'abc123XYZ', arguments: { a: 1 } }])
    expect(parse('mistral', '[TOOL_CALLS][{"name": "f", "arguments": {"a": "b').errors.map((error) => error.code)).toEqual(['truncated'])
  })

  it('deepseek ignores calls inside reasoning', () => {
    const raw = '<think><｜tool▁call▁begin｜>x<｜tool▁sep｜>{}<｜tool▁call▁end｜></think>Done.'
    expect(parse('deepseek', raw)).toMatchObject({ calls: [], text: 'Done.' })
  })

  it('harmony keeps the final channel as text and drops analysis', () => {
    const raw = '<|channel|>analysis<|message|>thinking<|end|><|start|>assistant<|channel|>final<|message|>It is sunny.<|return|>'
    expect(parse('harmony', raw)).toMatchObject({ calls: [], text: 'It is sunny.' })
  })

  it('kimi-k2 keeps the call id', () => {
    const raw = '<|tool_calls_section_begin|><|tool_call_begin|>functions.f:3<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>'
    expect(parse('kimi-k2', raw).calls).toMatchObject([{ name: 'f', id: 'functions.f:3', arguments: {} }])
  })

  it('granite and phi4 read their arrays; phi4 ignores the word in prose', () => {
    expect(calls('granite', 'Sure.<|tool_call|>[{"name": "f", "arguments": {}}]')).toEqual([['f', {}]])
    expect(calls('phi4', 'functools[{"name": "f", "arguments": {"a": 1}}]')).toEqual([['f', { a: 1 }]])
    expect(parse('phi4', 'Python has functools for this.')).toMatchObject({ calls: [], errors: [], text: 'Python has functools for this.' })
  })
})

describe('native and line formats', () => {
  it('anthropic reads tool_use blocks with their ids and text blocks as text', () => {
    const raw = JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } }] })
    const result = parse('anthropic', raw)
    expect(result).toMatchObject({ text: 'Checking.', calls: [{ name: 'f', id: 'toolu_1', arguments: { a: 1 } }] })
    const name = result.calls[0]?.spans.name
    expect(raw.slice(name?.start, name?.end)).toBe('f')
  })

  it('glm4 reads a name line and JSON, and nothing else', () => {
    expect(calls('glm4', 'get_weather\n{"city": "Paris"}')).toEqual([['get_weather', { city: 'Paris' }]])
    expect(parse('glm4', 'Hello there\n{"city": "Paris"}').calls).toEqual([])
  })

  it('openai treats non-message output as text', () => {
    expect(parse('openai', 'plain words')).toMatchObject({ calls: [], text: 'plain words', errors: [] })
    const closed = parse('openai', '{"tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{\\"a\\": 1}"}}]')
    expect(closed.calls.map((call) => call.arguments)).toEqual([{ a: 1 }])
    expect(closed.repairs.map((repair) => repair.code)).toEqual(['missing_closer'])
    const cut = parse('openai', '{"tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{\\"a\\": \\"b')
    expect(cut).toMatchObject({ calls: [], text: '' })
    expect(cut.errors.map((error) => error.code)).toEqual(['truncated'])
  })
})
