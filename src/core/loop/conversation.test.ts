/**
 * A long run stays linear: the conversation grows without being copied at each backfill, and a
 * request is cut from it without copying it (the messages array is made only when read).
 */
import { describe, expect, it } from 'vitest'
import type { Message } from '../messages'
import type { ToolSpec } from '../tools/types'
import { windowMessages } from './context-window'
import { Conversation } from './conversation'
import type { NewSessionEvent, SessionEvent } from './events'
import { FINAL_TURN_NOTICE, layoutMessages, modelRequest, requestLayout } from './model-request'
import { apply, fold, initialLoopState, type LoopState } from './reducer'
import { LoopRunner } from './runner'
import { buildSystemPrompt } from './system-prompt'

const user = (content: string): Message => ({ role: 'user', content })
const echo: ToolSpec = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }
const other: ToolSpec = { name: 'other', description: 'Another.', inputSchema: { type: 'object' } }

describe('Conversation', () => {
  it('appends without changing the conversations it was grown from', () => {
    const a = Conversation.of([user('1')])
    const b = a.append([user('2')])
    const c = b.append([user('3'), user('4')])
    expect([...a]).toEqual([user('1')])
    expect(b.toArray()).toEqual([user('1'), user('2')])
    expect(c.slice(1, 3)).toEqual([user('2'), user('3')])
    expect(c.at(-1)).toEqual(user('4'))
    expect(c.at(4)).toBeUndefined()
    expect(c.extends(a) && c.extends(b)).toBe(true)
    expect(c.since(a)).toEqual([user('2'), user('3'), user('4')])
    expect(JSON.stringify(b)).toBe(JSON.stringify([user('1'), user('2')]))
  })

  it('a fork (appending to an older conversation) copies, and neither side sees the other', () => {
    const a = Conversation.of([user('1')])
    const b = a.append([user('b')])
    const fork = a.append([user('fork')])
    expect(b.toArray()).toEqual([user('1'), user('b')])
    expect(fork.toArray()).toEqual([user('1'), user('fork')])
    // A fork has storage of its own: a sandbox holding `a` or `b` is sent the fork whole.
    expect(fork.extends(a) || fork.extends(b) || b.extends(fork)).toBe(false)
    expect(b.extends(a)).toBe(true)
    expect(fork.since(b)).toBeNull()
    // The shared empty conversation never lends its storage to a run.
    const x = Conversation.empty.append([user('x')])
    const y = Conversation.empty.append([user('y')])
    expect([...x, ...y]).toEqual([user('x'), user('y')])
    expect(Conversation.empty.length).toBe(0)
  })

  it('is copied from the array it is made of', () => {
    const messages = [user('1')]
    const conversation = Conversation.of(messages)
    messages.push(user('2'))
    expect(conversation.length).toBe(1)
  })
})

/** A log of `steps` one-call turns. */
function longLog(steps: number): SessionEvent[] {
  const events: NewSessionEvent[] = [
    { type: 'session.started', source: 'live', protocol: 'openai', tools: [echo], messages: [{ role: 'system', content: 'sys' }, user('go')], maxSteps: steps + 1 },
  ]
  for (let step = 0; step < steps; step++) {
    const id = `c${step}`
    events.push(
      { type: 'model.responded', step, raw: '…', durationMs: 0 },
      { type: 'parse.completed', protocol: 'openai', calls: [{ id, name: 'echo', arguments: { n: step }, spans: { call: { start: 0, end: 0 } } }], text: '', repairs: [], errors: [] },
      { type: 'validate.completed', verdicts: [{ callId: id, name: 'echo', ok: true, problems: [], arguments: { n: step } }] },
      { type: 'tool.finished', callId: id, name: 'echo', result: String(step), durationMs: 0, timedOut: false, truncated: false },
      {
        type: 'backfill.completed',
        messages: [
          { role: 'assistant', content: null, tool_calls: [{ id, name: 'echo', arguments: { n: step } }] },
          { role: 'tool', tool_call_id: id, name: 'echo', content: String(step) },
        ],
      },
    )
  }
  return events.map((event, seq) => ({ ...event, seq, at: 0 }) as SessionEvent)
}

describe('the engine keeps one growing conversation', () => {
  it('each backfill of a 2 000-step fold extends the previous conversation instead of copying it', () => {
    let state: LoopState = initialLoopState
    let previous: Conversation | undefined
    let extended = 0
    let backfills = 0
    for (const event of longLog(2_000)) {
      state = apply(state, event)
      if (event.type !== 'backfill.completed') continue
      backfills += 1
      if (previous && state.conversation.extends(previous) && state.conversation !== previous) extended += 1
      previous = state.conversation
    }
    expect(backfills).toBe(2_000)
    expect(extended).toBe(1_999)
    expect(state.conversation.length).toBe(2 + 2 * 2_000)
    expect(state.conversation.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1999', name: 'echo', content: '1999' })
  })

  it('the state at an earlier cursor keeps its own conversation when a later one is forked', () => {
    const log = longLog(3)
    const early = fold(log.slice(0, 6))
    const late = fold(log)
    const forked = apply(early, { ...log[5]!, messages: [user('edited')] } as SessionEvent)
    expect(late.conversation.length).toBe(8)
    expect(forked.conversation.toArray().slice(-1)).toEqual([user('edited')])
    expect(fold(log).conversation.toArray()).toEqual(late.conversation.toArray())
  })
})

describe('modelRequest cuts the request from the conversation', () => {
  const state = (messages: Message[], systemPromptBase: string | null = null) => ({
    conversation: Conversation.of(messages),
    tools: [echo, other],
    step: 3,
    protocol: 'json',
    systemPromptBase,
  })
  const turns: Message[] = [
    { role: 'system', content: 'sys' },
    user('q'),
    { role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 'echo', arguments: {} }] },
    { role: 'tool', tool_call_id: 'a', name: 'echo', content: '1' },
    { role: 'assistant', content: 'ok' },
    user('again'),
  ]

  it('without a window, the request is the whole conversation as one part, made into an array only when read', () => {
    const planned = modelRequest(state(turns), { contextWindow: 0, finalTurn: false }, null)
    const layout = requestLayout(planned.request)
    expect(layout?.parts).toEqual([{ from: 0, to: 6 }])
    expect(Object.getOwnPropertyDescriptor(planned.request, 'messages')?.get).toBeTypeOf('function')
    expect(planned.request.messages).toEqual(turns)
    expect(Object.getOwnPropertyDescriptor(planned.request, 'messages')?.value).toEqual(turns)
    expect({ ...planned.request }.messages).toEqual(turns)
    expect(JSON.parse(JSON.stringify(planned.request))).toEqual({ messages: turns, tools: [echo, other], step: 3, protocol: 'json' })
  })

  it('a window keeps the system prompt and never starts on a tool message', () => {
    const planned = modelRequest(state(turns), { contextWindow: 3, finalTurn: false }, null)
    expect(requestLayout(planned.request)?.parts).toEqual([{ from: 0, to: 1 }, { from: 4, to: 6 }])
    expect(planned.request.messages).toEqual(windowMessages(turns, 3).messages)
    expect(planned).toMatchObject({ window: { from: 4, to: 6 }, windowed: true })
  })

  it('routing rebuilds the system prompt as a message of the request; the final turn adds the notice', () => {
    const routed = modelRequest(state(turns, 'Be brief.'), { contextWindow: 0, finalTurn: false }, ['other'])
    const system = { role: 'system', content: buildSystemPrompt('json', [other], 'Be brief.') }
    expect(requestLayout(routed.request)?.parts).toEqual([{ message: system }, { from: 1, to: 6 }])
    expect(routed.request.messages).toEqual([system, ...turns.slice(1)])
    expect(routed.request.tools).toEqual([other])
    const final = modelRequest(state(turns), { contextWindow: 0, finalTurn: true }, ['other'])
    expect(final.request.tools).toEqual([])
    expect(final.request.messages.at(-1)).toEqual(user(FINAL_TURN_NOTICE))
    expect(layoutMessages(requestLayout(final.request)!)).toEqual(final.request.messages)
  })

  it('replacing the messages of a request drops its layout', () => {
    const { request } = modelRequest(state(turns), { contextWindow: 0, finalTurn: false }, null)
    request.messages = [user('other')]
    expect(requestLayout(request)).toBeUndefined()
    expect(request.messages).toEqual([user('other')])
  })

  it('a live run asks the model with the conversation as it was at each decide, read after the run', async () => {
    const seen: { messages: () => Message[] }[] = []
    const runner = new LoopRunner({
      model: {
        respond: async (request) => {
          seen.push({ messages: () => request.messages })
          return request.step < 3 ? { kind: 'message', message: { content: null, tool_calls: [{ id: `c${request.step}`, function: { name: 'echo', arguments: `{"n":${request.step}}` } }] } } : { kind: 'text', raw: 'done' }
        },
      },
      executor: { execute: async (call) => ({ ok: true, result: String(call.arguments.n), durationMs: 0 }) },
      clock: () => 0,
    })
    runner.start({ protocol: 'openai', tools: [echo], messages: [user('go')], maxSteps: 5 })
    await runner.run()
    expect(seen.map((entry) => entry.messages().length)).toEqual([1, 3, 5, 7])
    expect(seen[1]!.messages().at(-1)).toEqual({ role: 'tool', tool_call_id: 'c0', name: 'echo', content: '0' })
  })
})
