import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../events'
import { diffSessions, turnsOf } from './diff'

let seq = 0
const ev = (e: Record<string, unknown>) => ({ seq: seq++, at: 0, ...e }) as unknown as SessionEvent
const turn = (text: string, calls: { name: string; arguments: Record<string, string> }[], results: string[] = []) => [
  ev({ type: 'model.responded', step: 0, raw: text, durationMs: 0 }),
  ev({ type: 'parse.completed', protocol: 'openai', calls: calls.map((c, i) => ({ ...c, id: `c${i}`, spans: { call: { start: 0, end: 0 } } })), text, repairs: [], errors: [] }),
  ...results.map((r, i) => ev({ type: 'tool.finished', callId: `c${i}`, name: calls[i]!.name, result: r, durationMs: 0, timedOut: false, truncated: false })),
]

describe('diffSessions', () => {
  it('compares each turn phase by phase and the stop reasons', () => {
    const logged = [...turn('Checking.', [{ name: 'get_weather', arguments: { city: 'Oslo' } }], ['18']), ...turn('It is 18.', []), ev({ type: 'loop.stopped', reason: 'final_answer' })]
    const rerun = [...turn('Checking.', [{ name: 'get_weather', arguments: { city: 'Bergen' } }], ['12']), ev({ type: 'loop.stopped', reason: 'max_steps' })]
    expect(turnsOf(logged)).toHaveLength(2)
    const rows = diffSessions(logged, rerun)
    expect(rows.map((r) => [r.turn, r.phase, r.same])).toEqual([
      [0, 'decide', true],
      [0, 'parse', false],
      [0, 'execute', false],
      [1, 'decide', false],
      [1, 'parse', false],
      [1, 'execute', false],
      [2, 'stop', false],
    ])
    expect(rows[1]).toMatchObject({ logged: 'get_weather({"city":"Oslo"})', rerun: 'get_weather({"city":"Bergen"})' })
    expect(rows[3]).toMatchObject({ logged: 'It is 18.', rerun: undefined })
  })
})
