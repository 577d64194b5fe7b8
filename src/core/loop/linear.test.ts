/**
 * A turn of n tool calls costs O(n): the phases look each call's verdict, decision and result up
 * once, not with a search per call. Checked by counting reads rather than by timing (timing goes
 * to `npm run bench loop`).
 */
import { describe, expect, it } from 'vitest'
import type { ToolSpec } from '../tools/types'
import type { NewSessionEvent, SessionEvent } from './events'
import { planWaves } from './execute-calls'
import type { ModelOutput, ToolExecutor } from './interfaces'
import { transition } from './machine'
import { backfillMessages, runnableCalls, type RunnableCall } from './phases'
import { endRepeatRun, extendRepeatRun, fold } from './reducer'
import { LoopRunner } from './runner'

const echo: ToolSpec = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }

/** `value` with every read of `key` counted in `counter`. */
function counting<T extends object>(value: T, key: string, counter: { reads: number }): T {
  return new Proxy(value, {
    get(target, property, receiver) {
      if (property === key) counter.reads += 1
      return Reflect.get(target, property, receiver) as unknown
    },
  })
}

function turnOf(n: number, counter: { reads: number }): SessionEvent[] {
  const ids = Array.from({ length: n }, (_, i) => `c${i}`)
  const list: NewSessionEvent[] = [
    { type: 'session.started', source: 'live', protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 2 },
    { type: 'model.responded', step: 0, raw: '…', durationMs: 0 },
    { type: 'parse.completed', protocol: 'openai', calls: ids.map((id, i) => ({ id, name: 'echo', arguments: { n: i }, spans: { call: { start: 0, end: 0 } } })), text: '', repairs: [], errors: [] },
    { type: 'validate.completed', verdicts: ids.map((id, i) => counting({ callId: id, name: 'echo', ok: true, problems: [], arguments: { n: i } }, 'callId', counter)) },
    // Results logged in reverse, so a lookup cannot get lucky by finding each one first.
    ...[...ids].reverse().map((id): NewSessionEvent => ({ type: 'tool.finished', callId: id, name: 'echo', result: id, durationMs: 0, timedOut: false, truncated: false })),
  ]
  return list.map((event, seq) => counting({ ...event, seq, at: 0 } as SessionEvent, 'callId', counter))
}

describe('a turn of n calls is linear', () => {
  it.each([1_000, 4_000])('reads each verdict and result id a bounded number of times (n = %i)', (n) => {
    const counter = { reads: 0 }
    const log = turnOf(n, counter)
    // The runner folds a phase's events and decides once, on the last one.
    const before = fold(log.slice(0, -1))
    counter.reads = 0
    const [state, effects] = transition(before, log.at(-1)!)
    const calls = runnableCalls(state)
    const messages = backfillMessages(state)
    // A search per call would read ~n²/2 ids (500 000 at n = 1 000); one pass each reads a few per call.
    expect(counter.reads).toBeLessThanOrEqual(8 * n)
    expect(effects[0]).toMatchObject({ type: 'append', event: { type: 'backfill.completed' } })
    expect(calls).toHaveLength(n)
    expect(messages).toHaveLength(n + 1)
    expect(messages[1]).toEqual({ role: 'tool', tool_call_id: 'c0', name: 'echo', content: 'c0' })
    expect(messages[n]).toEqual({ role: 'tool', tool_call_id: `c${n - 1}`, name: 'echo', content: `c${n - 1}` })
  })

  it('pairs each call with its own verdict, in whatever order the verdicts come', () => {
    const log = turnOf(6, { reads: 0 })
    const validated = log[3] as Extract<SessionEvent, { type: 'validate.completed' }>
    const shuffled = { ...validated, verdicts: [...validated.verdicts].reverse().map((v, k) => ({ ...v, name: k === 0 ? 'missing' : v.name })) }
    const state = fold([...log.slice(0, 3), shuffled])
    const calls = runnableCalls(state)
    expect(calls.map((c) => [c.call.id, c.call.arguments])).toEqual(Array.from({ length: 6 }, (_, i) => [`c${i}`, { n: i }]))
    // The verdict renamed 'missing' was c5's: only that call has no tool.
    expect(calls.map((c) => c.spec?.name ?? null)).toEqual(['echo', 'echo', 'echo', 'echo', 'echo', null])
  })

  it('plans a chain of n dependent calls in O(n) waves bookkeeping', () => {
    const n = 3_000
    const counter = { reads: 0 }
    const calls: RunnableCall[] = Array.from({ length: n }, (_, i) =>
      counting({ call: { id: `c${i}`, name: 'echo', arguments: {} }, spec: echo, problems: [], dependsOn: i === 0 ? [] : [`c${i - 1}`], index: i }, 'dependsOn', counter),
    )
    const { waves, problems } = planWaves(calls)
    expect(waves).toHaveLength(n)
    expect(waves[n - 1]).toEqual([n - 1])
    expect(problems.size).toBe(0)
    // Rescanning every call for each wave would read dependsOn ~n²/2 times.
    expect(counter.reads).toBeLessThanOrEqual(4 * n)
  })

  it('runs a 3 000-call turn through parse, validate, execute and backfill', async () => {
    const n = 3_000
    const output: ModelOutput = {
      kind: 'message',
      message: { content: null, tool_calls: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, type: 'function' as const, function: { name: 'echo', arguments: JSON.stringify({ n: i }) } })) },
    }
    let executed = 0
    const executor: ToolExecutor = { execute: async (call) => ((executed += 1), { ok: true, result: String(call.arguments.n), durationMs: 0 }) }
    let responses = 0
    const runner = new LoopRunner({ model: { respond: async () => (responses++ === 0 ? output : { kind: 'text', raw: 'done' }) }, executor, clock: () => 0 })
    runner.start({ protocol: 'openai', tools: [echo], messages: [{ role: 'user', content: 'go' }], maxSteps: 3 })
    const events = await runner.run()
    expect(executed).toBe(n)
    const backfill = events.find((event) => event.type === 'backfill.completed')
    if (backfill?.type !== 'backfill.completed') throw new Error('no backfill')
    expect(backfill.messages).toHaveLength(n + 1)
    expect(backfill.messages.slice(1).every((message, i) => message.role === 'tool' && message.tool_call_id === `c${i}` && message.content === String(i))).toBe(true)
    expect(runner.state.stop?.reason).toBe('final_answer')
  })
})

describe('the repeat run after a validated turn', () => {
  it('is the same read from the end as read forward, and reads only the final run of identical calls', () => {
    let seed = 7
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    for (let trial = 0; trial < 500; trial++) {
      const signatures = Array.from({ length: Math.floor(random() * 8) }, () => (random() < 0.6 ? 'a' : 'b'))
      const before = random() < 0.3 ? null : { signature: random() < 0.5 ? 'a' : 'b', count: 1 + Math.floor(random() * 3) }
      expect(endRepeatRun(before, signatures.length, (i) => signatures[i]!)).toEqual(extendRepeatRun(before, signatures))
    }
    let reads = 0
    const run = endRepeatRun(null, 100_000, (i) => (reads++, `s${i}`))
    expect(run).toEqual({ signature: 's99999', count: 1 })
    expect(reads).toBe(2)
  })
})
