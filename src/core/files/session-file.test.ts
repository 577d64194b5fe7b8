import { describe, expect, it } from 'vitest'
import { fold } from '../loop/index'
import { replayEvents } from '../trace/replay-events'
import { answer, calls, result, user } from '../../test/conversation'
import { readSession, writeSession } from './session-file'

/** A replay session as files were written before `session.started` recorded a validation policy. */
function oldReplayFile(source: 'live' | 'replay'): string {
  return JSON.stringify({
    format: 'toolstep.session',
    version: 1,
    workspace: null,
    events: [
      { type: 'session.started', seq: 0, at: 0, source, protocol: 'openai', tools: [], messages: [{ role: 'user', content: 'hi' }], maxSteps: 1 },
      { type: 'model.responded', seq: 1, at: 0, step: 0, raw: '{"role":"assistant","content":"hello"}', durationMs: 0 },
    ],
  })
}

describe('session file: validation policy', () => {
  it('loads files written before the policy existed: a replay folds as-logged, a live run live', () => {
    for (const [source, policy] of [['replay', 'as-logged'], ['live', 'live']] as const) {
      const read = readSession(oldReplayFile(source))
      if (!read.ok) throw new Error(read.error)
      expect(fold(read.value.events).validationPolicy).toBe(policy)
    }
  })

  it('records as-logged for a replay and keeps it through write and read', () => {
    const events = replayEvents({ messages: [user('?'), calls(['f', 'a']), result('a', 'f'), answer('done')] })
    const read = readSession(writeSession(null, events))
    if (!read.ok) throw new Error(read.error)
    expect(read.value.events[0]).toMatchObject({ type: 'session.started', validationPolicy: 'as-logged' })
    expect(read.value.events).toEqual(events)
  })

  it('rejects an unknown policy with a message naming the field', () => {
    const file = JSON.parse(oldReplayFile('replay')) as { events: Record<string, unknown>[] }
    file.events[0]!.validationPolicy = 'fuzzy'
    const read = readSession(JSON.stringify(file))
    expect(read.ok).toBe(false)
    if (!read.ok) expect(read.error).toMatch(/validationPolicy/)
  })
})
