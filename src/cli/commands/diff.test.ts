import { describe, expect, it } from 'vitest'
import { writeSession } from '../../core/files/session-file'
import { replayEvents } from '../../core/trace/replay-events'
import { answer, calls, result, user } from '../../test/conversation'
import { fakeIO } from '../../test/fake-io'
import { diffCommand } from './diff'

const messages = (city: string) => [user('weather?'), calls(['get_weather', 'c1', JSON.stringify({ city })]), result('c1', 'get_weather', `sunny in ${city}`), answer('done')]
const wire = (city: string) => [
  { role: 'user', content: 'weather?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } }] },
  { role: 'tool', tool_call_id: 'c1', content: `sunny in ${city}` },
  { role: 'assistant', content: 'done' },
]

const files = {
  'paris.session.json': writeSession(null, replayEvents({ messages: messages('Paris') })),
  'paris-again.session.json': writeSession(null, replayEvents({ messages: messages('Paris') })),
  'lyon.session.json': writeSession(null, replayEvents({ messages: messages('Lyon') })),
  'log.json': JSON.stringify([wire('Paris'), wire('Lyon')]),
  'one.json': JSON.stringify([wire('Paris')]),
  'broken.json': '{"format":"toolstep.session","version":1,"workspace":null,"events":[{"seq":3}]}',
}

describe('toolstep diff', () => {
  it('exits 0 when two sessions agree, 1 when they differ, showing where', async () => {
    const same = fakeIO(files)
    expect(await diffCommand(['paris.session.json', 'paris-again.session.json'], same.io)).toBe(0)
    expect(same.stdout()).toMatch(/The sessions agree\./)
    const differ = fakeIO(files)
    expect(await diffCommand(['paris.session.json', 'lyon.session.json'], differ.io)).toBe(1)
    expect(differ.stdout()).toMatch(/≠ turn 1 {2}arguments\n {4}A: get_weather \{"city":"Paris"\}\n {4}B: get_weather \{"city":"Lyon"\}/)
    expect(differ.stdout()).toMatch(/2 of \d+ rows differ; first at turn 1 \(arguments\)\./)
  })

  it('--json prints the rows; logged conversations compare with sessions, FILE#N picks one', async () => {
    const { io, stdout } = fakeIO(files)
    expect(await diffCommand(['log.json', 'log.json#2', '--json'], io)).toBe(1)
    const diff = JSON.parse(stdout()) as { same: boolean; firstDifference: unknown; rows: { aspect: string; same: boolean }[] }
    expect(diff).toMatchObject({ same: false, firstDifference: { turn: 1, aspect: 'arguments' } })
    const mixed = fakeIO(files)
    expect(await diffCommand(['log.json', 'paris.session.json'], mixed.io)).toBe(0)
    const second = fakeIO(files)
    expect(await diffCommand(['log.json', 'lyon.session.json', '--conversation', '2'], second.io)).toBe(0)
  })

  it('exits 2 on usage errors and unreadable files, naming the problem', async () => {
    const { io, stderr } = fakeIO(files)
    expect(await diffCommand(['paris.session.json'], io)).toBe(2)
    expect(await diffCommand(['paris.session.json', 'nope.json'], io)).toBe(2)
    expect(await diffCommand(['paris.session.json', 'broken.json'], io)).toBe(2)
    expect(await diffCommand(['log.json#3', 'log.json'], io)).toBe(2)
    expect(await diffCommand(['one.json#2', 'log.json'], io)).toBe(2)
    expect(await diffCommand(['a', 'b', '--frob'], io)).toBe(2)
    expect(stderr()).toMatch(/expected two files, got 1/)
    expect(stderr()).toMatch(/cannot read nope\.json/)
    expect(stderr()).toMatch(/broken\.json: .*events\[0\]/)
    expect(stderr()).toContain('log.json has 2 conversations; there is no conversation 3.')
    expect(stderr()).toContain('one.json has 1 conversation; there is no conversation 2.')
  })
})
