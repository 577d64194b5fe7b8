import { describe, expect, it } from 'vitest'
import { answer, calls, result, user } from '../../test/conversation'
import { replayEvents } from '../trace/replay-events'
import { diffTwoSessions } from './session-diff'

const conversation = (city: string, temperature: string, final = 'done') =>
  replayEvents({ messages: [user('weather?'), calls(['get_weather', 'c1', JSON.stringify({ city, days: 2 })]), result('c1', 'get_weather', temperature), answer(final)] })

describe('diff of two sessions', () => {
  it('agrees on identical sessions, and ignores key order in arguments', () => {
    expect(diffTwoSessions(conversation('Paris', '18'), conversation('Paris', '18')).same).toBe(true)
    const reordered = replayEvents({ messages: [user('weather?'), calls(['get_weather', 'c9', '{"days":2,"city":"Paris"}']), result('c9', 'get_weather', '18'), answer('done')] })
    expect(diffTwoSessions(conversation('Paris', '18'), reordered)).toMatchObject({ same: true, firstDifference: null })
  })

  it('names the first turn and aspect where they diverge: arguments, then results', () => {
    const diff = diffTwoSessions(conversation('Paris', '18'), conversation('Lyon', '21'))
    expect(diff.same).toBe(false)
    expect(diff.firstDifference).toEqual({ turn: 1, aspect: 'arguments' })
    const differing = diff.rows.filter((r) => !r.same).map((r) => [r.turn, r.aspect])
    expect(differing).toEqual([
      [1, 'arguments'],
      [1, 'results'],
    ])
    expect(diff.rows.find((r) => r.aspect === 'arguments')).toMatchObject({ a: 'get_weather {"city":"Paris","days":2}', b: 'get_weather {"city":"Lyon","days":2}' })
  })

  it('aligns sessions of different lengths and compares stop reasons', () => {
    const short = replayEvents({ messages: [user('weather?'), answer('no idea')] })
    const diff = diffTwoSessions(conversation('Paris', '18'), short)
    expect(diff.turns).toEqual({ a: 2, b: 1 })
    expect(diff.firstDifference).toEqual({ turn: 1, aspect: 'text' })
    expect(diff.rows.filter((r) => r.turn === 2 && r.aspect !== 'stop').every((r) => r.b === null && !r.same)).toBe(true)
    const stopped = replayEvents({ messages: [user('weather?'), calls(['get_weather', 'c1', '{"city":"Paris","days":2}']), result('c1', 'get_weather', '18')] })
    expect(diffTwoSessions(conversation('Paris', '18'), stopped).rows.at(-1)).toMatchObject({ aspect: 'stop', a: 'final_answer', b: 'error', same: false })
  })
})
