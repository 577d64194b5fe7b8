import { describe, expect, it } from 'vitest'
import { fixtureCases, protocolOf, type FixtureCase } from '../../test/fixture-cases'
import { detectProtocol, getProtocol, protocols } from './index'
import type { ParseResult } from './types'

const covered = fixtureCases.filter((testCase) => protocolOf(testCase) !== undefined)

function expectMatches(result: ParseResult, testCase: FixtureCase) {
  const calls = result.calls.map((call) => ({ name: call.name, arguments: call.arguments }))
  if (testCase.expect_error) {
    expect(result.errors.length, JSON.stringify(result)).toBeGreaterThan(0)
    expect(calls).toEqual([])
    return
  }
  expect(calls, JSON.stringify(result.errors)).toEqual(testCase.expected.calls)
  if (testCase.expected.text !== null) expect(result.text).toBe(testCase.expected.text)
  expect(result.errors).toEqual([])
}

describe('fixture cases', () => {
  it('covers the formats the walking skeleton needs', () => {
    const formats = new Set(covered.map((testCase) => testCase.format))
    for (const format of ['openai_native', 'json', 'xml_tag', 'hermes']) expect(formats).toContain(format)
  })

  it.each(covered.map((testCase) => [testCase.id, testCase] as const))('%s parses with its protocol', (_id, testCase) => {
    const protocol = getProtocol(protocolOf(testCase) ?? '')
    if (!protocol) throw new Error(`no protocol for ${testCase.format}`)
    const result = protocol.parse(testCase.raw)
    expect(result.protocol).toBe(protocol.id)
    expectMatches(result, testCase)
  })

  it.each(covered.map((testCase) => [testCase.id, testCase] as const))('%s parses through auto', (_id, testCase) => {
    const result = getProtocol('auto')?.parse(testCase.raw)
    if (!result) throw new Error('auto is missing')
    expectMatches(result, testCase)
    expect(result.detection).toBeTruthy()
    expect(result.protocol).not.toBe('auto')
  })
})

describe('auto detection', () => {
  // Both read {"name", "parameters"} the same way; a bare one at the start is Llama 3's shape.
  const equivalent = (id: string) => (id === 'llama3-json' ? 'json' : id)

  it.each(covered.map((testCase) => [testCase.id, testCase] as const))('%s is detected as its format', (_id, testCase) => {
    const { protocol, reason } = detectProtocol(testCase.raw)
    expect(equivalent(protocol.id)).toBe(equivalent(testCase.auto ?? protocolOf(testCase) ?? ''))
    expect(reason).not.toBe('')
  })

  it('says when it found no call syntax', () => {
    expect(getProtocol('auto')?.parse('Just an answer.')).toMatchObject({ protocol: 'json', calls: [], text: 'Just an answer.', detection: expect.stringContaining('No tool-call syntax') })
  })
})

describe('truncation', () => {
  it('names the call and what was expected, and returns no call', () => {
    const openai = getProtocol('openai')?.parse(fixtureCases.find((testCase) => testCase.id === 's-oai-07')?.raw ?? '')
    expect(openai?.errors[0]?.code).toBe('truncated')
    expect(openai?.errors[0]?.message).toMatch(/"save_report" \(call_f1\) were cut off: .*expected a closing "/)
  })

  it.each([
    ['xml-tag', '<tool_call>\n{"name": "write", "arguments": {"body": "half a sen'],
    ['json', 'Saving now: {"tool": "write", "arguments": {"body": "half a sen'],
    ['xml-tag', '<function=write>{"body": "half a sen'],
    ['xml-tag', '<tool_call>\n<function=write>\n<parameter=body>\nhalf a sen'],
  ])('%s: %j is an error, not a shortened call', (id, raw) => {
    const result = getProtocol(id)?.parse(raw)
    expect(result?.calls).toEqual([])
    expect(result?.errors.map((error) => error.code)).toEqual(['truncated'])
    expect(result?.errors[0]?.message).toContain('"write"')
    expect(result?.text).toBe(id === 'json' ? 'Saving now:' : '')
  })

  it('repairs missing closers after a complete value instead', () => {
    const result = getProtocol('xml-tag')?.parse('<tool_call>{"name": "write", "arguments": {"body": "done"}')
    expect(result?.calls.map((call) => call.arguments)).toEqual([{ body: 'done' }])
    expect(result?.repairs.map((repair) => repair.code)).toEqual(['missing_closer', 'missing_close_tag'])
  })
})

describe('json', () => {
  const parse = (raw: string) => getProtocol('json')?.parse(raw)

  it('reads an array of calls and every key spelling', () => {
    const result = parse('[{"tool": "a", "args": {"x": 1}}, {"function": "b", "input": {}}, {"name": "c", "params": {"y": true}}]')
    expect(result?.calls.map((call) => [call.name, call.arguments])).toEqual([
      ['a', { x: 1 }],
      ['b', {}],
      ['c', { y: true }],
    ])
  })

  it('reads the OpenAI nesting and keeps its id', () => {
    const result = parse('{"id": "call_9", "type": "function", "function": {"name": "f", "arguments": "{\\"a\\": 1}"}}')
    expect(result?.calls).toMatchObject([{ name: 'f', arguments: { a: 1 }, id: 'call_9' }])
  })

  it('keeps data objects with a "name" as text', () => {
    const raw = 'The user is {"name": "Ada", "age": 36}.'
    expect(parse(raw)).toMatchObject({ calls: [], text: raw, errors: [] })
  })

  it('names the repairs it applied', () => {
    const result = parse("```json\n{'tool': 'f', 'arguments': {'ok': True,}}\n```")
    expect(result?.calls.map((call) => call.arguments)).toEqual([{ ok: true }])
    expect(result?.repairs.map((repair) => repair.code).sort()).toEqual(['fence_stripped', 'python_literal', 'single_quotes', 'trailing_comma'])
    expect(result?.text).toBe('')
  })

  it('reports arguments that are not an object', () => {
    const result = parse('{"tool": "f", "arguments": [1, 2]}')
    expect(result?.calls).toEqual([])
    expect(result?.errors[0]).toMatchObject({ code: 'invalid_arguments' })
  })
})

describe('xml-tag', () => {
  const parse = (raw: string) => getProtocol('xml-tag')?.parse(raw)

  it('ignores calls in an unclosed think block and in one closed without an opener', () => {
    expect(parse('<think>maybe <tool_call>{"name": "a"}</tool_call>')?.calls).toEqual([])
    const result = parse('plan: <tool_call>{"name": "a"}</tool_call></think>Answer <tool_call>{"name": "b"}</tool_call>')
    expect(result?.calls.map((call) => call.name)).toEqual(['b'])
    expect(result?.text).toBe('Answer')
  })

  it('reports an invalid body and carries on with the next tag', () => {
    const result = parse('<tool_call>{"name": "a", oops}</tool_call>\n<tool_call>{"name": "b"}</tool_call>')
    expect(result?.calls.map((call) => call.name)).toEqual(['b'])
    expect(result?.errors[0]?.code).toBe('invalid_json')
    expect(result?.errors[0]?.message).toContain("found '}'")
  })

  it('reports a wrapped object without a name', () => {
    const result = parse('<tool_call>{"arguments": {}}</tool_call>')
    expect(result?.errors.map((error) => error.code)).toEqual(['missing_name'])
  })
})

describe('registry', () => {
  it('has unique ids and looks them up safely', () => {
    const ids = protocols.map((protocol) => protocol.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.slice(0, 2)).toEqual(['auto', 'openai'])
    for (const id of ['json', 'xml-tag', 'anthropic', 'bracket', 'pipe', 'mistral', 'llama3-json', 'pythonic', 'deepseek', 'granite']) expect(ids).toContain(id)
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '']) expect(getProtocol(name)).toBeUndefined()
  })

  it.each(protocols.map((protocol) => [protocol.id, protocol] as const))('%s parses its own example into a call', (_id, protocol) => {
    const result = protocol.parse(protocol.example)
    expect(result.calls.length).toBeGreaterThan(0)
    expect(result.errors).toEqual([])
    expect(protocol.label).not.toBe('')
    expect(protocol.description).not.toBe('')
  })

  const tools = [
    { name: 'get_weather', description: 'Current weather for a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } },
    { name: 'get_time', description: 'Time now.', inputSchema: { type: 'object', properties: {} } },
  ]

  it.each(protocols.map((protocol) => [protocol.id, protocol] as const))('%s renders instructions whose example parses back', (_id, protocol) => {
    const text = protocol.instructions(tools)
    expect(text).toContain('### get_weather')
    expect(text).toContain('Current weather for a city.')
    expect(text).toContain(JSON.stringify(tools[0]?.inputSchema, null, 2))
    const example = text.slice(text.lastIndexOf('Example:\n') + 'Example:\n'.length)
    const parsed = protocol.parse(example)
    expect(parsed.calls.map((call) => [call.name, call.arguments])).toEqual([['get_weather', { city: '...' }]])
  })

  it('renders instructions without tools', () => {
    for (const protocol of protocols) expect(protocol.instructions([])).toContain('No tools are available.')
  })
})
