/**
 * A run saved before a page reload goes on where it stopped: a runner resumed from the log of
 * a paused run performs the same remaining phases as the runner that was never interrupted.
 */
import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../tools/types'
import type { SessionEvent } from './events'
import type { Model, ModelRequest, ToolExecutor } from './interfaces'
import { LoopRunner } from './runner'

const add: ToolSpec = { name: 'add', description: 'Adds.', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }

/** Calls add at step 0, answers with the last tool result after that: a function of the request only. */
const model: Model = {
  respond: async (request: ModelRequest) =>
    request.step === 0
      ? { kind: 'message', message: { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }] } }
      : { kind: 'text', raw: `The sum is ${request.messages.at(-1)?.content}.` },
}
const executor: ToolExecutor = {
  execute: async (call) => ({ ok: true, result: String((call.arguments as { a: number; b: number }).a + (call.arguments as { a: number; b: number }).b), durationMs: 1 }),
}

const runner = () => new LoopRunner({ model, executor, clock: () => 0 })
const start = (r: LoopRunner) => r.start({ protocol: 'openai', tools: [add], messages: [{ role: 'user', content: 'Add 2 and 3.' }] })
const withoutTimes = (events: SessionEvent[]) => events.map(({ at: _at, ...rest }) => rest)

describe('LoopRunner.resume', () => {
  it.each([1, 2, 3, 4, 5])('after %i steps, a resumed runner finishes the run as the uninterrupted one does', async (steps) => {
    const whole = runner()
    start(whole)
    await whole.run()

    const paused = runner()
    start(paused)
    for (let i = 0; i < steps; i++) await paused.step()
    expect(paused.stopped).toBe(false)
    // What a reload keeps: the log, as JSON.
    const saved = JSON.parse(JSON.stringify(paused.events)) as SessionEvent[]

    const resumed = runner()
    resumed.resume(saved)
    expect(resumed.events).toEqual(saved)
    await resumed.run()
    expect(withoutTimes(resumed.events)).toEqual(withoutTimes(whole.events))
    expect(resumed.state.finalAnswer).toBe('The sum is 5.')
  })

  it('refuses a log that does not begin with session.started, and a runner that has started', () => {
    expect(() => runner().resume([])).toThrow('begins with session.started')
    const started = runner()
    start(started)
    expect(() => started.resume(started.events)).toThrow('already started')
  })
})
