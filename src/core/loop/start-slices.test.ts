/**
 * A big parallel turn is started in slices with the runner's `pause` between them, so the page
 * that runs the loop paints between slices; the calls still all run together. Counted, not timed.
 */
import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../tools/types'
import type { ModelOutput, ToolExecutor } from './interfaces'
import { LoopRunner } from './runner'
import { executeCalls, START_SLICE, STOPPED_NOT_RUN } from './execute-calls'
import type { RunnableCall } from './phases'
import { DEFAULT_LOOP_SETTINGS } from './settings'
import type { SessionEvent } from './events'

const echo: ToolSpec = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }

function turnOf(n: number): () => ModelOutput {
  let turn = 0
  return () =>
    turn++ === 0
      ? { kind: 'message', message: { content: null, tool_calls: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, type: 'function' as const, function: { name: 'echo', arguments: `{"n":${i}}` } })) } }
      : { kind: 'text', raw: 'done' }
}

/** Runs a turn of `n` calls whose results all wait until every call has started (a serial start would never end). */
async function run(n: number, pause?: () => Promise<void>) {
  let started = 0
  let release!: () => void
  const allStarted = new Promise<void>((resolve) => (release = resolve))
  const executor: ToolExecutor = {
    execute: async (call) => {
      if (++started === n) release()
      await allStarted
      return { ok: true, result: JSON.stringify(call.arguments), durationMs: 0 }
    },
  }
  const startedAtPause: number[] = []
  const counted = pause ? () => (startedAtPause.push(started), pause()) : undefined
  const respond = turnOf(n)
  const runner = new LoopRunner({ model: { respond: async () => respond() }, executor, clock: () => 0, ...(counted ? { pause: counted } : {}) })
  runner.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
  while (!runner.stopped) await runner.step()
  return { events: runner.events, startedAtPause }
}

const shape = (events: readonly SessionEvent[]) => events.map((e) => (e.type === 'tool.finished' ? `${e.type} ${e.callId} ${e.result}` : e.type))

describe('starting a big parallel turn', () => {
  it(`starts at most ${START_SLICE} calls between two pauses, all of them in flight together`, async () => {
    const n = 3 * START_SLICE + 7
    const { events, startedAtPause } = await run(n, () => new Promise((resolve) => setTimeout(resolve, 0)))
    // The pauses while starting: each saw at most one more slice started than the one before.
    const starting = startedAtPause.filter((count) => count < n)
    expect(starting.length).toBe(3)
    starting.forEach((count, i) => expect(count - (starting[i - 1] ?? 0)).toBeLessThanOrEqual(START_SLICE))
    const finished = events.filter((e) => e.type === 'tool.finished')
    expect(finished).toHaveLength(n)
    // The same log as a run without pauses.
    expect(shape(events)).toEqual(shape((await run(n)).events))
  })
})

describe('Stop during a big parallel turn', () => {
  it('starts no call after Stop; the calls not started are reported as not run', async () => {
    const n = 3 * START_SLICE + 7
    let started = 0
    const executor: ToolExecutor = { execute: async (call) => (started++, { ok: true, result: JSON.stringify(call.arguments), durationMs: 0 }) }
    let pauses = 0
    let runner!: LoopRunner
    // The user presses Stop during the first pause, after the first slice was started.
    const pause = () => new Promise<void>((resolve) => setTimeout(() => (++pauses === 1 ? runner.abort() : undefined, resolve()), 0))
    const respond = turnOf(n)
    runner = new LoopRunner({ model: { respond: async () => respond() }, executor, clock: () => 0, pause })
    runner.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
    while (!runner.stopped) await runner.step()
    // Let anything still scheduled run: nothing more may start.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0))
    expect(started).toBe(START_SLICE)
    expect(runner.events.at(-1)?.type).toBe('loop.stopped')
  })

  it('executeCalls reports the calls it never started as not run', async () => {
    let started = 0
    const calls = Array.from({ length: 2 * START_SLICE + 3 }, (_, i): RunnableCall => ({
      call: { id: `c${i}`, name: 'echo', arguments: { n: i } },
      index: i,
      spec: echo,
      problems: [],
      dependsOn: [],
    }))
    let stop = false
    const finished = await executeCalls(calls, { ...DEFAULT_LOOP_SETTINGS, execution: 'parallel' }, 0, {
      executor: { execute: async () => (started++, { ok: true, result: 'ok', durationMs: 0 }) },
      clock: () => 0,
      sleep: async () => undefined,
      pause: async () => void (stop = true),
      stopped: () => stop,
    })
    expect(started).toBe(START_SLICE)
    expect(finished).toHaveLength(calls.length)
    expect(finished.slice(0, START_SLICE).every((f) => f.error === undefined)).toBe(true)
    expect(finished.slice(START_SLICE).every((f) => f.error === STOPPED_NOT_RUN)).toBe(true)
  })
})
