/**
 * The runner computes parse and validate through its `PhaseRunner`: one that answers later (as
 * a worker does) gives the same log as the in-thread default, Stop while it works discards its
 * answer, and a phase that cannot run stops the loop with an error instead of hanging.
 */
import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../tools/types'
import type { SessionEvent } from './events'
import type { ModelOutput, ToolExecutor } from './interfaces'
import { inThreadPhases, type PhaseRunner } from './phase-runner'
import { COMMIT_SLICE, LoopRunner } from './runner'
import { START_SLICE } from './execute-calls'

const echo: ToolSpec = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }
const executor: ToolExecutor = { execute: async (call) => ({ ok: true, result: JSON.stringify(call.arguments), durationMs: 0 }) }

function output(calls: number): ModelOutput {
  return { kind: 'message', message: { content: null, tool_calls: Array.from({ length: calls }, (_, i) => ({ id: `c${i}`, type: 'function' as const, function: { name: 'echo', arguments: `{"n":${i}}` } })) } }
}

function runnerWith(phases: PhaseRunner | undefined, calls = 3): LoopRunner {
  let turn = 0
  const runner = new LoopRunner({
    model: { respond: async () => (turn++ === 0 ? output(calls) : { kind: 'text', raw: 'done' }) },
    executor,
    clock: () => 0,
    ...(phases ? { phases } : {}),
  })
  runner.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
  return runner
}

/** A phase runner that answers each phase only when released, through a structured clone (as a worker's answer arrives). */
function held() {
  const waiting: { phase: string; release(): void }[] = []
  const later =
    <I, O>(phase: string, run: (input: I) => Promise<O>) =>
    (input: I) =>
      new Promise<O>((resolve, reject) => {
        const copy = structuredClone(input)
        waiting.push({ phase, release: () => void run(copy).then((event) => resolve(structuredClone(event)), reject) })
      })
  const phases: PhaseRunner & { cancelled: number } = {
    cancelled: 0,
    parse: later('parse', inThreadPhases.parse),
    validate: later('validate', inThreadPhases.validate),
    cancel() {
      phases.cancelled += 1
    },
  }
  return { phases, waiting }
}

const types = (events: SessionEvent[]) => events.map((e) => e.type)

describe('LoopRunner with a PhaseRunner', () => {
  it('logs the same events as the in-thread phases, in the same order, when each phase answers later', async () => {
    const expected = await runnerWith(undefined, 50).run()
    const { phases, waiting } = held()
    const runner = runnerWith(phases, 50)
    const done = runner.run()
    // Release each phase as it is asked for, a few macrotasks late.
    const asked: string[] = []
    while (!runner.stopped) {
      await new Promise((resolve) => setTimeout(resolve, 1))
      const next = waiting.shift()
      if (next) {
        asked.push(next.phase)
        next.release()
      }
    }
    const events = await done
    expect(asked).toEqual(['parse', 'validate', 'parse'])
    expect(events).toEqual(expected)
    expect(types(events)).toContain('validate.completed')
  })

  it('Stop while a phase is out discards its answer and cancels it', async () => {
    const { phases, waiting } = held()
    const runner = runnerWith(phases)
    await runner.step() // decide
    const parsing = runner.step()
    await new Promise((resolve) => setTimeout(resolve, 1))
    expect(waiting.map((w) => w.phase)).toEqual(['parse'])
    runner.abort()
    expect(phases.cancelled).toBe(1)
    waiting.shift()!.release()
    expect(await parsing).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(types(runner.events)).toEqual(['session.started', 'model.responded', 'loop.stopped'])
    expect(runner.events.at(-1)).toMatchObject({ reason: 'aborted' })
  })

  it('a phase that cannot run stops the loop with an error that says so', async () => {
    const failing: PhaseRunner = { parse: () => Promise.reject(new Error('the worker stopped')), validate: inThreadPhases.validate }
    const events = await runnerWith(failing).run()
    expect(types(events)).toEqual(['session.started', 'model.responded', 'loop.stopped'])
    expect(events.at(-1)).toMatchObject({ reason: 'error', detail: 'The parse phase could not run: the worker stopped' })
  })
})

describe('LoopRunner with a pause between slices of a long outcome', () => {
  function sliced(calls: number, pause: () => Promise<void>): LoopRunner {
    let turn = 0
    const runner = new LoopRunner({ model: { respond: async () => (turn++ === 0 ? output(calls) : { kind: 'text', raw: 'done' }) }, executor, clock: () => 0, pause })
    runner.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
    return runner
  }

  it('appends the tool results of a 12 000-call turn in slices, with the same log as in one go', async () => {
    const expected = await runnerWith(undefined, 12_000).run()
    let pauses = 0
    const events = await sliced(12_000, async () => void (pauses += 1)).run()
    // Between the slices of calls started, then between the slices of results appended.
    expect(pauses).toBe(Math.ceil(12_000 / START_SLICE) - 1 + Math.ceil(12_000 / COMMIT_SLICE) - 1)
    expect(events).toEqual(expected)
  })

  it('Stop during a pause keeps the slices appended and drops the rest', async () => {
    let runner: LoopRunner | null = null
    // The first pause between slices of results (the ones before come while the calls are started).
    runner = sliced(12_000, async () => void (runner?.events.some((e) => e.type === 'tool.finished') && runner.abort()))
    await runner.run()
    const finished = runner.events.filter((e) => e.type === 'tool.finished')
    expect(finished).toHaveLength(COMMIT_SLICE)
    expect(runner.events.at(-1)).toMatchObject({ type: 'loop.stopped', reason: 'aborted' })
    expect(runner.events.map((e) => e.seq)).toEqual(runner.events.map((_, i) => i))
  })
})
