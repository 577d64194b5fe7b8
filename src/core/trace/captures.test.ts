/**
 * Real recorded provider traffic (see `__fixtures__/captures/README.md`): every capture
 * imports with its exact counts and the anomalies it really has.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { AssistantMessage } from '../messages'
import { captureName, importLogFiles, recordingOf } from './capture-files'
import { exportOpenAIRequest } from './export-messages'
import { importLog } from './import-log'
import { replayEvents } from './replay-events'
import { summarize } from './summarize'
import { traceEnglish } from './trace-text'

const DIR = fileURLToPath(new URL('./__fixtures__/captures/', import.meta.url))
const FILES = readdirSync(DIR).filter((name) => !name.endsWith('.md'))
const read = (name: string) => ({ name, text: readFileSync(`${DIR}${name}`, 'utf8') })

/** The files of one capture, every turn. */
function capture(name: string) {
  return FILES.filter((file) => captureName(file)?.capture === name).map(read)
}

function imported(name: string) {
  const result = importLogFiles(capture(name))
  if (!result.ok) throw new Error(result.error)
  return result
}

/** Each capture: format, messages, tool calls, tool results, anomalies as `message:code`, and the replay's stop. */
const EXPECTED: [string, string, number, number, number, string[], string][] = [
  ['openai-chat-parallel-tools', 'openai-messages', 6, 2, 2, ['5:tools_changed'], 'final_answer'],
  ['openai-chat-stream-one-tool', 'openai-messages', 2, 1, 0, ['1:unanswered_tool_call'], 'error'],
  ['openai-chat-stream-parallel-tools', 'openai-messages', 3, 2, 0, ['2:unanswered_tool_call', '2:unanswered_tool_call'], 'error'],
  ['openai-chat-stream-refusal', 'openai-stream', 1, 0, 0, ['0:refusal'], 'final_answer'],
  ['vllm-chat-finish-length', 'openai-messages', 3, 0, 0, [], 'final_answer'],
  ['openai-responses-function-call', 'openai-responses', 5, 1, 1, [], 'final_answer'],
  // The handoff call came from the agent before; this agent's request no longer offers that tool.
  ['openai-responses-stream-function-call', 'openai-responses', 5, 2, 1, ['2:unknown_tool', '4:unanswered_tool_call'], 'error'],
  ['openai-responses-stream-error-quota', 'openai-responses-stream', 1, 0, 0, ['0:provider_error'], 'error'],
  ['anthropic-messages-parallel-tools', 'anthropic-messages', 2, 2, 0, ['1:unanswered_tool_call', '1:unanswered_tool_call'], 'error'],
  ['anthropic-messages-stream-parallel-tools', 'anthropic-messages', 2, 2, 0, ['1:unanswered_tool_call', '1:unanswered_tool_call'], 'error'],
  ['anthropic-messages-stream-tool-no-args', 'anthropic-stream', 1, 1, 0, ['0:unanswered_tool_call'], 'error'],
  ['anthropic-messages-tool-result', 'anthropic-messages', 4, 1, 1, [], 'final_answer'],
]

describe('real captures', () => {
  it('covers every capture in the folder', () => {
    expect(new Set(FILES.map((file) => captureName(file)?.capture))).toEqual(new Set(EXPECTED.map(([name]) => name)))
  })

  it.each(EXPECTED)('%s imports as %s with %i messages, %i calls, %i results', (name, format, messages, calls, results, anomalies, stop) => {
    const result = imported(name)
    expect(result.format).toBe(format)
    expect(result.conversations).toHaveLength(1)
    const summary = summarize(result.conversations)
    expect([summary.messages, summary.toolCalls, summary.toolResults]).toEqual([messages, calls, results])
    expect(summary.anomalies.map((anomaly) => `${anomaly.message}:${anomaly.code}`)).toEqual(anomalies)
    const events = replayEvents(result.conversations[0]!)
    expect(events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: stop })
  })

  it('a capture of several files is named by its file, in the phrase the page translates as well as in the English', () => {
    const names = EXPECTED.filter(([name]) => capture(name).length > 1).map(([name]) => name)
    expect(names).toContain('anthropic-messages-tool-result')
    for (const name of names) {
      const [conversation] = imported(name).conversations
      expect(conversation!.label, name).toMatch(new RegExp(`^${name}( · \\d+ turns)?$`))
      // The page shows the phrase when there is one: it must say what the label says, not "conversation 0".
      if (conversation!.labelPhrase) expect(traceEnglish(conversation!.labelPhrase), name).toBe(conversation!.label)
    }
  })

  it('joins the turns of a session: the follow-up carries the results and offers no tools', () => {
    const [conversation] = imported('openai-chat-parallel-tools').conversations
    expect(conversation!.label).toBe('openai-chat-parallel-tools · 2 turns')
    expect(conversation!.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant'])
    const calls = (conversation!.messages[2] as AssistantMessage).tool_calls!
    expect(calls.map((call) => [call.name, call.arguments])).toEqual([
      ['get_current_weather', { location: 'Seattle, WA' }],
      ['get_current_weather', { location: 'San Francisco, CA' }],
    ])
    const anomaly = summarize([conversation!]).anomalies[0]!
    expect(anomaly.detail).toBe('the request for this turn offers no tools, the one before (message 2) offered get_current_weather (dropped get_current_weather)')
  })

  it('reassembles streamed parallel calls from their fragments', () => {
    const [conversation] = imported('openai-chat-stream-parallel-tools').conversations
    const reply = conversation!.messages[2] as AssistantMessage
    expect(reply.tool_calls!.map((call) => [call.id, call.rawArguments])).toEqual([
      ['call_fHCjJqt9Pysde6vcJcvbXGBx', '{"location": "Seattle, WA"}'],
      ['call_3J9foSw3CUb48lrqIXoTky6U', '{"location": "San Francisco, CA"}'],
    ])
    expect(conversation!.messageMeta?.[2]).toMatchObject({ finishReason: 'tool_calls', offeredTools: ['get_current_weather'] })
  })

  it('keeps each turn’s response as recorded, chunk by chunk, unknown fields included', () => {
    const [conversation] = imported('openai-chat-stream-one-tool').conversations
    const recorded = conversation!.messageMeta?.[1]?.recorded
    expect(recorded?.kind).toBe('sse')
    expect(recorded?.chunks).toHaveLength(9)
    expect(recorded?.text).toBe(read('openai-chat-stream-one-tool.response.sse').text)
    // 2026 chunks carry `obfuscation`: ignored by the import, still in the raw view.
    expect(recorded?.chunks?.[0]?.text).toContain('"obfuscation"')
    const events = replayEvents(conversation!)
    expect(events.find((event) => event.type === 'model.responded')).toMatchObject({ recorded: { kind: 'sse', text: recorded?.text } })
  })

  it('a refusal stream is a refusal, shown as the turn’s text', () => {
    const [conversation] = imported('openai-chat-stream-refusal').conversations
    expect(conversation!.messages).toEqual([{ role: 'assistant', content: "I'm very sorry, but I can't assist with that request." }])
    expect(summarize([conversation!]).anomalies[0]!.detail).toBe('the model refused: "I\'m very sorry, but I can\'t assist with that request."')
  })

  it('a stream that fails mid-way stops with the provider’s error', () => {
    const [conversation] = imported('openai-responses-stream-error-quota').conversations
    const stop = replayEvents(conversation!).at(-1)
    expect(stop).toMatchObject({ type: 'loop.stopped', reason: 'error' })
    expect(stop?.type === 'loop.stopped' && stop.detail).toMatch(/^provider error: insufficient_quota: You exceeded your current quota/)
    expect(summarize([conversation!]).anomalies[0]!.detail).toContain('You exceeded your current quota')
  })

  it('a vLLM length stop with no call is not a truncated call; its odd fields do not break the import', () => {
    const [conversation] = imported('vllm-chat-finish-length').conversations
    expect(conversation!.messageMeta?.[2]?.finishReason).toBe('length')
    expect(conversation!.messages[2]).toEqual({ role: 'assistant', content: 'Your question was very interesting <|im_end|>\n<|im_end|>' })
  })

  it('Anthropic: a tool call whose only partial_json is "" has {} arguments; parallel tool_use blocks stream apart', () => {
    const [noArgs] = imported('anthropic-messages-stream-tool-no-args').conversations
    expect((noArgs!.messages[0] as AssistantMessage).tool_calls).toEqual([{ id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', arguments: {} }])
    const streamed = imported('anthropic-messages-stream-parallel-tools').conversations[0]!.messages[1] as AssistantMessage
    const whole = imported('anthropic-messages-parallel-tools').conversations[0]!.messages[1] as AssistantMessage
    expect(streamed.tool_calls!.map((call) => [call.name, call.arguments])).toEqual(whole.tool_calls!.map((call) => [call.name, call.arguments]))
    expect(streamed.content).toMatch(/^I'll check both the current weather and time in/)
  })

  it('Responses: the follow-up’s echoed function_call joins the turn before; a streamed call reassembles its deltas', () => {
    const [conversation] = imported('openai-responses-function-call').conversations
    expect(conversation!.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant'])
    expect(conversation!.messages[3]).toMatchObject({ role: 'tool', name: 'get_weather', content: "It's cloudy with 15°C" })
    const streamed = imported('openai-responses-stream-function-call').conversations[0]!.messages[4] as AssistantMessage
    expect(streamed.tool_calls).toEqual([{ id: 'call_ei5KboNJnuEArTndVt5ZuX0r', name: 'analyze_data', arguments: { data_request: 'Sales data from last quarter' }, rawArguments: '{"data_request":"Sales data from last quarter"}' }])
  })

  it('a response file alone imports too, and so does any turn’s request alone', () => {
    for (const file of FILES) expect(importLog(read(file).text).ok, file).toBe(true)
  })

  it('exports the joined conversation with the tools it was offered', () => {
    const [conversation] = imported('anthropic-messages-tool-result').conversations
    const body = exportOpenAIRequest(conversation!.messages, conversation!.tools)
    expect(body.tools?.map((tool) => tool.function.name)).toEqual(['get_weather'])
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
  })

  it('splits a recorded stream into its events', () => {
    expect(recordingOf('event: a\ndata: {"x":1}\n\nevent: b\ndata: {"x":2}\n\n').chunks).toEqual([{ text: 'event: a\ndata: {"x":1}\n\n' }, { text: 'event: b\ndata: {"x":2}\n\n' }])
    expect(recordingOf('{"a":1}\n{"a":2}\n')).toMatchObject({ kind: 'jsonl', chunks: [{ text: '{"a":1}\n' }, { text: '{"a":2}\n' }] })
    expect(recordingOf('{\n  "a": 1\n}')).toEqual({ kind: 'json', text: '{\n  "a": 1\n}' })
  })

  it('names the file when a turn cannot be read', () => {
    const result = importLogFiles([read('openai-chat-parallel-tools.1.request.json'), { name: 'openai-chat-parallel-tools.1.response.json', text: '{"choices": [{"message": {"role": "robot"}}]}' }])
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toMatch(/^openai-chat-parallel-tools: openai-chat-parallel-tools\.1\.request\.json: response\.choices\[0\]\.message\.role: expected one of/)
    const twice = importLogFiles([read('vllm-chat-finish-length.request.json'), { name: 'vllm-chat-finish-length.request.json', text: '{}' }])
    expect(!twice.ok && twice.error).toMatch(/both the request of turn 0/)
  })
})

describe('a single file', () => {
  const request = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] })
  const label = (name: string, text: string) => {
    const result = importLogFiles([{ name, text }])
    if (!result.ok) throw new Error(result.error)
    return result.conversations.map((c) => [c.label, c.labelPhrase?.key])
  }

  it('labels its one conversation the log did not name by the file name, as a capture is', () => {
    expect(label('ask.json', request)).toEqual([['ask', undefined]])
    expect(label('logs/run 7.jsonl', request)).toEqual([['run 7', undefined]])
    expect(label('turn.request.json', request)).toEqual([['turn', undefined]])
    // The same files as loose files among others.
    const both = importLogFiles([{ name: 'a.json', text: request }, { name: 'b.json', text: request }])
    expect(both.ok && both.conversations.map((c) => c.label)).toEqual(['a', 'b'])
  })

  it('keeps a name the log gave, and the numbering of a file of several conversations', () => {
    expect(label('named.json', JSON.stringify({ id: 'log_01', messages: [{ role: 'user', content: 'hi' }] }))).toEqual([['log_01', undefined]])
    const two = JSON.stringify([[{ role: 'user', content: 'a' }], [{ role: 'user', content: 'b' }]])
    expect(label('two.json', two)).toEqual([
      ['conversation 0', 'labelConversation'],
      ['conversation 1', 'labelConversation'],
    ])
  })
})
