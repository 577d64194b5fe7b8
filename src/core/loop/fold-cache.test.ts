import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../tools/types'
import type { ModelOutput, ToolExecutor } from './interfaces'
import { createFoldCache } from './fold-cache'
import { apply, fold, initialLoopState } from './reducer'
import { LoopRunner } from './runner'
import type { SessionEvent } from './events'

const echo: ToolSpec = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }
const executor: ToolExecutor = { execute: async (call) => ({ ok: true, result: JSON.stringify(call.arguments), durationMs: 0 }) }

async function log(calls: number): Promise<SessionEvent[]> {
  let turn = 0
  const output = (): ModelOutput =>
    turn++ < 2 ? { kind: 'message', message: { content: null, tool_calls: Array.from({ length: calls }, (_, i) => ({ id: `c${turn}_${i}`, type: 'function' as const, function: { name: 'echo', arguments: `{"n":${i}}` } })) } } : { kind: 'text', raw: 'done' }
  const runner = new LoopRunner({ model: { respond: async () => output() }, executor, clock: () => 0 })
  runner.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 4 })
  return runner.run()
}

describe('createFoldCache', () => {
  it('gives the same state as fold at every index, moving forward, back and across a grown log', async () => {
    const events = await log(30)
    const cache = createFoldCache(7)
    const indices = [events.length - 1, 0, 12, 13, 6, 7, 50, -1, 3, events.length - 1]
    for (const index of indices) expect(cache.foldTo(events, index)).toEqual(fold(events.slice(0, index + 1)))
    // A live run's next phase: a new array sharing the first events, then a changed tail.
    const grown = [...events.slice(0, 40), ...events.slice(40).map((e) => ({ ...e }))]
    for (const index of [39, 40, grown.length - 1, 20]) expect(cache.foldTo(grown, index)).toEqual(fold(grown.slice(0, index + 1)))
    expect(cache.foldTo([], 3)).toEqual(initialLoopState)
  })

  it('folds at most `every` events for a cursor move once the checkpoints exist', async () => {
    const events = await log(300)
    let applied = 0
    const counting = events.map((event) => new Proxy(event, { get: (target, key, receiver) => (key === 'type' && applied++, Reflect.get(target, key, receiver) as unknown) }))
    const cache = createFoldCache(50)
    cache.foldTo(counting, counting.length - 1)
    applied = 0
    const state = cache.foldTo(counting, 333)
    expect(state).toEqual(events.slice(0, 334).reduce(apply, initialLoopState))
    // `apply` reads an event's type a few times; 50 events at most are folded again.
    expect(applied).toBeLessThan(50 * 6)
    expect(applied).toBeGreaterThan(0)
  })
})
