import { transform } from 'sucrase'
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../loop/events'
import { writeMockModel } from './mock-model'

// Partial events: the recording reads only these fields.
const ev = (event: Record<string, unknown>) => event as unknown as SessionEvent

/** The default export of a written `model.ts`, run as plain JavaScript. */
function load(source: string): (ctx: { messages: unknown[]; step: number }) => string {
  const code = transform(source, { transforms: ['typescript', 'imports'] }).code
  const exports: { default?: unknown } = {}
  new Function('exports', 'require', code)(exports, () => ({}))
  return exports.default as (ctx: { messages: unknown[]; step: number }) => string
}

describe('a saved mock model', () => {
  const events = [
    ev({ seq: 0, type: 'session.started', source: 'live', tools: [], protocol: 'json', messages: [{ role: 'user', content: 'hi' }] }),
    ev({ seq: 1, type: 'model.responded', step: 0, raw: 'Hello.' }),
  ]

  it('replays its turn, and counts the recorded turns in the singular when there is one', () => {
    const model = load(writeMockModel(events, 'a test'))
    expect(model({ messages: [{ role: 'user', content: 'hi' }], step: 0 })).toBe('Hello.')
    expect(() => model({ messages: [{ role: 'user', content: 'hi' }], step: 1 })).toThrow('The recording has 1 turn; the loop asked for turn 2, which was never recorded.')
  })
})
