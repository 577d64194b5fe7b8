import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { Message } from '../messages'
import type { ToolSpec } from '../tools/types'
import { ANOMALY_CODES, findAnomalies as findWithPhrases, LARGE_TOOL_RESULT_CHARS } from './anomalies'
import { ANOMALY_CATALOGUE } from './anomaly-catalogue'
import { answer, calls, result, user } from '../../test/conversation'

// The English details (what the CLI prints); their phrases are checked in trace-text.test.ts.
const findAnomalies = (...args: Parameters<typeof findWithPhrases>) => findWithPhrases(...args).map(({ phrase: _phrase, ...rest }) => rest)

const weather: ToolSpec = {
  name: 'get_weather',
  description: '',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
}

describe('findAnomalies', () => {
  it('finds nothing in a well-wired conversation', () => {
    const messages: Message[] = [user('hi'), calls(['get_weather', 'a', '{"city":"Paris"}']), result('a', 'get_weather'), answer('Sunny.')]
    expect(findAnomalies(messages, [weather])).toEqual([])
  })

  it('reports a reused id once, where it is first reused, without spurious orphans', () => {
    const messages: Message[] = [
      calls(['get_weather', 'a']),
      result('a', 'get_weather'),
      calls(['get_time', 'a']),
      result('a', 'get_time'),
      calls(['calculate', 'a']),
      result('a', 'calculate'),
    ]
    expect(findAnomalies(messages)).toEqual([
      { message: 2, code: 'duplicate_tool_call_id', detail: 'tool_call_id "a" (call to get_time) was already used by the call to get_weather in message 0' },
    ])
  })

  it('reports an id reused within one turn', () => {
    const messages: Message[] = [calls(['f', 'a'], ['g', 'a']), result('a', 'g'), result('a', 'f')]
    expect(findAnomalies(messages).map((anomaly) => [anomaly.message, anomaly.code])).toEqual([[0, 'duplicate_tool_call_id']])
  })

  it('reports a tool message answering no call', () => {
    expect(findAnomalies([user('hi'), result('x', 'f')])).toEqual([{ message: 1, code: 'orphan_tool_result', detail: 'no earlier call has tool_call_id "x"' }])
    expect(findAnomalies([calls(['f', 'a']), result('a', 'f'), result('a', 'f')])).toEqual([
      { message: 2, code: 'orphan_tool_result', detail: 'the call with tool_call_id "a" was already answered by message 1' },
    ])
  })

  it('reports a call that never gets an answer, on the assistant message', () => {
    expect(findAnomalies([user('hi'), calls(['f', 'a'], ['g', 'b']), result('b', 'g'), answer('done')])).toEqual([
      { message: 1, code: 'unanswered_tool_call', detail: 'the call to f (tool_call_id "a") never gets a tool message' },
    ])
  })

  it('reports arguments that are not a JSON object, and double-encoded ones', () => {
    const messages: Message[] = [calls(['f', 'a', '{"x": 1'], ['f', 'b', '[1]'], ['f', 'c', '"{\\"x\\":1}"'], ['f', 'd', '']), result('a', 'f'), result('b', 'f'), result('c', 'f'), result('d', 'f')]
    const found = findAnomalies(messages)
    expect(found.map((anomaly) => anomaly.code)).toEqual(['invalid_arguments_json', 'invalid_arguments_json', 'double_encoded_arguments'])
    expect(found[0]!.detail).toMatch(/^arguments of the call to f are not valid JSON \(/)
    expect(found[1]!.detail).toBe('arguments of the call to f are not a JSON object (got array)')
  })

  it('reports a result whose name differs from its call', () => {
    expect(findAnomalies([calls(['f', 'a']), result('a', 'g')])).toEqual([
      { message: 1, code: 'tool_name_mismatch', detail: 'answers the call to f (tool_call_id "a", message 0) but is named g' },
    ])
  })

  it('with tools: reports unknown tools and schema violations', () => {
    const messages: Message[] = [
      calls(['get_wether', 'a', '{"city":"Paris"}'], ['get_weather', 'b', '{"town":"Paris"}'], ['get_weather', 'c', '{"city":']),
      result('a', 'get_wether'),
      result('b', 'get_weather'),
      result('c', 'get_weather'),
    ]
    expect(findAnomalies(messages, [weather])).toEqual([
      { message: 0, code: 'unknown_tool', detail: 'Unknown tool "get_wether". Available tools: get_weather.' },
      { message: 0, code: 'schema_violation', detail: 'get_weather: "city" is required; unknown argument "town"' },
      // Unparseable arguments are not also checked against the schema.
      { message: 0, code: 'invalid_arguments_json', detail: expect.stringMatching(/^arguments of the call to get_weather are not valid JSON/) as string },
    ])
  })

  it('never resolves inherited names as tools', () => {
    expect(findAnomalies([calls(['constructor', 'a']), result('a', 'constructor')], [weather]).map((anomaly) => anomaly.code)).toEqual(['unknown_tool'])
  })
})

describe('findAnomalies: loop, history and size checks', () => {
  it('pairs a result with the turn’s only waiting call when its id differs', () => {
    expect(findAnomalies([calls(['f', 'call_abc']), result('call_ABC', 'f')])).toEqual([
      {
        message: 1,
        code: 'mismatched_tool_call_id',
        detail: 'tool_call_id "call_ABC" matches no waiting call; it evidently answers the call to f (tool_call_id "call_abc", message 0), the only call of that turn still waiting',
      },
    ])
    // Two calls waiting, but only one with the result's name.
    expect(findAnomalies([calls(['f', 'a'], ['g', 'b'], ['h', 'c']), result('a', 'f'), result('x', 'g'), result('c', 'h')]).map((anomaly) => [anomaly.message, anomaly.code])).toEqual([[2, 'mismatched_tool_call_id']])
    // Two calls of the same name waiting: nothing is evident.
    expect(findAnomalies([calls(['f', 'a'], ['f', 'b']), result('x', 'f'), result('a', 'f'), result('b', 'f')]).map((anomaly) => anomaly.code)).toEqual(['orphan_tool_result'])
  })

  it('reports results that come back in another order than the calls, once per turn', () => {
    const messages: Message[] = [calls(['f', 'a'], ['g', 'b'], ['h', 'c']), result('c', 'h'), result('a', 'f'), result('b', 'g')]
    expect(findAnomalies(messages)).toEqual([
      { message: 2, code: 'results_out_of_order', detail: 'the result for call 1 (f) of message 0 comes after the result for call 3; results do not follow the order of the calls' },
    ])
  })

  it('reports a call cut off by the token limit that stays in history, not one that ends the log', () => {
    const messages: Message[] = [user('go'), calls(['f', 'a', '{"x":']), result('a', 'f'), answer('done')]
    const found = findAnomalies(messages, undefined, { messageMeta: { 1: { finishReason: 'length' } } })
    expect(found.filter((anomaly) => anomaly.code === 'truncated_call_in_history')).toEqual([
      { message: 1, code: 'truncated_call_in_history', detail: 'finish_reason "length": the output was cut off at the token limit, yet its call to f stayed in the history that followed' },
    ])
    expect(findAnomalies(messages.slice(0, 2), undefined, { messageMeta: { 1: { finishReason: 'max_tokens' } } }).map((anomaly) => anomaly.code)).not.toContain('truncated_call_in_history')
    expect(findAnomalies(messages, undefined, { messageMeta: { 1: { finishReason: 'tool_calls' } } }).map((anomaly) => anomaly.code)).not.toContain('truncated_call_in_history')
  })

  it('reports the same call repeated three times in a row, once per run, ignoring key order', () => {
    const turn = (id: string, raw: string): Message[] => [calls(['search', id, raw]), result(id, 'search', 'none')]
    const messages = [...turn('a', '{"q":"x","n":1}'), ...turn('b', '{"n":1,"q":"x"}'), ...turn('c', '{"q":"x","n":1}'), ...turn('d', '{"q":"x","n":1}')]
    expect(findAnomalies(messages)).toEqual([{ message: 4, code: 'repeated_call', detail: 'search was called with the same arguments 3 times in a row ({"n":1,"q":"x"})' }])
    const interrupted = [...turn('a', '{"q":"x"}'), ...turn('b', '{"q":"y"}'), ...turn('c', '{"q":"x"}')]
    expect(findAnomalies(interrupted)).toEqual([])
    expect(findAnomalies(messages.slice(0, 4), undefined, { repeatThreshold: 2 }).map((anomaly) => anomaly.code)).toEqual(['repeated_call'])
  })

  it('reports tool results over the size limit', () => {
    expect(findAnomalies([calls(['f', 'a']), result('a', 'f', 'x'.repeat(LARGE_TOOL_RESULT_CHARS + 1))])).toEqual([
      { message: 1, code: 'large_tool_result', detail: `the result of f is ${LARGE_TOOL_RESULT_CHARS + 1} characters long (over ${LARGE_TOOL_RESULT_CHARS})` },
    ])
    expect(findAnomalies([calls(['f', 'a']), result('a', 'f', 'x'.repeat(LARGE_TOOL_RESULT_CHARS))])).toEqual([])
  })

  it('reports history a last-N trim would split, once, keeping the system prompt aside', () => {
    const system: Message = { role: 'system', content: 'sys' }
    const messages: Message[] = [system, user('go'), calls(['f', 'a'], ['g', 'b']), result('a', 'f'), result('b', 'g'), answer('done'), user('again'), answer('ok')]
    expect(findAnomalies(messages, undefined, { trimWindow: 3 })).toEqual([
      {
        message: 4,
        code: 'history_split_by_trim',
        detail: 'keeping the last 3 messages before the model call at message 7 would start the history at this tool result and drop the call to f, g (message 2) it answers',
      },
    ])
    expect(findAnomalies(messages, undefined, { trimWindow: 6 })).toEqual([])
    expect(findAnomalies(messages, undefined, { trimWindow: false })).toEqual([])
    // The default window is 20 messages.
    expect(findAnomalies(messages)).toEqual([])
  })
})

describe('ANOMALY_CATALOGUE', () => {
  it('lists every code once, in ANOMALY_CODES order', () => {
    expect(ANOMALY_CATALOGUE.map((entry) => entry.code)).toEqual([...ANOMALY_CODES])
  })

  it.each(ANOMALY_CATALOGUE.map((entry) => [entry.code, entry] as const))('its example triggers %s', (code, entry) => {
    const found = findAnomalies(entry.example.messages, entry.example.tools, entry.example.options)
    expect(found.map((anomaly) => anomaly.code)).toContain(code)
    expect(entry.explanation).not.toContain('\n')
  })

  it('is documented in docs/anomalies.md with an example of each code', () => {
    const docs = readFileSync(fileURLToPath(new URL('../../../docs/anomalies.md', import.meta.url)), 'utf8')
    for (const entry of ANOMALY_CATALOGUE) {
      const section = docs.split(/^## /m).find((part) => part.startsWith(`\`${entry.code}\``))
      expect(section, entry.code).toBeDefined()
      expect(section).toContain(entry.explanation)
      expect(section).toContain('```json')
    }
  })
})
