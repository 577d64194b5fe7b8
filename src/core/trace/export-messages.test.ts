import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { Message } from '../messages'
import { exportAnthropic, exportOpenAI, MISSING_RESULT_TEXT } from './export-messages'
import { importLog } from './import-log'
import { FIXTURES } from './importers/fixture-expectations'
import { answer, calls, result, user } from '../../test/conversation'

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url)), 'utf8')

function importedMessages(text: string): Message[] {
  const result = importLog(text)
  if (!result.ok) throw new Error(result.error)
  expect(result.conversations).toHaveLength(1)
  return result.conversations[0]!.messages
}

/** What a trip through OpenAI keeps: no error flag; arguments as the exported string. */
function viaOpenAI(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role === 'tool') return { role: 'tool', tool_call_id: message.tool_call_id, name: message.name, content: message.content }
    if (message.role !== 'assistant' || !message.tool_calls) return message
    return { ...message, tool_calls: message.tool_calls.map((call) => ({ ...call, rawArguments: call.rawArguments ?? JSON.stringify(call.arguments) })) }
  })
}

/** What a trip through Anthropic keeps: no raw arguments strings. */
function viaAnthropic(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role !== 'assistant' || !message.tool_calls) return message
    return { ...message, tool_calls: message.tool_calls.map(({ rawArguments: _, ...call }) => call) }
  })
}

describe('round trips: import → export → import', () => {
  it.each(FIXTURES)('$file through OpenAI and Anthropic gives the same messages', ({ file }) => {
    const original = importedMessages(fixture(file))
    expect(importedMessages(JSON.stringify(exportOpenAI(original)))).toEqual(viaOpenAI(original))
    expect(importedMessages(JSON.stringify(exportAnthropic(original)))).toEqual(viaAnthropic(original))
    // Through both, in either order.
    expect(viaAnthropic(importedMessages(JSON.stringify(exportAnthropic(importedMessages(JSON.stringify(exportOpenAI(original)))))))).toEqual(viaAnthropic(viaOpenAI(original)))
  })

  it('keeps is_error through Anthropic', () => {
    const messages: Message[] = [user('go'), calls(['f', 'a']), { role: 'tool', tool_call_id: 'a', name: 'f', content: 'boom', isError: true }, answer('sorry')]
    expect(importedMessages(JSON.stringify(exportAnthropic(messages)))).toEqual(viaAnthropic(messages))
  })
})

describe('exportOpenAI', () => {
  it('writes arguments as JSON strings, keeping a logged string as it was', () => {
    const messages: Message[] = [
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 'f', arguments: { x: 1 } }, { id: 'b', name: 'g', arguments: {}, rawArguments: '{"y":' }] },
      result('a', 'f'),
      result('b', 'g'),
    ]
    expect(exportOpenAI(messages)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
          { id: 'b', type: 'function', function: { name: 'g', arguments: '{"y":' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
      { role: 'tool', tool_call_id: 'b', content: 'ok' },
    ])
  })

  it('gives a call without a result a synthetic error result after the turn’s results', () => {
    expect(exportOpenAI([user('go'), calls(['f', 'a'], ['g', 'b']), result('b', 'g'), user('well?')])).toEqual([
      { role: 'user', content: 'go' },
      expect.objectContaining({ role: 'assistant' }),
      { role: 'tool', tool_call_id: 'b', content: 'ok' },
      { role: 'tool', tool_call_id: 'a', content: MISSING_RESULT_TEXT },
      { role: 'user', content: 'well?' },
    ])
  })
})

describe('exportAnthropic', () => {
  it('batches parallel results in one user message, with text after them, and lifts system messages', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      user('Paris and Tokyo?'),
      { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'a', name: 'w', arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' }, { id: 'b', name: 'w', arguments: { city: 'Tokyo' } }] },
      result('a', 'w', 'cloudy'),
      { role: 'tool', tool_call_id: 'b', name: 'w', content: 'timeout', isError: true },
      user('And London?'),
      calls(['w', 'c']),
    ]
    expect(exportAnthropic(messages)).toEqual({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Paris and Tokyo?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'a', name: 'w', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'b', name: 'w', input: { city: 'Tokyo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'a', content: 'cloudy' },
            { type: 'tool_result', tool_use_id: 'b', content: 'timeout', is_error: true },
            { type: 'text', text: 'And London?' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'w', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c', content: MISSING_RESULT_TEXT, is_error: true }] },
      ],
    })
  })
})
