import { describe, expect, it } from 'vitest'
import type { Message } from '../messages'
import type { ToolSpec } from '../tools/types'
import { findAnomalies } from './anomalies'
import { answer, calls, result, user } from './test-helpers'

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
