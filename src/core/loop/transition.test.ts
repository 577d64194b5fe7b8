/**
 * `transition(state, event)` driven directly, as a table: each event kind against the states it
 * can meet, asserting the state it leads to and the effects it asks for — and that nothing was
 * performed (the input state is untouched and the effects are plain data).
 */
import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../tools/types'
import type { Effect } from './decider'
import type { NewSessionEvent, SessionEvent } from './events'
import { transition } from './machine'
import { FINAL_TURN_NOTICE } from './model-request'
import { parseTurn, validateTurn } from './phases'
import { fold, type LoopState } from './reducer'
import { loopSettings, type LoopSettings } from './settings'

const weather: ToolSpec = { name: 'get_weather', description: 'Weather.', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }
const remove: ToolSpec = { name: 'delete_file', description: 'Deletes.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, dangerous: true }

function events(list: NewSessionEvent[]): SessionEvent[] {
  return list.map((event, seq) => ({ ...event, seq, at: 0 }) as SessionEvent)
}

const started = (settings: Partial<LoopSettings> = {}, maxSteps = 3): NewSessionEvent => ({
  type: 'session.started',
  source: 'live',
  protocol: 'openai',
  tools: [weather, remove],
  messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Weather in Oslo?' }],
  maxSteps,
  settings: loopSettings(settings),
})
const responded = (step = 0, extra: Partial<Extract<NewSessionEvent, { type: 'model.responded' }>> = {}): NewSessionEvent => ({ type: 'model.responded', step, raw: 'output', durationMs: 1, ...extra })
const span = { call: { start: 0, end: 1 } }
const parsed = (calls: { id: string; name: string; arguments: Record<string, string> }[], errors: { code: string; message: string }[] = [], text = ''): NewSessionEvent => ({
  type: 'parse.completed',
  protocol: 'openai',
  calls: calls.map((call) => ({ ...call, spans: span })),
  text,
  repairs: [],
  errors,
})
const oslo = { id: 'a', name: 'get_weather', arguments: { city: 'Oslo' } }
const rome = { id: 'b', name: 'get_weather', arguments: { city: 'Rome' } }
const verdict = (call: { id: string; name: string; arguments: Record<string, string> }, extra = {}) => ({ callId: call.id, name: call.name, ok: true, problems: [], arguments: call.arguments, ...extra })
const validated = (...verdicts: ReturnType<typeof verdict>[]): NewSessionEvent => ({ type: 'validate.completed', verdicts })
const finished = (callId: string, result: string): NewSessionEvent => ({ type: 'tool.finished', callId, name: 'get_weather', result, durationMs: 1, timedOut: false, truncated: false })
const backfilled = (count = 1): NewSessionEvent => ({ type: 'backfill.completed', messages: Array.from({ length: count }, () => ({ role: 'assistant' as const, content: 'x' })) })

/**
 * What a row expects of the effects, reduced to what matters. A `parse` / `validate` effect
 * carries the builder's input; the row states the event the builder makes of it.
 */
type Expected = { type: 'append' | 'parse' | 'validate'; event: Partial<NewSessionEvent> & { type: NewSessionEvent['type'] } } | Partial<Effect>

/** An effect as a row checks it: a parse or validate with the event its builder makes. */
function performed(effect: Effect): unknown {
  if (effect.type === 'parse') return { type: 'parse', event: parseTurn(effect.input) }
  if (effect.type === 'validate') return { type: 'validate', event: validateTurn(effect.input) }
  return effect
}

interface Row {
  name: string
  /** The log before the event. */
  before: NewSessionEvent[]
  event: NewSessionEvent
  state: Partial<LoopState>
  effects: Expected[]
}

const assistantThenTools = [
  { role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 'get_weather', arguments: { city: 'Oslo' } }] },
  { role: 'tool', tool_call_id: 'a', name: 'get_weather', content: 'sunny' },
]

const rows: Row[] = [
  {
    name: 'session.started × initial: ask the model with every tool',
    before: [],
    event: started(),
    state: { last: 'session.started', step: 0, validationPolicy: 'live' },
    effects: [{ type: 'call_model', planned: expect.objectContaining({ request: expect.objectContaining({ step: 0, tools: [weather, remove], messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'Weather in Oslo?' }] }), finalTurn: false, windowed: false }) as never }],
  },
  {
    name: 'model.responded × started: parse the output',
    before: [started()],
    event: responded(0, { raw: JSON.stringify({ role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] }) }),
    state: { step: 1, parse: null },
    effects: [{ type: 'parse', event: { type: 'parse.completed', calls: [expect.objectContaining({ id: 'a', name: 'get_weather', arguments: { city: 'Oslo' } })] as never } }],
  },
  {
    name: 'model.failed × started: stop with error',
    before: [started()],
    event: { type: 'model.failed', step: 0, error: 'boom', durationMs: 1 },
    state: { step: 1, raw: null },
    effects: [{ type: 'append', event: { type: 'loop.stopped', reason: 'error', detail: 'The model failed to respond.' } }],
  },
  {
    name: 'parse.completed × responded, with calls: validate',
    before: [started(), responded()],
    event: parsed([oslo]),
    state: { answered: false, parseFailures: 0 },
    effects: [{ type: 'validate', event: { type: 'validate.completed', verdicts: [expect.objectContaining({ callId: 'a', ok: true, resolution: 'exact' })] as never } }],
  },
  {
    name: 'parse.completed × responded, no call: backfill the answer',
    before: [started(), responded()],
    event: parsed([], [], 'It is sunny.'),
    state: { answered: true },
    effects: [{ type: 'append', event: { type: 'backfill.completed', messages: [{ role: 'assistant', content: 'It is sunny.' }] } }],
  },
  {
    name: 'parse.completed × responded, malformed with retries left: backfill a correction',
    before: [started(), responded()],
    event: parsed([], [{ code: 'invalid_json', message: 'bad JSON' }]),
    state: { parseFailures: 1, answered: false },
    effects: [{ type: 'append', event: { type: 'backfill.completed', messages: [expect.objectContaining({ role: 'assistant' }), expect.objectContaining({ role: 'user', content: expect.stringContaining('- bad JSON') })] as never } }],
  },
  {
    name: 'parse.completed × responded, malformed with no retries left: stop with error',
    before: [started({ maxParseRetries: 0 }), responded()],
    event: parsed([], [{ code: 'invalid_json', message: 'bad JSON' }]),
    state: { parseFailures: 1 },
    effects: [{ type: 'append', event: { type: 'loop.stopped', reason: 'error', detail: 'The output still held a malformed call after 0 corrections: bad JSON' } }],
  },
  {
    name: 'parse.completed × the tools-disabled final turn: backfill whatever was written',
    before: [started({ finalTurnWithoutTools: true }, 1), responded(0), parsed([oslo]), validated(verdict(oslo)), finished('a', 'sunny'), backfilled(), responded(1, { finalTurn: true })],
    event: parsed([rome], [], 'Rome then.'),
    state: { finalTurn: true, answered: true },
    effects: [{ type: 'append', event: { type: 'backfill.completed', messages: [{ role: 'assistant', content: 'Rome then.' }] } }],
  },
  {
    name: 'validate.completed × parsed: run the calls',
    before: [started(), responded(), parsed([oslo])],
    event: validated(verdict(oslo)),
    state: { repeated: null },
    effects: [{ type: 'run_tools', step: 1, calls: [expect.objectContaining({ call: expect.objectContaining({ id: 'a' }), spec: weather, problems: [] })] as never }],
  },
  {
    name: 'validate.completed × parsed, a dangerous tool: ask for confirmation',
    before: [started(), responded(), parsed([{ id: 'd', name: 'delete_file', arguments: { path: '/x' } }])],
    event: validated(verdict({ id: 'd', name: 'delete_file', arguments: { path: '/x' } }, { confirm: true })),
    state: {},
    effects: [{ type: 'append', event: { type: 'confirm.requested', callIds: ['d'] } }],
  },
  {
    name: 'validate.completed × parsed, repeated call in stop mode: stop',
    before: [started(), responded(), parsed([oslo])],
    event: { type: 'validate.completed', verdicts: [verdict(oslo)], repeated: { name: 'get_weather', count: 3 } },
    state: { repeated: { name: 'get_weather', count: 3 } },
    effects: [{ type: 'append', event: { type: 'loop.stopped', reason: 'repeated_call', detail: '"get_weather" was called 3 times in a row with the same arguments.' } }],
  },
  {
    name: 'confirm.requested × validated: ask the user about those calls',
    before: [started(), responded(), parsed([{ id: 'd', name: 'delete_file', arguments: { path: '/x' } }]), validated(verdict({ id: 'd', name: 'delete_file', arguments: { path: '/x' } }, { confirm: true }))],
    event: { type: 'confirm.requested', callIds: ['d'] },
    state: { last: 'confirm.requested' },
    effects: [{ type: 'confirm', calls: [expect.objectContaining({ call: expect.objectContaining({ id: 'd' }), spec: remove })] as never }],
  },
  {
    name: 'confirm.decided × confirm.requested: run with the decisions',
    before: [started(), responded(), parsed([{ id: 'd', name: 'delete_file', arguments: { path: '/x' } }]), validated(verdict({ id: 'd', name: 'delete_file', arguments: { path: '/x' } }, { confirm: true })), { type: 'confirm.requested', callIds: ['d'] }],
    event: { type: 'confirm.decided', decisions: [{ callId: 'd', decision: 'deny' }] },
    state: { decisions: [{ callId: 'd', decision: 'deny' }] },
    effects: [{ type: 'run_tools', calls: [expect.objectContaining({ decision: { callId: 'd', decision: 'deny' } })] as never }],
  },
  {
    name: 'tool.finished × running, a call still pending: run only that one',
    before: [started(), responded(), parsed([oslo, rome]), validated(verdict(oslo), verdict(rome))],
    event: finished('a', 'sunny'),
    state: { resultCount: 1 },
    effects: [{ type: 'run_tools', calls: [expect.objectContaining({ call: expect.objectContaining({ id: 'b' }) })] as never }],
  },
  {
    name: 'tool.finished × running, the last call: backfill in call order',
    before: [started(), responded(), parsed([oslo]), validated(verdict(oslo))],
    event: finished('a', 'sunny'),
    state: { resultCount: 1 },
    effects: [{ type: 'append', event: { type: 'backfill.completed', messages: assistantThenTools as never } }],
  },
  {
    name: 'backfill.completed × tools ran: ask the model again with the results',
    before: [started(), responded(), parsed([oslo]), validated(verdict(oslo)), finished('a', 'sunny')],
    event: { type: 'backfill.completed', messages: assistantThenTools as never },
    state: { step: 1 },
    effects: [{ type: 'call_model', planned: expect.objectContaining({ step: 1, request: expect.objectContaining({ messages: [expect.objectContaining({ role: 'system' }), expect.objectContaining({ role: 'user' }), ...assistantThenTools] }) }) as never }],
  },
  {
    name: 'backfill.completed × answered: stop with final_answer',
    before: [started(), responded(), parsed([], [], 'It is sunny.')],
    event: backfilled(),
    state: { answered: true },
    effects: [{ type: 'append', event: { type: 'loop.stopped', reason: 'final_answer' } }],
  },
  {
    name: 'backfill.completed × steps used: stop with max_steps',
    before: [started({}, 1), responded(), parsed([oslo]), validated(verdict(oslo)), finished('a', 'sunny')],
    event: backfilled(2),
    state: { step: 1 },
    effects: [{ type: 'append', event: { type: 'loop.stopped', reason: 'max_steps', detail: 'Stopped after 1 model turn without a final answer.' } }],
  },
  {
    name: 'backfill.completed × steps used, final turn on: ask once more without tools',
    before: [started({ finalTurnWithoutTools: true }, 1), responded(), parsed([oslo]), validated(verdict(oslo)), finished('a', 'sunny')],
    event: backfilled(2),
    state: { step: 1 },
    effects: [{ type: 'call_model', planned: expect.objectContaining({ finalTurn: true, request: expect.objectContaining({ tools: [], messages: expect.arrayContaining([{ role: 'user', content: FINAL_TURN_NOTICE }]) }) }) as never }],
  },
  {
    name: 'backfill.completed × the final turn: stop with max_steps',
    before: [started({ finalTurnWithoutTools: true }, 1), responded(0), parsed([oslo]), validated(verdict(oslo)), finished('a', 'sunny'), backfilled(), responded(1, { finalTurn: true }), parsed([], [], 'Done.')],
    event: backfilled(),
    state: { finalTurn: true },
    effects: [{ type: 'append', event: { type: 'loop.stopped', reason: 'max_steps' } }],
  },
  {
    name: 'loop.stopped × mid-turn (abort): terminal, nothing more',
    before: [started(), responded(), parsed([oslo]), validated(verdict(oslo))],
    event: { type: 'loop.stopped', reason: 'aborted', detail: 'Stopped by the user.' },
    state: { stop: { reason: 'aborted', detail: 'Stopped by the user.' }, finalAnswer: null },
    effects: [],
  },
  {
    name: 'loop.stopped × answered: keeps the final answer',
    before: [started(), responded(), parsed([], [], 'It is sunny.'), backfilled()],
    event: { type: 'loop.stopped', reason: 'final_answer' },
    state: { finalAnswer: 'It is sunny.' },
    effects: [],
  },
  {
    name: 'any event × stopped: no effect',
    before: [started(), { type: 'loop.stopped', reason: 'aborted' }],
    event: responded(),
    state: { step: 1 },
    effects: [],
  },
]

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

describe('transition(state, event) → [state, effects]', () => {
  it.each(rows)('$name', ({ before, event, state, effects }) => {
    const log = events([...before, event])
    const input = deepFreeze(fold(log.slice(0, -1)))
    const snapshot = structuredClone(input)
    const [next, out] = transition(input, log.at(-1)!)
    expect(next).toMatchObject({ last: event.type, ...state })
    expect(out).toHaveLength(effects.length)
    out.forEach((effect, index) => expect(performed(effect)).toMatchObject(effects[index]!))
    // Nothing was performed: the state it was given is untouched (frozen, and equal to a copy),
    // and the effects are data a runner can still choose to perform — they survive a JSON round trip.
    expect(input).toEqual(snapshot)
    expect(JSON.parse(JSON.stringify(out))).toEqual(out)
  })

  it('covers every event kind', () => {
    const kinds = new Set(rows.map((row) => row.event.type))
    expect([...kinds].sort()).toEqual(['backfill.completed', 'confirm.decided', 'confirm.requested', 'loop.stopped', 'model.failed', 'model.responded', 'parse.completed', 'session.started', 'tool.finished', 'validate.completed'])
  })
})
