import { describe, expect, it } from 'vitest'
import type { Message, ToolCall } from '../messages'
import { getProtocol } from '../protocols/index'
import { openAIArguments, toOpenAIAssistant, toOpenAIMessage, writeOpenAIAssistant } from './openai-chat'

const call = (id: string, name: string, args: ToolCall['arguments'], rawArguments?: string): ToolCall => ({ id, name, arguments: args, ...(rawArguments === undefined ? {} : { rawArguments }) })

describe('openAIArguments', () => {
  it('keeps logged text verbatim, passes string arguments through, else writes JSON', () => {
    expect(openAIArguments(call('a', 'f', {}, '"{\\"city\\":\\"Paris\\"}"'))).toBe('"{\\"city\\":\\"Paris\\"}"')
    expect(openAIArguments({ arguments: '{"city": Paris}' })).toBe('{"city": Paris}')
    expect(openAIArguments({ arguments: { city: 'Zürich', n: [1] } })).toBe('{"city":"Zürich","n":[1]}')
  })
})

describe('toOpenAIMessage', () => {
  it('writes each role in wire shape, dropping what the format cannot hold', () => {
    const messages: Message[] = [
      { role: 'system', content: 's' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'get_weather', { city: 'Paris' })] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: 'boom', isError: true },
      { role: 'assistant', content: 'Done.', tool_calls: [] },
    ]
    expect(messages.map(toOpenAIMessage)).toEqual([
      { role: 'system', content: 's' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'boom' },
      { role: 'assistant', content: 'Done.' },
    ])
  })
})

describe('writeOpenAIAssistant', () => {
  it('writes the API key order, pretty-printed, and normalises a loose native message', () => {
    const loose = { content: undefined, extra: true, tool_calls: [{ function: { name: 'f', arguments: '{}' } }, { id: '', function: { name: 'g', arguments: '' } }] }
    expect(JSON.parse(writeOpenAIAssistant(loose))).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { type: 'function', function: { name: 'f', arguments: '{}' } },
        { type: 'function', function: { name: 'g', arguments: '' } },
      ],
    })
    expect(writeOpenAIAssistant(toOpenAIAssistant('hi'))).toBe('{\n  "role": "assistant",\n  "content": "hi"\n}')
  })

  it('round-trips through the openai protocol: same ids, names and arguments', () => {
    const calls = [call('c1', 'get_weather', { city: 'Zürich "old town"' }), call('c2', 'weather.current', { days: [1, 2], nested: { ok: true } })]
    const parsed = getProtocol('openai')!.parse(writeOpenAIAssistant(toOpenAIAssistant('Checking.', calls)))
    expect(parsed.errors).toEqual([])
    expect(parsed.text).toBe('Checking.')
    expect(parsed.calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }))).toEqual(calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })))
  })
})

describe('every writer of the format agrees', () => {
  const calls = [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }]

  it('the openai protocol renders what the serializer writes', () => {
    expect(getProtocol('openai')!.render({ text: 'Let me check.', calls })).toBe(writeOpenAIAssistant(toOpenAIAssistant('Let me check.', calls)))
    // Parsed calls carry the raw text of their own format, which is not the JSON arguments string.
    const pythonic = { ...calls[0]!, rawArguments: 'city="Paris"' }
    expect(JSON.parse(getProtocol('openai')!.render({ calls: [pythonic] })).tool_calls[0].function.arguments).toBe('{"city":"Paris"}')
  })
})
