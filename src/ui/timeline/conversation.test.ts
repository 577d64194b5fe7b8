import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../core/loop'
import { growingLogs } from '../../test/growing-logs'
import { cardAtCursor, conversationOf, createConversationFold } from './conversation'

const raw = '{"name":"get_weather","arguments":{"city":"Paris"}}'
const events: SessionEvent[] = [
  { seq: 0, at: 0, type: 'session.started', source: 'live', protocol: 'json', tools: [], maxSteps: 8, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Weather in Paris?' }] },
  { seq: 1, at: 0, type: 'model.responded', step: 0, raw, durationMs: 3 },
  {
    seq: 2,
    at: 0,
    type: 'parse.completed',
    protocol: 'json',
    calls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' }, spans: { call: { start: 0, end: raw.length }, name: { start: 9, end: 20 } } }],
    text: '',
    repairs: [],
    errors: [],
  },
  { seq: 3, at: 0, type: 'validate.completed', verdicts: [{ callId: 'c1', name: 'get_weather', ok: true, problems: [] }] },
  { seq: 4, at: 0, type: 'tool.finished', callId: 'c1', name: 'get_weather', result: '{"temp":19}', durationMs: 1, timedOut: false, truncated: false, anomalies: [{ code: 'slow_tool', detail: 'took long' }] },
  {
    seq: 5,
    at: 0,
    type: 'backfill.completed',
    messages: [
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'get_weather', content: '{"temp":19}' },
      { role: 'user', content: 'And tomorrow?' },
    ],
  },
  { seq: 6, at: 0, type: 'model.responded', step: 1, raw: 'Sunny.', durationMs: 2 },
  { seq: 7, at: 0, type: 'parse.completed', protocol: 'json', calls: [], text: 'Sunny.', repairs: [], errors: [] },
  { seq: 8, at: 0, type: 'loop.stopped', reason: 'final_answer' },
]

describe('conversationOf', () => {
  it('links each result to its call whether or not the result gives the call\'s position', () => {
    const calls = ['a', 'b', 'c'].map((id, i) => ({ id, name: 'echo', arguments: {}, spans: { call: { start: i, end: i + 1 } } }))
    const turn: SessionEvent[] = [
      { seq: 0, at: 0, type: 'session.started', source: 'live', protocol: 'json', tools: [], maxSteps: 8, messages: [{ role: 'user', content: 'Go.' }] },
      { seq: 1, at: 0, type: 'model.responded', step: 0, raw: 'abc', durationMs: 1 },
      { seq: 2, at: 0, type: 'parse.completed', protocol: 'json', calls, text: '', repairs: [], errors: [] },
      // In position, at a position that holds another call, and with none.
      { seq: 3, at: 0, type: 'tool.finished', callId: 'a', index: 0, name: 'echo', result: '1', durationMs: 0, timedOut: false, truncated: false },
      { seq: 4, at: 0, type: 'tool.finished', callId: 'c', index: 1, name: 'echo', result: '3', durationMs: 0, timedOut: false, truncated: false },
      { seq: 5, at: 0, type: 'tool.finished', callId: 'b', name: 'echo', result: '2', durationMs: 0, timedOut: false, truncated: false },
    ]
    const { cards } = conversationOf(turn)
    const assistant = cards[1]!
    expect(assistant.role === 'assistant' && assistant.results).toEqual({ a: 't3', c: 't4', b: 't5' })
    expect(cards.slice(2).map((c) => c.role === 'tool' && c.from)).toEqual([assistant.key, assistant.key, assistant.key])
  })

  it('folds the log into one card per message, in order, with calls linked to verdicts and results', () => {
    const { cards, system, stop } = conversationOf(events)
    expect(system).toBe('Be brief.')
    expect(cards.map((c) => `${c.role}@${c.seq}`)).toEqual(['user@0', 'assistant@1', 'tool@4', 'user@5', 'assistant@6'])
    const first = cards[1]!
    if (first.role !== 'assistant') throw new Error('expected an assistant card')
    expect(first.raw).toBe(raw)
    expect(first.parse?.calls[0]?.name).toBe('get_weather')
    expect(first.verdicts.c1?.ok).toBe(true)
    expect(first.results.c1).toBe(cards[2]!.key)
    const tool = cards[2]!
    expect(tool.role === 'tool' && tool.from).toBe(first.key)
    expect(tool.anomalies.map((a) => a.code)).toEqual(['slow_tool'])
    expect(stop).toEqual({ reason: 'final_answer', seq: 8 })
  })

  it('at cursor k shows only what events 0..k built: no verdict before validate, no result before execute', () => {
    const { cards } = conversationOf(events.slice(0, 3))
    expect(cards.map((c) => c.role)).toEqual(['user', 'assistant'])
    const assistant = cards[1]!
    expect(assistant.role === 'assistant' && Object.keys(assistant.verdicts)).toEqual([])
    expect(assistant.role === 'assistant' && Object.keys(assistant.results)).toEqual([])
  })

  it('marks the card at the cursor: the last card created at or before it', () => {
    const { cards } = conversationOf(events)
    expect(cardAtCursor(cards, 0)).toBe(0)
    expect(cardAtCursor(cards, 3)).toBe(1)
    expect(cardAtCursor(cards, 4)).toBe(2)
    expect(cardAtCursor(cards, 8)).toBe(4)
    expect(cardAtCursor([], 3)).toBe(-1)
  })

  it('shows history messages of a replay (assistant calls and their tool results) as cards', () => {
    const replay: SessionEvent[] = [
      {
        seq: 0,
        at: 0,
        type: 'session.started',
        source: 'replay',
        protocol: 'openai',
        tools: [],
        maxSteps: 8,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'h1', name: 'lookup', arguments: {} }] },
          { role: 'tool', tool_call_id: 'h1', name: 'lookup', content: 'found' },
        ],
      },
    ]
    const { cards } = conversationOf(replay)
    expect(cards.map((c) => c.role)).toEqual(['user', 'assistant', 'tool'])
    const assistant = cards[1]!
    expect(assistant.role === 'assistant' && assistant.results.h1).toBe(cards[2]!.key)
  })
})

describe('conversationOf with edits', () => {
  it('shows an edited output and an edited result as edited, keeping the originals', () => {
    const edited: SessionEvent[] = [
      ...events.slice(0, 5),
      { seq: 5, at: 0, type: 'edit.applied', target: 'tool_result', editedSeq: 4, callId: 'c1', name: 'get_weather', original: '{"temp":19}', edited: 'service down', isError: true },
      { seq: 6, at: 0, type: 'backfill.completed', messages: [] },
      { seq: 7, at: 0, type: 'model.responded', step: 1, raw: 'Sunny.', durationMs: 2 },
      { seq: 8, at: 0, type: 'edit.applied', target: 'model_output', editedSeq: 7, original: 'Sunny.', edited: 'Rainy.' },
    ]
    const { cards } = conversationOf(edited)
    const tool = cards.find((c) => c.role === 'tool')
    expect(tool).toMatchObject({ content: 'service down', isError: true, edited: { original: '{"temp":19}', originalError: false, seq: 5 } })
    const last = cards.at(-1)
    expect(last).toMatchObject({ role: 'assistant', raw: 'Rainy.', edited: { original: 'Sunny.', seq: 8 } })
    // Before the edit, the card is as the model left it.
    expect(conversationOf(edited.slice(0, 8)).cards.at(-1)).toMatchObject({ raw: 'Sunny.' })
  })
})

describe('createConversationFold', () => {
  it('gives the same cards as the whole fold after every phase of a live run, folding each event once', async () => {
    const logs = await growingLogs(3, 40, { invalidEvery: 7 })
    const fold = createConversationFold()
    for (const log of logs) expect(fold(log)).toEqual(conversationOf(log))
    // Every log extends the one before: each event was folded once, not once per phase.
    expect(fold.folded).toBe(logs.at(-1)!.length)
  })

  it('follows a cursor moving forward through prefixes, and starts again when the log is replaced', () => {
    const fold = createConversationFold()
    for (let k = 0; k < events.length; k++) expect(fold(events.slice(0, k + 1))).toEqual(conversationOf(events.slice(0, k + 1)))
    expect(fold.folded).toBe(events.length)
    // Back to an earlier prefix, then a log of other events: folded again from the start, still right.
    expect(fold(events.slice(0, 3))).toEqual(conversationOf(events.slice(0, 3)))
    const other = events.map((e) => ({ ...e }))
    expect(fold(other)).toEqual(conversationOf(other))
    expect(fold.folded).toBe(events.length + 3 + events.length)
  })

  it('each answer has its own cards list, so a view keyed on it sees the new cards', async () => {
    const logs = await growingLogs(1, 3)
    const fold = createConversationFold()
    const first = fold(logs[1]!)
    const last = fold(logs.at(-1)!)
    expect(last.cards).not.toBe(first.cards)
    expect(last.cards.length).toBeGreaterThan(first.cards.length)
    expect(fold(logs.at(-1)!)).toBe(last)
  })
})
