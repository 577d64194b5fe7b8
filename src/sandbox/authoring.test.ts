import { describe, expect, it } from 'vitest'
import type { Message } from '../core/messages'
import { answer, callTools, lastToolResult, lastUserMessage, nextCallId, tool, toolResults, z } from './authoring'
import { toOpenAIAssistant } from '../core/wire'
import { beginModelStep } from './call-ids'

const conversation: Message[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'first' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 'f', arguments: {} }] },
  { role: 'tool', tool_call_id: 'a', name: 'f', content: 'old' },
  { role: 'user', content: 'second' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'b', name: 'g', arguments: {} }, { id: 'c', name: 'h', arguments: {} }] },
  { role: 'tool', tool_call_id: 'b', name: 'g', content: 'G' },
  { role: 'tool', tool_call_id: 'c', name: 'h', content: 'H' },
]

describe('authoring helpers', () => {
  it('tool() returns the definition itself', () => {
    const definition = { description: 'd', inputSchema: z.object({ a: z.string() }), execute: ({ a }: { a: string }) => a }
    expect(tool(definition)).toBe(definition)
  })

  it('reads the conversation', () => {
    expect(lastUserMessage(conversation)).toBe('second')
    expect(lastUserMessage([])).toBe('')
    expect(toolResults(conversation).map((message) => message.content)).toEqual(['G', 'H'])
    expect(lastToolResult(conversation)?.content).toBe('H')
    expect(lastToolResult(conversation.slice(0, 5))).toBeUndefined()
  })

  it('numbers call ids per step', () => {
    beginModelStep(4)
    expect([nextCallId(), nextCallId()]).toEqual(['call_4_1', 'call_4_2'])
    beginModelStep(5)
    expect(nextCallId()).toBe('call_5_1')
  })

  it('writes calls in each protocol', () => {
    beginModelStep(0)
    const calls = [{ name: 'get_weather', arguments: { city: 'Paris' } }]
    expect(callTools('openai', calls, 'Checking.')).toEqual({
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [{ id: 'call_0_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    })
    expect(callTools('json', calls, 'Checking.')).toBe('Checking.\n\n```json\n{"tool": "get_weather", "arguments": {"city":"Paris"}}\n```')
    expect(callTools('xml-tag', calls)).toBe('<tool_call>{"name": "get_weather", "arguments": {"city":"Paris"}}</tool_call>')
    expect(callTools('xml-tag', [{ name: 'f', arguments: "{city: 'x',}" }])).toBe(`<tool_call>{"name": "f", "arguments": {city: 'x',}}</tool_call>`)
    expect(answer('openai', 'Done.')).toEqual({ role: 'assistant', content: 'Done.' })
    expect(answer('json', 'Done.')).toBe('Done.')
  })
})

describe('callTools for openai', () => {
  const calls = [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }]

  it('writes what the core OpenAI serializer writes, and no empty tool_calls (the API rejects [])', () => {
    expect(callTools('openai', calls, 'Let me check.')).toEqual(toOpenAIAssistant('Let me check.', calls))
    expect(callTools('openai', [])).toEqual({ role: 'assistant', content: null })
  })
})
