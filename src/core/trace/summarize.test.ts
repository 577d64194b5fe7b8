import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importLog, importOpenAITools } from './import-log'
import { summarize } from './summarize'
import { answer, calls, result, user } from '../../test/conversation'

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url)), 'utf8')

describe('summarize: tau-bench GPT-4o airline log', () => {
  const log = importLog(fixture('tau-bench-gpt-4o-airline.json'))
  const tools = importOpenAITools(fixture('tau-bench-airline-tools.json'))
  if (!log.ok || !tools.ok) throw new Error('fixture did not import')

  it('counts conversations, messages, calls and results', () => {
    const summary = summarize(log.conversations)
    expect([summary.conversations, summary.messages, summary.toolCalls, summary.toolResults]).toEqual([200, 5308, 1164, 1164])
  })

  it('finds exactly one duplicate_tool_call_id per reused id: 71 ids in 49 conversations, and nothing else', () => {
    for (const summary of [summarize(log.conversations), summarize(log.conversations, tools.tools)]) {
      expect(summary.anomalies).toHaveLength(71)
      expect(summary.anomalies.every((anomaly) => anomaly.code === 'duplicate_tool_call_id')).toBe(true)
      expect(new Set(summary.anomalies.map((anomaly) => anomaly.conversation)).size).toBe(49)
    }
  })

  it('locates the first anomaly by conversation and message', () => {
    expect(summarize(log.conversations).anomalies[0]).toEqual({
      conversation: 0,
      message: 12,
      code: 'duplicate_tool_call_id',
      detail: 'tool_call_id "call_HGn16KZh9oNCruxsMJ4gYXan" (call to search_onestop_flight) was already used by the call to search_direct_flight in message 8',
    })
  })
})

describe('summarize', () => {
  it('uses each conversation’s own tools unless tools are given', () => {
    const tool = { name: 'f', description: '', inputSchema: { type: 'object', required: ['x'] } }
    const conversation = { messages: [user('hi'), calls(['f', 'a']), result('a', 'f'), answer('ok')], tools: [tool] }
    expect(summarize([conversation]).anomalies.map((anomaly) => anomaly.code)).toEqual(['schema_violation'])
    expect(summarize([conversation], [{ ...tool, inputSchema: {} }]).anomalies).toEqual([])
    expect(summarize([])).toEqual({ conversations: 0, messages: 0, toolCalls: 0, toolResults: 0, anomalies: [] })
  })
})
