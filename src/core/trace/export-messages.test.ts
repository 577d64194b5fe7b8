import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { Message } from '../messages'
import { readArguments } from './arguments'
import { exportAnthropic, exportOllama, exportOllamaRequest, exportOpenAI, exportRequest, MISSING_RESULT_TEXT, requestExport } from './export-messages'
import { traceEnglish } from './trace-text'
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

/** What a trip through OpenAI keeps: no error flag; arguments re-encoded from the object, unless they never decoded. */
function viaOpenAI(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role === 'tool') return { role: 'tool', tool_call_id: message.tool_call_id, name: message.name, content: message.content }
    if (message.role !== 'assistant' || !message.tool_calls) return message
    const undecoded = (raw: string | undefined, args: object) => raw !== undefined && Object.keys(args).length === 0 && readArguments(raw).problem !== undefined
    return { ...message, tool_calls: message.tool_calls.map((call) => ({ ...call, rawArguments: undecoded(call.rawArguments, call.arguments) ? call.rawArguments! : JSON.stringify(call.arguments) })) }
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
  it('writes arguments as JSON strings, keeping a logged string that never decoded as it was', () => {
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

  it('re-encodes arguments from the decoded object: a double-encoded or spaced log comes out as one clean JSON string', () => {
    const doubled = JSON.stringify(JSON.stringify({ city: 'Orléans', days: 3 }))
    const log = JSON.stringify([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: doubled } }, { id: 'b', type: 'function', function: { name: 'g', arguments: '{ "q" : "x" }' } }] },
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
      { role: 'tool', tool_call_id: 'b', content: 'ok' },
    ])
    const exported = exportOpenAI(importedMessages(log))
    const assistant = exported[1]
    expect(assistant?.role === 'assistant' ? assistant.tool_calls?.map((call) => call.function.arguments) : []).toEqual(['{"city":"Orléans","days":3}', '{"q":"x"}'])
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

describe('exportOllama', () => {
  it('writes native tool_calls with object arguments, string content and tool_name on results', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      user('Paris?'),
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 'w', arguments: { city: 'Paris' }, rawArguments: JSON.stringify(JSON.stringify({ city: 'Paris' })) }, { id: 'b', name: 'x', arguments: {} }] },
      { role: 'tool', tool_call_id: 'a', name: 'w', content: 'Error: The user declined to run this call.', isError: true },
      answer('Done.'),
    ]
    expect(exportOllama(messages)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Paris?' },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'w', arguments: { city: 'Paris' } } }, { function: { name: 'x', arguments: {} } }] },
      { role: 'tool', content: 'Error: The user declined to run this call.', tool_name: 'w' },
      { role: 'tool', content: MISSING_RESULT_TEXT, tool_name: 'x' },
      { role: 'assistant', content: 'Done.' },
    ])
    const tools = [{ name: 'w', description: 'Weather.', inputSchema: { type: 'object' } }]
    expect(exportOllamaRequest(messages, tools).tools).toEqual([{ type: 'function', function: { name: 'w', description: 'Weather.', parameters: { type: 'object' } } }])
    expect(exportRequest('ollama', messages)).toEqual({ messages: exportOllama(messages) })
  })

  it('flags a denied call as an error on Anthropic and keeps the Error: text on OpenAI', () => {
    const denied: Message[] = [user('rm it'), calls(['delete_file', 'd1']), { role: 'tool', tool_call_id: 'd1', name: 'delete_file', content: 'Error: The user declined to run this call. Reason: backups', isError: true }]
    expect(exportAnthropic(denied).messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'd1', content: 'Error: The user declined to run this call. Reason: backups', is_error: true }] })
    expect(exportOpenAI(denied)[2]).toEqual({ role: 'tool', tool_call_id: 'd1', content: 'Error: The user declined to run this call. Reason: backups' })
  })
})

describe('a model that reused a tool_call_id', () => {
  // Turn 1 calls `call_1`; turn 2 calls `call_1` twice (models that number calls per turn do this).
  const reused: Message[] = [
    user('weather in Paris, then Rome and Oslo'),
    calls(['weather', 'call_1', '{"city":"Paris"}']),
    result('call_1', 'weather', 'sunny'),
    calls(['weather', 'call_1', '{"city":"Rome"}'], ['weather', 'call_1', '{"city":"Oslo"}']),
    result('call_1', 'weather', 'rain'),
    result('call_1', 'weather', 'snow'),
    answer('Sunny, rain, snow.'),
  ]

  it('exports to OpenAI with every id unique, each result following its renamed call', () => {
    const sent = exportOpenAI(reused)
    const ids = sent.flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : []))
    expect(ids).toEqual(['call_1', 'call_1_2', 'call_1_3'])
    expect(sent.filter((message) => message.role === 'tool').map((message) => [message.tool_call_id, message.content])).toEqual([
      ['call_1', 'sunny'],
      ['call_1_2', 'rain'],
      ['call_1_3', 'snow'],
    ])
  })

  it('exports to Anthropic with unique tool_use ids and the tool_result blocks renamed to match', () => {
    const blocks = exportAnthropic(reused).messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
    expect(blocks.filter((block) => block.type === 'tool_use').map((block) => block.id)).toEqual(['call_1', 'call_1_2', 'call_1_3'])
    expect(blocks.filter((block) => block.type === 'tool_result').map((block) => [block.tool_use_id, block.content])).toEqual([
      ['call_1', 'sunny'],
      ['call_1_2', 'rain'],
      ['call_1_3', 'snow'],
    ])
  })

  it('never renames onto an id the conversation already uses, and keeps a result that answers no call of its turn', () => {
    const taken: Message[] = [calls(['f', 'a']), result('a', 'f'), calls(['f', 'a_2'], ['f', 'a']), result('a', 'f'), result('a_2', 'f'), result('zz', 'f')]
    const sent = exportOpenAI(taken)
    expect(sent.flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : []))).toEqual(['a', 'a_2', 'a_3'])
    expect(sent.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(['a', 'a_3', 'a_2', 'zz'])
  })

  it('says beside the body which ids it renamed; the body is exportRequest’s; a log without reuse gets no warning', () => {
    for (const target of ['openai', 'anthropic'] as const) {
      const exported = requestExport(target, reused)
      expect(exported.body).toEqual(exportRequest(target, reused))
      expect(exported.renamed).toEqual([
        { from: 'call_1', to: 'call_1_2', message: 3 },
        { from: 'call_1', to: 'call_1_3', message: 3 },
      ])
      expect(traceEnglish(exported.warning!)).toBe('The model reused tool_call_ids, which the provider rejects: the export renames them, with their results: call_1 → call_1_2, call_1 → call_1_3.')
    }
    // Ollama sends no ids: nothing to rename, nothing to say.
    expect(requestExport('ollama', reused).warning).toBeUndefined()
    const fine = requestExport('openai', reused.slice(0, 3))
    expect([fine.renamed, fine.warning]).toEqual([[], undefined])
  })
})
